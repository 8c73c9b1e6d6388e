// MfaFormat: byte layout constants of MFA v1 ("MFAR") archives, shared by reader and writer.
#pragma once

#include <cstdint>

namespace openflint::mfa {

// All multi-byte fields are big-endian.
inline constexpr char kMagic[4] = {'M', 'F', 'A', 'R'};
inline constexpr std::uint32_t kVersion = 1;
inline constexpr std::uint64_t kHeaderSize = 16;  // magic, u32 version, 8 reserved
inline constexpr std::uint64_t kCrcSize = 4;      // trailing CRC32 (zlib) of all before it

// Section header: {u8 type, u8 rsvd[2], u8 flags, u32 payload size}.
inline constexpr std::uint64_t kSectionHeaderSize = 8;
inline constexpr std::uint8_t kSectionMap = 1;
inline constexpr std::uint8_t kSectionToc = 2;
inline constexpr std::uint8_t kSectionData = 3;
inline constexpr std::uint8_t kSectionFlagXz = 0x01;

// MAP entry: {char psid[32]; u8 nimages; u8 rsvd; u16 metadata_size} + metadata + images.
inline constexpr std::uint64_t kPsidSize = 32;
inline constexpr std::uint64_t kMapEntryHeaderSize = 36;
// MAP image: {u32 toc_offset; u16 image_type; u8 rsvd; u8 group_id; char select_tag[32]}.
inline constexpr std::uint64_t kMapImageSize = 40;
inline constexpr std::uint64_t kSelectTagSize = 32;
// TOC entry: {u32 data_offset; u32 data_size; u16 subimage_type; u8 rsvd; u8 num_ver_fields;
//             u16 version[4]; u16 data_offset_msb; u16 metadata_size} + metadata.
inline constexpr std::uint64_t kTocEntryHeaderSize = 24;
inline constexpr std::uint8_t kMaxVersionFields = 4;

// Metadata block: {u8 version (1); u8 rsvd; u16 pair count} then NUL-terminated key, value
// strings (padded with zeros). Observed keys in MAP: "PN", "DESCRIPTION".
inline constexpr std::uint64_t kMetadataHeaderSize = 4;
inline constexpr std::uint8_t kMetadataVersion = 1;

inline constexpr std::uint16_t kImageTypeFirmware = 1;

// Sanity limits for the decompressed MAP and TOC (real archives: a few KiB).
inline constexpr std::uint64_t kMaxTableSize = std::uint64_t{16} << 20;

}  // namespace openflint::mfa
