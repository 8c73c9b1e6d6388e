// ClientNetwork: one entry of the server's allow-list, an IPv4 network in CIDR form ("10.0.0.0/8").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/Result.h"

namespace openflint {

struct ClientNetwork {
  std::uint32_t address = 0;  // host order, host bits cleared
  std::uint32_t mask = 0;     // host order
  std::string text;           // as given, for messages

  // "A.B.C.D/N" (0..32) or a bare address (/32). InvalidArgument otherwise (IPv6 is not handled).
  [[nodiscard]] static Result<ClientNetwork> parse(std::string_view cidr);
  // `ipv4` in host order.
  [[nodiscard]] bool contains(std::uint32_t ipv4) const { return (ipv4 & mask) == address; }
};

}  // namespace openflint
