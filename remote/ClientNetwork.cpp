// ClientNetwork: parsing an IPv4 or IPv6 CIDR allow-list entry and matching a peer against it.
#include "remote/ClientNetwork.h"

#include <arpa/inet.h>

#include <charconv>
#include <cstring>

namespace openflint {
namespace {

constexpr unsigned kIpv6Bits = 128;
constexpr unsigned kIpv4Bits = 32;
constexpr unsigned kMappedPrefix = kIpv6Bits - kIpv4Bits;  // ::ffff:0:0/96

// Clears every bit after the first `prefix`.
PeerAddress masked(PeerAddress address, unsigned prefix) {
  for (unsigned i = 0; i < address.size(); ++i) {
    const unsigned first_bit = 8 * i;
    if (prefix >= first_bit + 8) continue;
    const unsigned keep = prefix > first_bit ? prefix - first_bit : 0;
    address[i] &= static_cast<std::uint8_t>(keep == 0 ? 0 : 0xff << (8 - keep));
  }
  return address;
}

}  // namespace

PeerAddress mapped_ipv4(std::uint32_t ipv4) {
  PeerAddress out{};
  out[10] = out[11] = 0xff;
  for (int i = 0; i < 4; ++i) out[12 + i] = static_cast<std::uint8_t>(ipv4 >> (24 - 8 * i));
  return out;
}

std::optional<PeerAddress> parse_peer_address(const std::string& text) {
  if (in_addr v4{}; ::inet_pton(AF_INET, text.c_str(), &v4) == 1) return mapped_ipv4(ntohl(v4.s_addr));
  PeerAddress address{};
  if (in6_addr v6{}; ::inet_pton(AF_INET6, text.c_str(), &v6) == 1) {
    std::memcpy(address.data(), v6.s6_addr, address.size());
    return address;
  }
  return std::nullopt;
}

bool is_loopback(const PeerAddress& address) {
  static const ClientNetwork kIpv4Loopback = ClientNetwork::parse("127.0.0.0/8").value();
  PeerAddress v6_loopback{};
  v6_loopback.back() = 1;
  return kIpv4Loopback.contains(address) || address == v6_loopback;
}

Result<ClientNetwork> ClientNetwork::parse(std::string_view cidr) {
  const auto bad = [&] {
    return make_error(ErrorCode::InvalidArgument, "not an IP network: '" + std::string(cidr) +
                                                      "' (expected A.B.C.D/N or an IPv6 prefix, e.g. 192.168.1.0/24, fd00::/8)");
  };
  const std::size_t slash = cidr.find('/');
  const std::string host(cidr.substr(0, slash));
  ClientNetwork network;
  unsigned width = 0;
  const auto address = parse_peer_address(host);
  if (!address) return bad();
  network.address = *address;
  width = host.find(':') == std::string::npos ? kIpv4Bits : kIpv6Bits;
  unsigned prefix = width;
  if (slash != std::string_view::npos) {
    const std::string_view digits = cidr.substr(slash + 1);
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), prefix);
    if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size() || prefix > width) return bad();
  }
  network.prefix = width == kIpv4Bits ? kMappedPrefix + prefix : prefix;
  network.address = masked(network.address, network.prefix);
  network.text = std::string(cidr);
  return network;
}

bool ClientNetwork::contains(const PeerAddress& peer) const { return masked(peer, prefix) == address; }

}  // namespace openflint
