// Fs3Image: FS3 (Connect-IB .. Spectrum-1) — BOOT2, ITOC search and section walk, as mstflint.
#include "core/HexString.h"
#include "image/Fs3Image.h"

#include <algorithm>

#include "image/ImageInfo.h"
#include "image/SectionType.h"
#include "image/Toc.h"
#include "image/TocWalk.h"

namespace openflint::fs3 {
namespace {

constexpr std::uint32_t kMagic[4] = {0x4D544657, 0x8CDFD000, 0xDEAD9270, 0x4154BEEF};
constexpr std::uint64_t kFormatWord = 0x24;  // [31:24] format (3), [23:16] log2 chunk
constexpr std::uint64_t kBoot2 = 0x38;
constexpr std::uint64_t kSector = 0x1000;

bool ini_section(std::uint8_t type) { return type == section_type::kDbgFwIni; }

struct Scan {
  VerifyReport report;
  TocWalk toc;
  bool itoc_found = false;
};

// The first 4 KiB-aligned ITOC signature after a BOOT2 of `boot2_size` bytes.
Result<std::uint64_t> search_itoc(Bytes data, std::uint64_t start, std::uint64_t boot2_size) {
  std::uint64_t offset = (kBoot2 + boot2_size + kSector - 1) / kSector * kSector;
  for (; start + offset < data.size(); offset += kSector)
    if (toc_signature_at(data, start + offset, TocKind::Itoc)) return start + offset;
  return make_error(ErrorCode::InvalidImage, "no valid ITOC found after BOOT2 (searched from " +
                                                 hex_string(start + kBoot2 + boot2_size) + " in 4 KiB steps)");
}

// BOOT2, then the first 4 KiB-aligned ITOC after it, then its entries.
Scan scan(Bytes data, std::uint64_t start, bool (*wants)(std::uint8_t)) {
  Scan s;
  s.report.format = ImageFormat::Fs3;
  s.report.image_start = start;
  s.report.layout = "FS3 failsafe image";
  // mstflint prints BOOT2 at its offset inside the image, the rest at physical addresses.
  const auto boot2 = check_boot2(data, start + kBoot2, kBoot2, s.report);
  if (!boot2) return s;
  if (s.report.sections.back().status != SectionStatus::Ok) return s;  // mstflint stops here
  const auto found = search_itoc(data, start, *boot2);
  if (!found) {
    s.report.problems.push_back(found.error().message());
    return s;
  }
  s.itoc_found = true;
  const std::uint64_t itoc = *found;
  auto header = toc_block_crc(data, itoc);
  if (!header) {
    s.report.problems.push_back("ITOC header at " + hex_string(itoc) + ": " + header.error().message());
    return s;
  }
  s.report.sections.push_back(
      make_crc_check("ITOC_HEADER", itoc, kTocHeaderSize, header->stored, header->computed));
  const TocWalkConfig config{TocKind::Itoc, false, TocAddressing::PerEntryBit, start, wants};
  s.toc = walk_toc(data, itoc, config);
  append_to(s.toc, s.report);
  if (s.toc.problems.empty() && !s.toc.has_type(section_type::kMfgInfo))
    s.report.problems.push_back("no MFG_INFO section in the ITOC at " + hex_string(itoc));
  return s;
}

Result<void> scan_error(const Scan& s) { return first_failure(s.report, "FS3 image"); }

}  // namespace

bool probe(Bytes data, std::uint64_t offset) {
  const ByteReader reader(data);
  if (!reader.contains(offset, kFormatWord + 4)) return false;
  for (int i = 0; i < 4; ++i)
    if (ByteReader::load_be32(data.data() + offset + 4 * i) != kMagic[i]) return false;
  return (ByteReader::load_be32(data.data() + offset + kFormatWord) >> 24) == 3;
}

Result<std::uint64_t> find_itoc(Bytes data, std::uint64_t offset) {
  OF_ASSIGN(const ItocLocation at, locate_itoc(data, offset));
  return at.itoc;
}

Result<ItocLocation> locate_itoc(Bytes data, std::uint64_t offset) {
  VerifyReport scratch;
  const auto boot2 = check_boot2(data, offset + kBoot2, kBoot2, scratch);
  if (!boot2 || scratch.sections.empty() || scratch.sections.back().status != SectionStatus::Ok)
    return make_error(ErrorCode::InvalidImage, "FS3 image at " + hex_string(offset) + ": bad BOOT2");
  OF_ASSIGN(const std::uint64_t itoc, search_itoc(data, offset, *boot2));
  return ItocLocation{*boot2, itoc};
}

Result<ImageQuery> query(Bytes data, std::uint64_t offset) {
  const Scan s = scan(data, offset, section_type::is_query_section);
  OF_TRY(scan_error(s));
  ImageQuery q;
  q.format = ImageFormat::Fs3;
  q.image_start = offset;
  const TocSection* info = s.toc.find_good(section_type::kImageInfo);
  if (info == nullptr) return make_error(ErrorCode::InvalidImage, "FS3 image: no IMAGE_INFO section");
  OF_TRY_CTX(parse_image_info(info->data, q), "IMAGE_INFO at " + hex_string(info->address));
  if (const TocSection* dev = s.toc.find_good(section_type::kDevInfo))
    OF_TRY(parse_dev_info(dev->data, q));
  for (const auto& sec : s.toc.sections)
    if (!sec.entry.fs3_device_data() && sec.entry.relative_addr)
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

Result<std::string> dump_config(Bytes data, std::uint64_t offset) {
  const Scan s = scan(data, offset, ini_section);
  OF_TRY(scan_error(s));
  const TocSection* ini = s.toc.find_good(section_type::kDbgFwIni);
  if (ini == nullptr) return make_error(ErrorCode::NotFound, "FS3 image has no DBG_FW_INI section");
  OF_ASSIGN_CTX(std::string text, inflate_zlib_section(ini->data), "DBG_FW_INI at " + hex_string(ini->address));
  return text;
}

}  // namespace openflint::fs3
