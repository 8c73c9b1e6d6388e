// MtrcStdbRegister: encode/decode of MTRC_STDB and the rules a string-DB read must follow.
#include "mtcr/registers/MtrcStdbRegister.h"

#include <algorithm>
#include <string>

#include "core/BigEndianFields.h"

namespace openflint {

MtrcStdbRegister MtrcStdbRegister::request(std::uint8_t index, std::uint32_t offset, std::uint32_t size) {
  MtrcStdbRegister r;
  r.string_db_index = index;
  r.start_offset = offset;
  r.read_size = size;
  return r;
}

Result<void> MtrcStdbRegister::check_request(std::uint32_t section_size, std::uint32_t max_read) const {
  const std::string what = "mtrc_stdb: section " + std::to_string(string_db_index) + ", offset " +
                           std::to_string(start_offset) + ", " + std::to_string(read_size) + " bytes";
  if (read_size == 0 || read_size % kAlignment != 0)
    return make_error(ErrorCode::InvalidArgument, what + ": read_size is not a non-zero multiple of 64");
  if (start_offset % kAlignment != 0)
    return make_error(ErrorCode::InvalidArgument, what + ": start_offset is not a multiple of 64");
  if (read_size > max_read)
    return make_error(ErrorCode::InvalidArgument, what + ": more than the " + std::to_string(max_read) + " bytes one access carries");
  if (std::uint64_t{start_offset} + read_size > section_size)
    return make_error(ErrorCode::InvalidArgument, what + ": past the section's " + std::to_string(section_size) + " bytes");
  return {};
}

std::vector<std::uint8_t> MtrcStdbRegister::encode() const {
  const std::uint32_t size = read_size & kMaxReadSize;
  std::vector<std::uint8_t> out(kHeaderSize + size, 0);
  be::put32(out.data(), 0x00, std::uint32_t{string_db_index & 0xfu} << 28 | size);
  be::put32(out.data(), 0x04, start_offset);
  std::copy_n(data.begin(), std::min<std::size_t>(data.size(), size), out.begin() + kHeaderSize);
  return out;
}

Result<MtrcStdbRegister> MtrcStdbRegister::decode(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < kHeaderSize)
    return make_error(ErrorCode::InvalidImage,
                      "mtrc_stdb: " + std::to_string(bytes.size()) + " bytes, needs " + std::to_string(kHeaderSize));
  MtrcStdbRegister r;
  const std::uint32_t d0 = be::get32(bytes.data(), 0x00);
  r.string_db_index = static_cast<std::uint8_t>(d0 >> 28);
  r.read_size = d0 & kMaxReadSize;
  r.start_offset = be::get32(bytes.data(), 0x04);
  if (bytes.size() - kHeaderSize < r.read_size)
    return make_error(ErrorCode::InvalidImage, "mtrc_stdb: " + std::to_string(bytes.size() - kHeaderSize) +
                                                   " data bytes, read_size says " + std::to_string(r.read_size));
  r.data.assign(bytes.begin() + kHeaderSize, bytes.begin() + kHeaderSize + r.read_size);
  return r;
}

}  // namespace openflint
