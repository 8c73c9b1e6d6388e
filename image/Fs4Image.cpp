// Fs4Image: FS4 (ConnectX-5+, Spectrum-2+) — HW pointers, tools area, BOOT2, ITOC and DTOC.
#include "core/HexString.h"
#include "image/Fs4Image.h"

#include <algorithm>
#include <array>

#include "image/Crc16.h"
#include "image/ImageInfo.h"
#include "image/SectionType.h"
#include "image/Toc.h"
#include "image/TocWalk.h"

namespace openflint::fs4 {
namespace {

constexpr std::uint64_t kBootVersion = 0x10;  // [31:24] image format version: 1 = FS4
constexpr std::uint64_t kHwPointers = 0x18;
constexpr int kHwPointerCount = 16;
constexpr std::uint64_t kHwPointerSize = 8;
constexpr std::uint64_t kToolsAreaSize = 0x40;
constexpr std::uint64_t kSector = 0x1000;
// HW pointer slots used here (formats.md order).
constexpr int kBoot2Slot = 1, kTocSlot = 2, kToolsSlot = 3, kSecurityVersionSlot = 13,
              kHashesTableSlot = 15;
// Hashes table: 0xC-byte header, 0x10-byte HTOC header (hash_size [31:16] of its dword 1),
// 28 entries of 8 bytes + hash, 8-byte tail; CRC in the low half of the last dword.
constexpr std::uint64_t kHashesHeader = 0xC, kHtocHeader = 0x10, kHtocEntries = 28, kHtocEntry = 8;

bool ini_section(std::uint8_t type) { return type == section_type::kDbgFwIni; }

struct Scan {
  VerifyReport report;
  std::array<std::uint32_t, kHwPointerCount> ptr{};
  TocWalk itoc;
  TocWalk dtoc;
};

// 16 pointers with HW CRCs; a 0xFFFFFFFF pointer counts as an all-zero entry (as mstflint).
bool check_hw_pointers(Bytes data, std::uint64_t start, Scan& s) {
  const ByteReader reader(data);
  const std::uint64_t base = start + kHwPointers;
  if (!reader.contains(base, kHwPointerCount * kHwPointerSize)) {
    s.report.problems.push_back("HW pointers at " + hex_string(base) + " run past the end of the data");
    return false;
  }
  for (int i = 0; i < kHwPointerCount; ++i) {
    std::array<std::uint8_t, 8> entry{};
    const std::uint8_t* p = data.data() + base + i * kHwPointerSize;
    if (ByteReader::load_be32(p) != 0xFFFFFFFFu) std::copy(p, p + 8, entry.begin());
    s.ptr[i] = ByteReader::load_be32(entry.data());
    const std::uint32_t stored = ByteReader::load_be32(entry.data() + 4);
    s.report.sections.push_back(make_crc_check("HW_POINTERS", base + i * kHwPointerSize,
                                               kHwPointerSize, stored,
                                               crc16_hw(Bytes(entry.data(), 6))));
    if (s.report.sections.back().status != SectionStatus::Ok) return false;
  }
  return true;
}

bool check_tools_area(Bytes data, std::uint64_t start, Scan& s) {
  const ByteReader reader(data);
  const std::uint64_t at = start + s.ptr[kToolsSlot];
  auto area = reader.slice(at, kToolsAreaSize);
  if (!area) {
    s.report.problems.push_back("TOOLS_AREA: " + area.error().message());
    return false;
  }
  const auto stored = static_cast<std::uint16_t>(ByteReader::load_be32(area->data() + 0x3C));
  s.report.sections.push_back(make_crc_check("TOOLS_AREA", at, kToolsAreaSize, stored,
                                             crc16(area->first(kToolsAreaSize - 4))));
  return s.report.sections.back().status == SectionStatus::Ok;
}

bool check_hashes_table(Bytes data, std::uint64_t start, Scan& s) {
  const std::uint32_t ptr = s.ptr[kHashesTableSlot];
  if (ptr == 0 || ptr == 0xFFFFFFFFu) return true;
  const ByteReader reader(data);
  auto header = reader.slice(start + ptr, kHashesHeader);
  auto htoc = reader.be32(start + ptr + kHashesHeader + 4);
  if (!header || !htoc) {
    s.report.problems.push_back("HASHES_TABLE at " + hex_string(ptr) + " runs past the end of the data");
    return false;
  }
  const auto header_stored = static_cast<std::uint16_t>(ByteReader::load_be32(header->data() + 8));
  const std::uint16_t header_crc = crc16(header->first(8));
  if (header_stored != header_crc) {
    s.report.problems.push_back("HASHES TABLE HEADER at " + hex_string(ptr) + ": wrong CRC (expected " +
                                hex_string(header_stored) + ", computed " + hex_string(header_crc) + ")");
    return false;
  }
  const std::uint64_t size =
      kHashesHeader + kHtocHeader + kHtocEntries * (kHtocEntry + (*htoc >> 16)) + 8;
  auto table = reader.slice(start + ptr, size);
  if (!table) {
    s.report.sections.push_back({ptr, size, "HASHES_TABLE", SectionStatus::Invalid,
                                 "table runs past the end of the data"});
    return false;
  }
  const auto stored = static_cast<std::uint16_t>(ByteReader::load_be32(table->data() + size - 4));
  s.report.sections.push_back(
      make_crc_check("HASHES_TABLE", ptr, size, stored, crc16(table->first(size - 4))));
  return s.report.sections.back().status == SectionStatus::Ok;
}

// A TOC header line; false when the signature is missing (no line) or the CRC is wrong.
bool check_toc_header(Bytes data, std::uint64_t at, TocKind kind, Scan& s) {
  if (!toc_signature_at(data, at, kind)) return false;
  auto crc = toc_block_crc(data, at);
  if (!crc) return false;
  s.report.sections.push_back(make_crc_check(kind == TocKind::Itoc ? "ITOC_HEADER" : "DTOC_HEADER",
                                             at, kTocHeaderSize, crc->stored, crc->computed));
  return crc->ok();
}

void check_dtoc(Bytes data, Scan& s, bool (*wants)(std::uint8_t)) {
  const std::uint64_t dtoc = data.size() >= kSector ? data.size() - kSector : 0;
  if (!check_toc_header(data, dtoc, TocKind::Dtoc, s)) {
    s.report.problems.push_back("no valid DTOC header at " + hex_string(dtoc));
    return;
  }
  s.dtoc = walk_toc(data, dtoc, {TocKind::Dtoc, true, TocAddressing::Absolute, 0, wants});
  append_to(s.dtoc, s.report);
  if (!s.dtoc.problems.empty()) return;
  if (!s.dtoc.has_type(section_type::kMfgInfo)) {
    s.report.problems.push_back("no MFG_INFO section in the DTOC");
    return;
  }
  // The live DEV_INFO is the first signed slot in DTOC order (live_dev_info). A second signed
  // slot exists only after a cut inside a DEV_INFO edit, between the new slot's signature and the
  // clearing of the old one's; both slots are then complete, and the board keeps running.
  const TocSection* live = live_dev_info(s.dtoc);
  if (live == nullptr) {
    s.report.problems.push_back("no valid DEV_INFO section in the DTOC");
    return;
  }
  for (const auto& sec : s.dtoc.sections)
    if (sec.valid_dev_info && &sec != live)
      s.report.warnings.push_back("two signed DEV_INFO slots (an interrupted identity change): the one at " +
                                  hex_string(live->address) + " is used, the one at " + hex_string(sec.address) +
                                  " is ignored until the next change");
}

Scan scan(Bytes data, std::uint64_t start, bool (*wants)(std::uint8_t)) {
  Scan s;
  s.report.format = ImageFormat::Fs4;
  s.report.image_start = start;
  s.report.layout = "FS4 failsafe image";
  if (!check_hw_pointers(data, start, s) || !check_tools_area(data, start, s)) return s;
  // mstflint prints BOOT2 at its pointer value (inside the image).
  const auto boot2 = check_boot2(data, start + s.ptr[kBoot2Slot], s.ptr[kBoot2Slot], s.report);
  if (!boot2 || s.report.sections.back().status != SectionStatus::Ok) return s;
  if (!check_hashes_table(data, start, s)) return s;
  std::uint64_t itoc = start + s.ptr[kTocSlot];
  if (!check_toc_header(data, itoc, TocKind::Itoc, s)) {
    itoc += kSector;  // the backup copy
    if (!check_toc_header(data, itoc, TocKind::Itoc, s)) {
      s.report.problems.push_back("no valid ITOC header at " + hex_string(itoc - kSector) + " or " +
                                  hex_string(itoc));
      return s;
    }
  }
  s.itoc = walk_toc(data, itoc, {TocKind::Itoc, true, TocAddressing::Relative, start, wants});
  append_to(s.itoc, s.report);
  if (!s.itoc.problems.empty()) return s;
  check_dtoc(data, s, wants);
  return s;
}

Result<void> scan_error(const Scan& s) { return first_failure(s.report, "FS4 image"); }

const TocSection* find_good(const Scan& s, std::uint8_t type) {
  const TocSection* found = s.itoc.find_good(type);
  return found != nullptr ? found : s.dtoc.find_good(type);
}

}  // namespace

bool probe(Bytes data, std::uint64_t offset) {
  const ByteReader reader(data);
  if (!reader.contains(offset, kBootVersion + 4)) return false;
  for (int i = 0; i < 4; ++i)
    if (ByteReader::load_be32(data.data() + offset + 4 * i) != kMagic[i]) return false;
  return (ByteReader::load_be32(data.data() + offset + kBootVersion) >> 24) == 1;
}

Result<ImageQuery> query(Bytes data, std::uint64_t offset) {
  const Scan s = scan(data, offset, section_type::is_query_section);
  OF_TRY(scan_error(s));
  ImageQuery q;
  q.format = ImageFormat::Fs4;
  q.image_start = offset;
  const TocSection* info = find_good(s, section_type::kImageInfo);
  if (info == nullptr) return make_error(ErrorCode::InvalidImage, "FS4 image: no IMAGE_INFO section");
  OF_TRY_CTX(parse_image_info(info->data, q), "IMAGE_INFO at " + hex_string(info->address));
  if (const TocSection* dev = live_dev_info(s.dtoc); dev != nullptr && dev->checked && dev->status == SectionStatus::Ok)
    OF_TRY(parse_dev_info(dev->data, q));
  q.security_version = s.ptr[kSecurityVersionSlot];
  for (const auto& sec : s.itoc.sections)
    q.image_size = std::max<std::uint64_t>(q.image_size, sec.entry.flash_addr + sec.entry.size);
  return q;
}

Result<VerifyReport> verify(Bytes data, std::uint64_t offset) {
  VerifyReport report = scan(data, offset, nullptr).report;
  // Sections that verify but that the boot cannot read (an IMAGE_INFO of an unknown layout)
  // do not boot either: mstflint says "Failed to get info from section 16 ... CAN NOT BOOT".
  if (report.bootable())
    if (auto q = query(data, offset); !q) report.problems.push_back("cannot boot: " + q.error().message());
  return report;
}

Result<ItocLocation> locate_itoc(Bytes data, std::uint64_t offset) {
  Scan s;
  if (!check_hw_pointers(data, offset, s))
    return make_error(ErrorCode::InvalidImage, "FS4 image at " + hex_string(offset) + ": bad HW pointers");
  const auto boot2 = check_boot2(data, offset + s.ptr[kBoot2Slot], s.ptr[kBoot2Slot], s.report);
  if (!boot2 || s.report.sections.back().status != SectionStatus::Ok)
    return make_error(ErrorCode::InvalidImage, "FS4 image at " + hex_string(offset) + ": bad BOOT2");
  const std::uint64_t itoc = offset + s.ptr[kTocSlot];
  if (check_toc_header(data, itoc, TocKind::Itoc, s)) return ItocLocation{*boot2, itoc};
  if (check_toc_header(data, itoc + kSector, TocKind::Itoc, s)) return ItocLocation{*boot2, itoc + kSector};
  return make_error(ErrorCode::InvalidImage, "FS4 image: no valid ITOC header at " + hex_string(itoc) + " or " +
                                                 hex_string(itoc + kSector));
}

Result<std::string> dump_config(Bytes data, std::uint64_t offset) {
  const Scan s = scan(data, offset, ini_section);
  OF_TRY(scan_error(s));
  const TocSection* ini = find_good(s, section_type::kDbgFwIni);
  if (ini == nullptr) return make_error(ErrorCode::NotFound, "FS4 image has no DBG_FW_INI section");
  OF_ASSIGN_CTX(std::string text, inflate_zlib_section(ini->data), "DBG_FW_INI at " + hex_string(ini->address));
  return text;
}

}  // namespace openflint::fs4
