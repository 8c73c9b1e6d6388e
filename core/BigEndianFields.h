// BigEndianFields: big-endian fields at byte offsets of a buffer (MADs, access-register TLVs, PRM layouts).
#pragma once

#include <cstddef>
#include <cstdint>

namespace openflint::be {

// Callers pass in-range offsets.
[[nodiscard]] inline std::uint16_t get16(const std::uint8_t* buf, std::size_t off) {
  return static_cast<std::uint16_t>((buf[off] << 8) | buf[off + 1]);
}
[[nodiscard]] inline std::uint32_t get32(const std::uint8_t* buf, std::size_t off) {
  return (std::uint32_t{buf[off]} << 24) | (std::uint32_t{buf[off + 1]} << 16) |
         (std::uint32_t{buf[off + 2]} << 8) | std::uint32_t{buf[off + 3]};
}
[[nodiscard]] inline std::uint64_t get64(const std::uint8_t* buf, std::size_t off) {
  return (std::uint64_t{get32(buf, off)} << 32) | get32(buf, off + 4);
}
inline void put16(std::uint8_t* buf, std::size_t off, std::uint16_t v) {
  buf[off] = static_cast<std::uint8_t>(v >> 8);
  buf[off + 1] = static_cast<std::uint8_t>(v);
}
inline void put32(std::uint8_t* buf, std::size_t off, std::uint32_t v) {
  put16(buf, off, static_cast<std::uint16_t>(v >> 16));
  put16(buf, off + 2, static_cast<std::uint16_t>(v));
}
inline void put64(std::uint8_t* buf, std::size_t off, std::uint64_t v) {
  put32(buf, off, static_cast<std::uint32_t>(v >> 32));
  put32(buf, off + 4, static_cast<std::uint32_t>(v));
}

}  // namespace openflint::be
