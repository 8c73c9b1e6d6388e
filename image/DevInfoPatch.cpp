// DevInfoPatch: sg / sv on FS3/FS4 device data — DEV_INFO GUIDs/MACs and vsd, CRCs resealed
// (FS3: listed in the copy's ITOC; FS4: the valid DEV_INFO of the DTOC at the end of the data).
#include <algorithm>
#include <vector>

#include "core/HexString.h"
#include "image/Crc16.h"
#include "image/FormatPatch.h"
#include "image/Fs3Image.h"
#include "image/SectionType.h"
#include "image/Toc.h"
#include "image/TocWalk.h"

namespace openflint::patch {
namespace {

// DEV_INFO (cx4fw_device_info, layout 2.x): version word, guids/macs uid entries, vsd.
constexpr std::uint64_t kDevInfoVersion = 0x10;  // major [16:8], minor [7:0]
constexpr std::uint64_t kDevInfoGuidUid = 0x28;  // uid entry at 0x20: {step, count}, 0, uid
constexpr std::uint64_t kDevInfoMacUid = 0x38;   // uid entry at 0x30
constexpr std::uint64_t kDevInfoVsd = 0x70;
constexpr std::uint64_t kDevInfoMinSize = kDevInfoVsd + 208;
// MFG_INFO (cx4fw_mfg_info, layout 1.x): major [31:24] and guids_override_en [0] of dword 0x1c.
constexpr std::uint64_t kMfgInfoFlags = 0x1c;

bool device_data(std::uint8_t type) {
  return type == section_type::kDevInfo || type == section_type::kMfgInfo;
}

enum class CrcAt { Entry, Section, None };

struct DevInfoTarget {
  std::uint64_t entry_offset = 0;
  std::uint64_t address = 0;
  std::uint64_t size = 0;
  CrcAt crc = CrcAt::Entry;
};

CrcAt crc_place(const TocEntry& e, bool fs4) {
  if (!fs4) return e.fs3_no_crc() ? CrcAt::None : CrcAt::Entry;
  if (e.crc_field == kCrcInSection) return CrcAt::Section;
  return e.crc_field == kCrcInEntry ? CrcAt::Entry : CrcAt::None;
}

// The TOC that lists the DEV_INFO: FS3 the copy's ITOC, FS4 the DTOC in the last 4 KiB.
Result<TocWalk> walk_device_toc(Bytes data, std::uint64_t offset, bool fs4, std::string& label) {
  if (!fs4) {
    OF_ASSIGN(const std::uint64_t itoc, fs3::find_itoc(data, offset));
    label = "FS3 ITOC at " + hex_string(itoc);
    return walk_toc(data, itoc, {TocKind::Itoc, false, TocAddressing::PerEntryBit, offset, device_data});
  }
  constexpr std::uint64_t kDtocFromEnd = 0x1000;
  if (data.size() < kDtocFromEnd) return make_error(ErrorCode::InvalidImage, "FS4 data too short for a DTOC");
  const std::uint64_t dtoc = data.size() - kDtocFromEnd;
  label = "FS4 DTOC at " + hex_string(dtoc);
  if (!toc_signature_at(data, dtoc, TocKind::Dtoc))
    return make_error(ErrorCode::NotSupported, label + ": no DTOC (an FS4 image file without the flash end carries "
                                                       "no device data; set it on the device)");
  return walk_toc(data, dtoc, {TocKind::Dtoc, true, TocAddressing::Absolute, 0, device_data});
}

// The DEV_INFO sections to patch (each intact and of layout 2.x; FS4: the one with a valid
// signature), after checking MFG_INFO.
Result<std::vector<DevInfoTarget>> find_dev_info(std::vector<std::uint8_t>& data, std::uint64_t offset, bool fs4,
                                                 bool for_guids);

bool overlaps(std::uint64_t a, std::uint64_t a_len, std::uint64_t b, std::uint64_t b_len) {
  return a < b + b_len && b < a + a_len;
}

// FS4 keeps two DEV_INFO slots, one carrying the signature (as mstflint): a change goes into
// the other slot, then the old slot's signature is cleared. On flash that is power-cut safe
// without a journal — the slot being erased and written is not the one the board boots with,
// and clearing the signature only clears bits — provided the other slot's erase units hold
// nothing else. Returns the slot to write (`live` itself when there is no such slot).
DevInfoTarget move_to_other_slot(std::vector<std::uint8_t>& data, const TocWalk& walk, const DevInfoTarget& live) {
  constexpr std::uint64_t kEraseUnit = 0x1000;
  for (const auto& s : walk.sections) {
    // Any slot but the live one: after an interrupted edit the other slot may still be signed,
    // but the board ignores it (live_dev_info), so it is rewritten like a blank one.
    if (s.entry.type != section_type::kDevInfo || s.address == live.address) continue;
    if (s.entry.size != live.size || s.address + s.entry.size > data.size()) continue;
    const std::uint64_t first = s.address / kEraseUnit * kEraseUnit;
    const std::uint64_t span = (s.address + s.entry.size + kEraseUnit - 1) / kEraseUnit * kEraseUnit - first;
    bool alone = !overlaps(first, span, data.size() - kEraseUnit, kEraseUnit);  // the DTOC
    for (const auto& o : walk.sections)
      if (&o != &s && overlaps(first, span, o.address, o.entry.size)) alone = false;
    if (!alone) continue;
    std::copy_n(data.begin() + static_cast<std::ptrdiff_t>(live.address), live.size,
                data.begin() + static_cast<std::ptrdiff_t>(s.address));
    std::fill_n(data.begin() + static_cast<std::ptrdiff_t>(live.address), 16, 0);  // the old signature
    return {s.entry_offset, s.address, live.size, crc_place(s.entry, true)};
  }
  return live;
}

Result<std::vector<DevInfoTarget>> find_dev_info(std::vector<std::uint8_t>& data, std::uint64_t offset, bool fs4,
                                                 bool for_guids) {
  std::string label;
  OF_ASSIGN(const TocWalk walk, walk_device_toc(data, offset, fs4, label));
  if (!walk.problems.empty()) return make_error(ErrorCode::InvalidImage, label + ": " + walk.problems.front());
  const TocSection* mfg = walk.find_good(section_type::kMfgInfo);
  if (for_guids && mfg != nullptr && mfg->data.size() > kMfgInfoFlags + 4) {
    const std::uint32_t flags = ByteReader::load_be32(mfg->data.data() + kMfgInfoFlags);
    if ((flags >> 24) == 1 && (flags & 1) == 0)
      return make_error(ErrorCode::NotSupported,
                        "MFG_INFO at " + hex_string(mfg->address) +
                            ": guids_override_en is not set, so the board takes its GUIDs from MFG_INFO");
  }
  std::vector<DevInfoTarget> out;
  for (const auto& s : walk.sections) {
    if (s.entry.type != section_type::kDevInfo || (fs4 && &s != live_dev_info(walk))) continue;
    if (!s.checked || (s.status != SectionStatus::Ok && s.status != SectionStatus::CrcIgnored))
      return make_error(ErrorCode::InvalidImage, "DEV_INFO at " + hex_string(s.address) + " is out of range or has a wrong CRC");
    if (s.data.size() < kDevInfoMinSize)
      return make_error(ErrorCode::InvalidImage, "DEV_INFO at " + hex_string(s.address) + " is only " +
                                                     hex_string(s.data.size()) + " bytes");
    const std::uint32_t version = ByteReader::load_be32(s.data.data() + kDevInfoVersion);
    const std::uint32_t major = (version >> 8) & 0x1ff;
    if (major != 2)
      return make_error(ErrorCode::NotSupported, "DEV_INFO at " + hex_string(s.address) + ": layout version " +
                                                     std::to_string(major) + "." + std::to_string(version & 0xff) +
                                                     " (Connect-IB style) is not supported, only 2.x");
    out.push_back({s.entry_offset, s.address, s.data.size(), crc_place(s.entry, fs4)});
  }
  if (out.empty()) return make_error(ErrorCode::InvalidImage, label + " lists no valid DEV_INFO section");
  if (fs4 && out.size() == 1) out.front() = move_to_other_slot(data, walk, out.front());
  return out;
}

// New section CRC into entry dword 0x18 (or FS4 crc-in-section: the section's last dword),
// then the entry's own CRC.
void reseal(std::vector<std::uint8_t>& data, const DevInfoTarget& t) {
  std::uint8_t* entry = data.data() + t.entry_offset;
  if (t.crc == CrcAt::Entry) {
    const std::uint16_t crc = crc16(Bytes(data).subspan(t.address, t.size));
    store_be32(entry + 0x18, (ByteReader::load_be32(entry + 0x18) & 0xffff0000u) | crc);
  } else if (t.crc == CrcAt::Section && t.size >= 4) {
    const std::uint16_t crc = crc16(Bytes(data).subspan(t.address, t.size - 4));
    store_be32(data.data() + t.address + t.size - 4, crc);
  }
  store_be32(entry + 0x1c, crc16(Bytes(entry, kTocEntrySize - 4)));
}

void put_u64(std::vector<std::uint8_t>& data, std::uint64_t at, std::uint64_t v) {
  store_be32(data.data() + at, static_cast<std::uint32_t>(v >> 32));
  store_be32(data.data() + at + 4, static_cast<std::uint32_t>(v));
}

}  // namespace

Result<void> dev_info_set(std::vector<std::uint8_t>& data, std::uint64_t offset, bool fs4, const GuidSettings* g,
                         const UidAllocation& allocation, const std::string* vsd) {
  OF_ASSIGN(const auto targets, find_dev_info(data, offset, fs4, g != nullptr));
  for (const auto& t : targets) {
    if (g != nullptr) {
      put_u64(data, t.address + kDevInfoGuidUid, g->base_guid);
      if (g->base_mac) put_u64(data, t.address + kDevInfoMacUid, *g->base_mac);
      // cx4fw_uid_entry: step in bits 15:8, num_allocated in bits 7:0 of the entry's first dword.
      for (const std::uint64_t entry : {kDevInfoGuidUid - 8, kDevInfoMacUid - 8}) {
        if (allocation.step_size) data[t.address + entry + 2] = *allocation.step_size;
        if (allocation.guids_num) data[t.address + entry + 3] = *allocation.guids_num;
      }
    }
    if (vsd != nullptr) {
      auto at = data.begin() + static_cast<std::ptrdiff_t>(t.address + kDevInfoVsd);
      std::fill_n(at, 208, 0);
      std::copy(vsd->begin(), vsd->end(), at);
    }
    reseal(data, t);
  }
  return {};
}

}  // namespace openflint::patch
