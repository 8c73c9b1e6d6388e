// TocWalk: the section-by-section CRC walk over ITOC/DTOC entries shared by FS3 and FS4.
#include "core/HexString.h"
#include "image/TocWalk.h"

#include <cstdio>

#include "image/Crc16.h"
#include "image/SectionType.h"

namespace openflint {
namespace {

constexpr int kMaxTocEntries = 63;  // mstflint: MAX_TOCS_NUM 64 including the END entry
constexpr std::uint32_t kDevInfoSignature[4] = {0x6d446576, 0x496e666f, 0x2342cafa, 0xbacafe00};

std::string toc_label(TocKind kind) { return kind == TocKind::Itoc ? "ITOC" : "DTOC"; }

bool dev_info_signature_ok(Bytes section) {
  if (section.size() < 16) return false;
  for (int i = 0; i < 4; ++i)
    if (ByteReader::load_be32(section.data() + 4 * i) != kDevInfoSignature[i]) return false;
  return true;
}

std::uint64_t section_address(const TocEntry& e, const TocWalkConfig& config) {
  switch (config.addressing) {
    case TocAddressing::PerEntryBit:
      return e.relative_addr ? config.image_start + e.flash_addr : e.flash_addr;
    case TocAddressing::Relative: return config.image_start + e.flash_addr;
    case TocAddressing::Absolute: return e.flash_addr;
  }
  return e.flash_addr;
}

// The CRC line of an in-range section, FS3 rules: CRC in the entry unless no_crc.
SectionCheck check_fs3(const TocSection& s, std::string name) {
  const TocEntry& e = s.entry;
  if (e.fs3_no_crc()) return make_crc_check(std::move(name), s.address, e.size, 0, 0, true);
  return make_crc_check(std::move(name), s.address, e.size, e.section_crc, crc16(s.data));
}

// FS4 rules: CRC in the entry, none, or in the section's last dword; an encrypted
// cache-line-CRC section (auth tag in dword 16) is not checked.
SectionCheck check_fs4(const TocSection& s, std::string name) {
  const TocEntry& e = s.entry;
  bool ignored = e.crc_field == kCrcNone;
  if (e.cache_line_crc && s.data.size() >= 68)
    ignored = ignored || (ByteReader::load_be32(s.data.data() + 64) & 0xFFFF0000u) != 0;
  if (ignored) return make_crc_check(std::move(name), s.address, e.size, 0, 0, true);
  if (e.crc_field == kCrcInEntry)
    return make_crc_check(std::move(name), s.address, e.size, e.section_crc, crc16(s.data));
  if (e.crc_field == kCrcInSection) {
    if (s.data.size() < 4) {
      SectionCheck c{s.address, e.size, std::move(name), SectionStatus::Invalid,
                     "crc-in-section mode needs at least one dword"};
      return c;
    }
    const std::uint16_t stored = static_cast<std::uint16_t>(
        ByteReader::load_be32(s.data.data() + s.data.size() - 4));
    return make_crc_check(std::move(name), s.address, e.size, stored,
                          crc16(s.data.first(s.data.size() - 4)));
  }
  // Reserved modes: mstflint compares 0 with 0 and reports OK.
  SectionCheck c{s.address, e.size, std::move(name), SectionStatus::Ok, ""};
  c.detail = "reserved crc mode " + std::to_string(e.crc_field) + ", not checked";
  return c;
}

// Handles one entry that passed its own CRC: bounds, FS4 DEV_INFO signature, CRC line.
void check_section(Bytes data, TocSection& s, const TocWalkConfig& config, TocWalk& walk) {
  const ByteReader reader(data);
  std::string name = section_type::display_name(s.entry.type);
  if (!reader.contains(s.address, s.entry.size)) {
    walk.checks.push_back({s.address, s.entry.size, std::move(name), SectionStatus::Invalid,
                           "section runs past the end of the data (" + hex_string(data.size()) + " bytes)"});
    s.checked = true;
    s.status = SectionStatus::Invalid;
    return;
  }
  s.data = data.subspan(s.address, s.entry.size);
  if (config.fs4 && s.entry.type == section_type::kDevInfo) {
    s.valid_dev_info = dev_info_signature_ok(s.data);
    if (!s.valid_dev_info) return;  // mstflint skips a blank DEV_INFO copy silently
  }
  if (config.wants != nullptr && !config.wants(s.entry.type)) return;
  SectionCheck c = config.fs4 ? check_fs4(s, std::move(name)) : check_fs3(s, std::move(name));
  s.checked = true;
  s.status = c.status;
  walk.checks.push_back(std::move(c));
}

}  // namespace

void append_to(TocWalk& walk, VerifyReport& report) {
  for (auto& c : walk.checks) report.sections.push_back(std::move(c));
  walk.checks.clear();
  for (const auto& p : walk.problems) report.problems.push_back(p);
}

const TocSection* live_dev_info(const TocWalk& walk) {
  for (const auto& s : walk.sections)
    if (s.entry.type == section_type::kDevInfo && s.valid_dev_info) return &s;
  return nullptr;
}

const TocSection* TocWalk::find_good(std::uint8_t type) const {
  for (const auto& s : sections)
    if (s.entry.type == type && s.checked &&
        (s.status == SectionStatus::Ok || s.status == SectionStatus::CrcIgnored))
      return &s;
  return nullptr;
}

bool TocWalk::has_type(std::uint8_t type) const {
  for (const auto& s : sections)
    if (s.entry.type == type) return true;
  return false;
}

TocWalk walk_toc(Bytes data, std::uint64_t toc_offset, const TocWalkConfig& config) {
  TocWalk walk;
  const std::string label = toc_label(config.kind);
  for (int index = 0;; ++index) {
    const std::uint64_t entry_offset = toc_offset + kTocHeaderSize + kTocEntrySize * index;
    auto parsed = parse_toc_entry(data, entry_offset);
    if (!parsed) {
      walk.problems.push_back(label + " entry " + std::to_string(index) + ": " +
                              parsed.error().message());
      break;
    }
    const TocEntry& e = *parsed;
    if (e.type == section_type::kEnd) break;
    if (index >= kMaxTocEntries) {
      walk.problems.push_back(label + " at " + hex_string(toc_offset) + " has more than " +
                              std::to_string(kMaxTocEntries) + " entries (an image holds at most " +
                              std::to_string(kMaxTocEntries) + " sections)");
      break;
    }
    if (!e.entry_crc_ok()) {
      walk.problems.push_back(label + " entry " + std::to_string(index) + " at " +
                              hex_string(entry_offset) + ": wrong entry CRC (expected " +
                              hex_string(e.stored_entry_crc) + ", computed " +
                              hex_string(e.computed_entry_crc) + ")");
      break;
    }
    TocSection s;
    s.entry = e;
    s.entry_offset = entry_offset;
    s.address = section_address(e, config);
    check_section(data, s, config, walk);
    walk.sections.push_back(s);
  }
  return walk;
}

SectionCheck make_crc_check(std::string name, std::uint64_t start, std::uint64_t size,
                            std::uint32_t stored, std::uint32_t computed, bool ignored) {
  SectionCheck c{start, size, std::move(name), SectionStatus::Ok, ""};
  if (ignored) {
    c.status = SectionStatus::CrcIgnored;
  } else if (stored != computed) {
    c.status = SectionStatus::WrongCrc;
    // mstflint order: "exp" is the CRC of the data, "act" the value stored in the image.
    c.detail = "expected " + hex_string(computed) + ", found " + hex_string(stored);
  }
  return c;
}

std::optional<std::uint64_t> check_boot2(Bytes data, std::uint64_t offset,
                                         std::uint64_t printed_start, VerifyReport& report) {
  const ByteReader reader(data);
  auto size_dw = reader.be32(offset + 4);
  if (!size_dw) {
    report.problems.push_back("BOOT2 at " + hex_string(offset) + ": " + size_dw.error().message());
    return std::nullopt;
  }
  if (*size_dw > 1048576 || *size_dw < 4) {
    report.problems.push_back("BOOT2 at " + hex_string(offset) + ": unexpected size " + hex_string(*size_dw) +
                              " dwords");
    return std::nullopt;
  }
  const std::uint64_t bytes = (std::uint64_t{*size_dw} + 4) * 4;
  if (!reader.contains(offset, bytes)) {
    report.sections.push_back({printed_start, bytes, "BOOT2", SectionStatus::Invalid,
                               "BOOT2 runs past the end of the data (" + hex_string(data.size()) + " bytes)"});
    return std::nullopt;
  }
  const Bytes block = data.subspan(offset, bytes);
  const std::uint32_t stored = ByteReader::load_be32(block.data() + bytes - 4);
  report.sections.push_back(
      make_crc_check("BOOT2", printed_start, bytes, stored, crc16(block.first(bytes - 4))));
  return bytes;
}

}  // namespace openflint
