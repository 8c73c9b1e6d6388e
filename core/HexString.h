// HexString: "0x1f5"-style formatting for messages about addresses and ids.
#pragma once

#include <cstdint>
#include <span>
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

// "0x0000abcd": a register dword at its fixed width (mstregdump's, mstreg's, flint's form).
[[nodiscard]] inline std::string hex_dword(std::uint32_t v) {
  std::string s = hex_string(v).substr(2);
  return "0x" + std::string(8 - s.size(), '0') + s;
}

// Two lower-case hex digits per byte, nothing between: "0a1b".
[[nodiscard]] inline std::string hex_digits(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(bytes.size() * 2);
  for (const std::uint8_t b : bytes) {
    s += kDigits[b >> 4];
    s += kDigits[b & 0xf];
  }
  return s;
}

}  // namespace openflint
