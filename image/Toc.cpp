// Toc: parsing of ITOC/DTOC headers and entries from a byte buffer.
#include "image/Toc.h"

#include <cstdio>

#include "image/Crc16.h"

namespace openflint {
namespace {

constexpr std::uint32_t kTocRand1 = 0x04081516;
constexpr std::uint32_t kTocRand2 = 0x2342cafa;
constexpr std::uint32_t kTocRand3 = 0xbacafe00;

}  // namespace

bool toc_signature_at(Bytes data, std::uint64_t offset, TocKind kind) {
  const ByteReader reader(data);
  if (!reader.contains(offset, 16)) return false;
  const std::uint8_t* p = data.data() + offset;
  const std::uint32_t first = kind == TocKind::Itoc ? kItocSignature : kDtocSignature;
  return ByteReader::load_be32(p) == first && ByteReader::load_be32(p + 4) == kTocRand1 &&
         ByteReader::load_be32(p + 8) == kTocRand2 && ByteReader::load_be32(p + 12) == kTocRand3;
}

Result<TocBlockCrc> toc_block_crc(Bytes data, std::uint64_t offset) {
  const ByteReader reader(data);
  OF_ASSIGN(const Bytes block, reader.slice(offset, kTocEntrySize));
  TocBlockCrc crc;
  crc.computed = crc16(block.first(kTocEntrySize - 4));
  crc.stored = static_cast<std::uint16_t>(ByteReader::load_be32(block.data() + 0x1C));
  return crc;
}

Result<TocEntry> parse_toc_entry(Bytes data, std::uint64_t offset) {
  const ByteReader reader(data);
  if (!reader.contains(offset, kTocEntrySize)) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "toc entry at 0x%llx runs past the end of the data (0x%zx bytes)",
                  static_cast<unsigned long long>(offset), data.size());
    return make_error(ErrorCode::InvalidImage, buf);
  }
  const std::uint8_t* p = data.data() + offset;
  const std::uint32_t d0 = ByteReader::load_be32(p);
  const std::uint32_t d1 = ByteReader::load_be32(p + 0x04);
  const std::uint32_t d5 = ByteReader::load_be32(p + 0x14);
  const std::uint32_t d6 = ByteReader::load_be32(p + 0x18);
  TocEntry e;
  e.type = static_cast<std::uint8_t>(d0 >> 24);
  e.size = d0 & 0x00FFFFFCu;
  e.zipped_image = (d1 >> 31) != 0;
  e.cache_line_crc = ((d1 >> 30) & 1) != 0;
  e.param0 = d1 & 0x3FFFFFFFu;
  e.param1 = ByteReader::load_be32(p + 0x08);
  e.version = static_cast<std::uint16_t>(ByteReader::load_be32(p + 0x10));
  e.relative_addr = (d5 >> 31) != 0;
  e.flash_addr = d5 & 0x7FFFFFFCu;
  e.encrypted_section = (d6 >> 31) != 0;
  e.crc_field = static_cast<std::uint8_t>((d6 >> 16) & 7);
  e.section_crc = static_cast<std::uint16_t>(d6);
  e.stored_entry_crc = static_cast<std::uint16_t>(ByteReader::load_be32(p + 0x1C));
  e.computed_entry_crc = crc16(Bytes(p, kTocEntrySize - 4));
  return e;
}

}  // namespace openflint
