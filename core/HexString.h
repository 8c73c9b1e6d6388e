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

// "0x" and at least `width` lower-case digits, zero-padded: hex_string(0xa, 2) is "0x0a".
[[nodiscard]] inline std::string hex_string(std::uint64_t v, int width) {
  std::string s = hex_string(v).substr(2);
  if (width > 0 && s.size() < static_cast<std::size_t>(width)) s.insert(0, static_cast<std::size_t>(width) - s.size(), '0');
  return "0x" + s;
}

// "0x0000abcd": a register dword at its fixed width (mstregdump's, mstreg's, flint's form).
[[nodiscard]] inline std::string hex_dword(std::uint32_t v) { return hex_string(v, 8); }

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
