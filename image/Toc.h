// Toc: FS3/FS4 ITOC/DTOC header and entry layout (0x20-byte blocks, CRC16 in the last dword).
#pragma once

#include <cstdint>

#include "core/ByteReader.h"
#include "core/Result.h"

namespace openflint {

enum class TocKind { Itoc, Dtoc };

constexpr std::uint64_t kTocHeaderSize = 0x20;
constexpr std::uint64_t kTocEntrySize = 0x20;
constexpr std::uint32_t kItocSignature = 0x49544f43;  // "ITOC"
constexpr std::uint32_t kDtocSignature = 0x44544f43;  // "DTOC"

// One TOC entry as stored. Dword 0x18 bits 18:16 mean different things per format:
// FS4 CRC mode (0 = in entry, 1 = none, 2 = last dword of the section); FS3 bit 16 no_crc,
// bit 17 device_data.
struct TocEntry {
  std::uint8_t type = 0;
  std::uint32_t size = 0;  // bytes
  std::uint32_t param0 = 0;
  bool cache_line_crc = false;
  bool zipped_image = false;
  std::uint32_t param1 = 0;
  std::uint16_t version = 0;
  std::uint32_t flash_addr = 0;  // bytes
  bool relative_addr = false;    // FS3: bit 31 of 0x14
  bool encrypted_section = false;  // FS4: bit 31 of 0x18
  std::uint8_t crc_field = 0;    // bits 18:16 of 0x18
  std::uint16_t section_crc = 0;
  std::uint16_t stored_entry_crc = 0;
  std::uint16_t computed_entry_crc = 0;

  [[nodiscard]] bool entry_crc_ok() const { return stored_entry_crc == computed_entry_crc; }
  [[nodiscard]] bool fs3_no_crc() const { return (crc_field & 1) != 0; }
  [[nodiscard]] bool fs3_device_data() const { return (crc_field & 2) != 0; }
};

// Where an FS3/FS4 image's ITOC is, and the BOOT2 size (bytes, header and CRC included) on the way.
struct ItocLocation {
  std::uint64_t boot2_size = 0;
  std::uint64_t itoc = 0;  // absolute offset of the ITOC header in the buffer
};

// FS4 CRC modes of TocEntry::crc_field.
constexpr std::uint8_t kCrcInEntry = 0;
constexpr std::uint8_t kCrcNone = 1;
constexpr std::uint8_t kCrcInSection = 2;

// The stored (bits 15:0 of dword 7) and computed (over dwords 0-6) CRC of a 0x20-byte block.
struct TocBlockCrc {
  std::uint16_t stored = 0;
  std::uint16_t computed = 0;
  [[nodiscard]] bool ok() const { return stored == computed; }
};

// Whether the 16-byte signature of a `kind` TOC header sits at `offset` (false when out of range).
[[nodiscard]] bool toc_signature_at(Bytes data, std::uint64_t offset, TocKind kind);
[[nodiscard]] Result<TocBlockCrc> toc_block_crc(Bytes data, std::uint64_t offset);
[[nodiscard]] Result<TocEntry> parse_toc_entry(Bytes data, std::uint64_t offset);

}  // namespace openflint
