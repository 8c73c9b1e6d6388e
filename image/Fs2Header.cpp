// Fs2Header: reading the FS2 header words and mapping striped failsafe addresses.
#include "image/Fs2Header.h"

#include "image/GphSections.h"

namespace openflint::fs2 {

bool has_magic(Bytes data, std::uint64_t offset) {
  const ByteReader r(data);
  if (!r.contains(offset, 16)) return false;
  for (std::size_t i = 0; i < kMagic.size(); ++i)
    if (ByteReader::load_be32(data.data() + offset + 4 * i) != kMagic[i]) return false;
  return true;
}

Result<Header> read_header(Bytes image) {
  const ByteReader r(image);
  if (!r.contains(0, kBoot2Offset))
    return make_error(ErrorCode::InvalidImage, "FS2 header: image shorter than 0x38 bytes");
  const std::uint8_t* p = image.data();
  Header h;
  h.fw_id = ByteReader::load_be32(p + kFwIdOffset);
  h.boot_version = ByteReader::load_be32(p + kBootVersionOffset);
  h.fs_word = ByteReader::load_be32(p + kFsWordOffset);
  h.info_ptr = ByteReader::load_be32(p + kInfoPtrOffset);
  h.image_size = ByteReader::load_be32(p + kImageSizeOffset);
  h.guid_ptr = ByteReader::load_be32(p + kGuidPtrOffset);
  h.fs_word_ok = gph::byte_sum_is_zero(h.fs_word);
  h.failsafe = h.fs_word_ok && (h.fs_word & 0x8) != 0;
  h.log2_chunk = (h.fs_word & 0x7) + 16;
  return h;
}

std::uint32_t make_fs_word(bool failsafe, unsigned log2_chunk) {
  const std::uint32_t low = failsafe ? (0x8u | ((log2_chunk - 16) & 0x7)) : 0u;
  return gph::with_checksum_byte(low);
}

std::uint64_t striped_address(std::uint64_t logical, bool odd, unsigned log2_chunk) {
  const std::uint64_t chunk = std::uint64_t{1} << log2_chunk;
  return (logical & (chunk - 1)) | (odd ? chunk : 0) | ((logical << 1) & ~(2 * chunk - 1));
}

std::vector<std::uint8_t> destripe(Bytes flash, bool odd, unsigned log2_chunk) {
  const std::uint64_t chunk = std::uint64_t{1} << log2_chunk;
  std::vector<std::uint8_t> out;
  for (std::uint64_t logical = 0;; logical += chunk) {
    const std::uint64_t phys = striped_address(logical, odd, log2_chunk);
    if (phys >= flash.size()) break;
    const std::uint64_t n = std::min<std::uint64_t>(chunk, flash.size() - phys);
    out.insert(out.end(), flash.begin() + static_cast<std::ptrdiff_t>(phys),
               flash.begin() + static_cast<std::ptrdiff_t>(phys + n));
  }
  return out;
}

}  // namespace openflint::fs2
