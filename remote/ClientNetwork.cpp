// ClientNetwork: parsing an IPv4 CIDR allow-list entry.
#include "remote/ClientNetwork.h"

#include <arpa/inet.h>

#include <charconv>

namespace openflint {

Result<ClientNetwork> ClientNetwork::parse(std::string_view cidr) {
  constexpr int kMaxPrefix = 32;
  const auto bad = [&] {
    return make_error(ErrorCode::InvalidArgument,
                      "not an IPv4 network: '" + std::string(cidr) + "' (expected A.B.C.D/N, e.g. 192.168.1.0/24)");
  };
  const std::size_t slash = cidr.find('/');
  int prefix = kMaxPrefix;
  if (slash != std::string_view::npos) {
    const std::string_view digits = cidr.substr(slash + 1);
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), prefix);
    if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size() || prefix < 0 || prefix > kMaxPrefix)
      return bad();
  }
  const std::string host(cidr.substr(0, slash));
  in_addr parsed{};
  if (::inet_pton(AF_INET, host.c_str(), &parsed) != 1) return bad();
  ClientNetwork network;
  network.mask = prefix == 0 ? 0 : ~std::uint32_t{0} << (kMaxPrefix - prefix);
  network.address = ntohl(parsed.s_addr) & network.mask;
  network.text = std::string(cidr);
  return network;
}

}  // namespace openflint
