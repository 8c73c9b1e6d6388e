// DeviceDataSections: the DEV_INFO and MFG_INFO sections a generated FS3/FS4 image carries (the
// board's GUIDs, MACs and PSID), written alike by both writers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace openflint {

struct DeviceDataIdentity {
  std::string psid;            // at most 16 bytes
  std::string prs_name;        // at most 64 bytes; empty = none
  std::uint64_t base_guid = 0;  // 0 = none ("N/A")
  std::uint8_t guid_count = 8;
  std::uint64_t base_mac = 0;  // 48 bits; 0 = none
  std::uint8_t mac_count = 8;
};

// DEV_INFO (0x200 bytes, layout 2.0, "mDevInfo" signature): the GUID and MAC ranges.
[[nodiscard]] std::vector<std::uint8_t> build_dev_info(const DeviceDataIdentity& id);
// MFG_INFO (0x140 bytes, layout 1.1, guids_override_en): PSID, the GUID and MAC ranges, PRS name.
[[nodiscard]] std::vector<std::uint8_t> build_mfg_info(const DeviceDataIdentity& id);

}  // namespace openflint
