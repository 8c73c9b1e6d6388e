// HexString: "0x1f5"-style formatting for messages about addresses and ids.
#pragma once

#include <cstdint>
#include <string>

namespace openflint {

[[nodiscard]] inline std::string hex_string(std::uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), kDigits[v & 0xf]);
    v >>= 4;
  } while (v != 0);
  return "0x" + s;
}

}  // namespace openflint
