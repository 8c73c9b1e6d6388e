// ClientNetwork: one entry of the server's allow-list, an IPv4 or IPv6 network in CIDR form ("10.0.0.0/8", "fd00::/8").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/Result.h"

namespace openflint {

// An IPv6 address; an IPv4 address is held as its IPv4-mapped form ::ffff:A.B.C.D, which is
// also how a dual-stack socket reports an IPv4 peer.
using PeerAddress = std::array<std::uint8_t, 16>;

// ::ffff:A.B.C.D for `ipv4` in host order.
[[nodiscard]] PeerAddress mapped_ipv4(std::uint32_t ipv4);
// An IPv4 literal (held mapped) or an IPv6 literal; nullopt for anything else (names included).
[[nodiscard]] std::optional<PeerAddress> parse_peer_address(const std::string& text);
// 127.0.0.0/8 (mapped) or ::1.
[[nodiscard]] bool is_loopback(const PeerAddress& address);

struct ClientNetwork {
  PeerAddress address{};  // host bits cleared
  unsigned prefix = 0;    // 0..128 over the IPv6 form (an IPv4 /N is 96 + N)
  std::string text;       // as given, for messages

  // "A.B.C.D/N" (0..32), "V6/N" (0..128), or a bare address (one host). InvalidArgument otherwise.
  [[nodiscard]] static Result<ClientNetwork> parse(std::string_view cidr);
  [[nodiscard]] bool contains(const PeerAddress& peer) const;
  // `ipv4` in host order.
  [[nodiscard]] bool contains(std::uint32_t ipv4) const { return contains(mapped_ipv4(ipv4)); }
};

}  // namespace openflint
