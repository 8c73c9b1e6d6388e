// ByteReader: bounds-checked big-endian accessors.
#include "core/ByteReader.h"

#include <cstdio>

namespace openflint {

Unexpected ByteReader::out_of_bounds(std::uint64_t offset, std::uint64_t length) const {
  char buf[128];
  std::snprintf(buf, sizeof buf, "read of %llu bytes at 0x%llx is past the end (size 0x%zx)",
                static_cast<unsigned long long>(length), static_cast<unsigned long long>(offset),
                data_.size());
  return make_error(ErrorCode::InvalidImage, buf);
}

Result<std::uint8_t> ByteReader::u8(std::uint64_t offset) const {
  if (!contains(offset, 1)) return out_of_bounds(offset, 1);
  return data_[offset];
}

Result<std::uint16_t> ByteReader::be16(std::uint64_t offset) const {
  if (!contains(offset, 2)) return out_of_bounds(offset, 2);
  return static_cast<std::uint16_t>((data_[offset] << 8) | data_[offset + 1]);
}

Result<std::uint32_t> ByteReader::be32(std::uint64_t offset) const {
  if (!contains(offset, 4)) return out_of_bounds(offset, 4);
  return load_be32(data_.data() + offset);
}

Result<std::uint64_t> ByteReader::be64(std::uint64_t offset) const {
  if (!contains(offset, 8)) return out_of_bounds(offset, 8);
  return (std::uint64_t{load_be32(data_.data() + offset)} << 32) |
         load_be32(data_.data() + offset + 4);
}

Result<Bytes> ByteReader::slice(std::uint64_t offset, std::uint64_t length) const {
  if (!contains(offset, length)) return out_of_bounds(offset, length);
  return data_.subspan(offset, length);
}

Result<ByteReader> ByteReader::sub(std::uint64_t offset, std::uint64_t length) const {
  if (!contains(offset, length)) return out_of_bounds(offset, length);
  return ByteReader(data_.subspan(offset, length));
}

Result<std::string> ByteReader::fixed_string(std::uint64_t offset, std::uint64_t length) const {
  if (!contains(offset, length)) return out_of_bounds(offset, length);
  std::string out;
  for (std::uint64_t i = 0; i < length && data_[offset + i] != 0; ++i)
    out.push_back(static_cast<char>(data_[offset + i]));
  return out;
}

}  // namespace openflint
