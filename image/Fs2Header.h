// Fs2Header: the FS2 image header words (0x00-0x37) and the striped failsafe flash layout.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/ByteReader.h"
#include "core/Result.h"

namespace openflint::fs2 {

inline constexpr std::array<std::uint32_t, 4> kMagic{0x4D544657, 0x8CDFD000, 0xDEAD9270, 0x4154BEEF};
inline constexpr std::size_t kFwIdOffset = 0x20;        // [31:24] dev_rev, [15:0] image CRC
inline constexpr std::size_t kBootVersionOffset = 0x24;  // [31:24] format: 0 = FS2
inline constexpr std::size_t kFsWordOffset = 0x28;       // bytes sum to 0; bit 3 failsafe
inline constexpr std::size_t kInfoPtrOffset = 0x2C;      // [23:0] IMG_INFO payload, bytes sum to 0
inline constexpr std::size_t kImageSizeOffset = 0x30;
inline constexpr std::size_t kGuidPtrOffset = 0x34;      // GUID section payload
inline constexpr std::size_t kBoot2Offset = 0x38;
inline constexpr std::size_t kGuidCount = 4;  // node, port1, port2, system image
inline constexpr std::uint32_t kMacCount = 2;  // port1, port2
inline constexpr std::size_t kMaxGuids = 32;

struct Header {
  std::uint32_t fw_id = 0;
  std::uint32_t boot_version = 0;
  std::uint32_t fs_word = 0;
  std::uint32_t info_ptr = 0;
  std::uint32_t image_size = 0;
  std::uint32_t guid_ptr = 0;
  bool fs_word_ok = false;  // its four bytes sum to 0
  bool failsafe = false;
  unsigned log2_chunk = 16;  // (fs_word & 7) + 16; meaningful when failsafe
};

[[nodiscard]] bool has_magic(Bytes data, std::uint64_t offset);
[[nodiscard]] Result<Header> read_header(Bytes image);
// FS word for a failsafe (or not) image with the given chunk size.
[[nodiscard]] std::uint32_t make_fs_word(bool failsafe, unsigned log2_chunk);

// Logical address of a copy -> physical flash address: the copy at 0 lives in the even
// chunks, the copy at the chunk size in the odd ones.
[[nodiscard]] std::uint64_t striped_address(std::uint64_t logical, bool odd, unsigned log2_chunk);
// Gathers one copy's chunks out of a striped flash dump into contiguous bytes (up to the
// end of `flash`).
[[nodiscard]] std::vector<std::uint8_t> destripe(Bytes flash, bool odd, unsigned log2_chunk);

}  // namespace openflint::fs2
