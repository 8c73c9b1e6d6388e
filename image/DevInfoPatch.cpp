// Fs3Patch: sg / sv on FS3 images — DEV_INFO GUIDs/MACs and vsd, resealed in its ITOC entry.
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

struct DevInfoTarget {
  std::uint64_t entry_offset = 0;
  std::uint64_t address = 0;
  std::uint64_t size = 0;
  bool no_crc = false;
};

// The DEV_INFO sections of the ITOC (each intact and of layout 2.x), after checking MFG_INFO.
Result<std::vector<DevInfoTarget>> find_dev_info(Bytes data, std::uint64_t offset, bool for_guids) {
  OF_ASSIGN(const std::uint64_t itoc, fs3::find_itoc(data, offset));
  const TocWalkConfig config{TocKind::Itoc, false, TocAddressing::PerEntryBit, offset, device_data};
  const TocWalk walk = walk_toc(data, itoc, config);
  if (!walk.problems.empty())
    return make_error(ErrorCode::InvalidImage, "FS3 ITOC at " + hex_string(itoc) + ": " + walk.problems.front());
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
    if (s.entry.type != section_type::kDevInfo) continue;
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
    out.push_back({s.entry_offset, s.address, s.data.size(), s.entry.fs3_no_crc()});
  }
  if (out.empty()) return make_error(ErrorCode::InvalidImage, "FS3 ITOC at " + hex_string(itoc) + " lists no DEV_INFO section");
  return out;
}

// New section CRC into entry dword 0x18 (unless no_crc), then the entry's own CRC.
void reseal(std::vector<std::uint8_t>& data, const DevInfoTarget& t) {
  std::uint8_t* entry = data.data() + t.entry_offset;
  if (!t.no_crc) {
    const std::uint16_t crc = crc16(Bytes(data).subspan(t.address, t.size));
    store_be32(entry + 0x18, (ByteReader::load_be32(entry + 0x18) & 0xffff0000u) | crc);
  }
  store_be32(entry + 0x1c, crc16(Bytes(entry, kTocEntrySize - 4)));
}

void put_u64(std::vector<std::uint8_t>& data, std::uint64_t at, std::uint64_t v) {
  store_be32(data.data() + at, static_cast<std::uint32_t>(v >> 32));
  store_be32(data.data() + at + 4, static_cast<std::uint32_t>(v));
}

}  // namespace

Result<void> fs3_set_guids(std::vector<std::uint8_t>& data, std::uint64_t offset, const GuidSettings& s,
                           const UidAllocation& allocation) {
  OF_ASSIGN(const auto targets, find_dev_info(data, offset, true));
  for (const auto& t : targets) {
    put_u64(data, t.address + kDevInfoGuidUid, s.base_guid);
    if (s.base_mac) put_u64(data, t.address + kDevInfoMacUid, *s.base_mac);
    // cx4fw_uid_entry: step in bits 15:8, num_allocated in bits 7:0 of the entry's first dword.
    for (const std::uint64_t entry : {kDevInfoGuidUid - 8, kDevInfoMacUid - 8}) {
      if (allocation.step_size) data[t.address + entry + 2] = *allocation.step_size;
      if (allocation.guids_num) data[t.address + entry + 3] = *allocation.guids_num;
    }
    reseal(data, t);
  }
  return {};
}

Result<void> fs3_set_vsd(std::vector<std::uint8_t>& data, std::uint64_t offset, const std::string& vsd) {
  OF_ASSIGN(const auto targets, find_dev_info(data, offset, false));
  for (const auto& t : targets) {
    auto at = data.begin() + static_cast<std::ptrdiff_t>(t.address + kDevInfoVsd);
    std::fill_n(at, 208, 0);
    std::copy(vsd.begin(), vsd.end(), at);
    reseal(data, t);
  }
  return {};
}

}  // namespace openflint::patch
