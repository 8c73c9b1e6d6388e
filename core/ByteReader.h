// ByteReader: bounds-checked big-endian view over an immutable byte buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/Result.h"

namespace openflint {

using Bytes = std::span<const std::uint8_t>;

// Every accessor takes an absolute offset into the view and fails (ErrorCode::InvalidImage)
// instead of reading past the end. Firmware formats here are big-endian throughout.
class ByteReader {
 public:
  ByteReader() = default;
  explicit ByteReader(Bytes data) : data_(data) {}

  [[nodiscard]] std::size_t size() const { return data_.size(); }
  [[nodiscard]] Bytes bytes() const { return data_; }
  [[nodiscard]] bool contains(std::uint64_t offset, std::uint64_t length) const {
    return offset <= data_.size() && length <= data_.size() - offset;
  }

  [[nodiscard]] Result<std::uint8_t> u8(std::uint64_t offset) const;
  [[nodiscard]] Result<std::uint16_t> be16(std::uint64_t offset) const;
  [[nodiscard]] Result<std::uint32_t> be32(std::uint64_t offset) const;
  [[nodiscard]] Result<std::uint64_t> be64(std::uint64_t offset) const;
  // A sub-view [offset, offset + length).
  [[nodiscard]] Result<Bytes> slice(std::uint64_t offset, std::uint64_t length) const;
  [[nodiscard]] Result<ByteReader> sub(std::uint64_t offset, std::uint64_t length) const;
  // A fixed-size text field: stops at the first NUL, trailing spaces kept as-is.
  [[nodiscard]] Result<std::string> fixed_string(std::uint64_t offset, std::uint64_t length) const;

  // Unchecked big-endian load for hot loops whose bounds were proven by the caller.
  [[nodiscard]] static std::uint32_t load_be32(const std::uint8_t* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) |
           (std::uint32_t{p[2]} << 8) | std::uint32_t{p[3]};
  }

 private:
  [[nodiscard]] Unexpected out_of_bounds(std::uint64_t offset, std::uint64_t length) const;
  Bytes data_;
};

// Big-endian stores into a mutable buffer; the caller guarantees the room (writers size first).
inline void store_be32(std::uint8_t* p, std::uint32_t v) {
  p[0] = static_cast<std::uint8_t>(v >> 24);
  p[1] = static_cast<std::uint8_t>(v >> 16);
  p[2] = static_cast<std::uint8_t>(v >> 8);
  p[3] = static_cast<std::uint8_t>(v);
}
inline void store_be16(std::uint8_t* p, std::uint16_t v) {
  p[0] = static_cast<std::uint8_t>(v >> 8);
  p[1] = static_cast<std::uint8_t>(v);
}

}  // namespace openflint
