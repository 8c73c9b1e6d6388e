// ImageQuery: what `flint query` reports about one firmware image.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "image/ImageFormat.h"

namespace openflint {

struct FwVersion {
  std::uint16_t major = 0;
  std::uint16_t minor = 0;
  std::uint16_t subminor = 0;
  // mstflint style: "13.2000.2162" (minor and subminor zero-padded to 4 digits).
  [[nodiscard]] std::string to_string() const;
  friend bool operator==(const FwVersion&, const FwVersion&) = default;
  friend auto operator<=>(const FwVersion&, const FwVersion&) = default;
};

struct ReleaseDate {
  std::uint16_t year = 0;
  std::uint8_t month = 0;
  std::uint8_t day = 0;
  // mstflint style: "23.9.2019" (day.month.year, no padding).
  [[nodiscard]] std::string to_string() const;
  friend bool operator==(const ReleaseDate&, const ReleaseDate&) = default;
};

// A run of consecutive GUIDs or MACs.
struct UidRange {
  std::uint64_t base = 0;
  std::uint32_t count = 0;
};

struct ImageQuery {
  ImageFormat format = ImageFormat::Fs3;
  std::uint64_t image_start = 0;  // where in the file/flash the (active) image begins
  bool failsafe = true;
  std::optional<FwVersion> fw_version;
  std::optional<std::uint32_t> issu_version;  // FS3 only ("FW ISSU Version")
  std::optional<ReleaseDate> release_date;
  std::string psid;
  std::string description;      // product description from IMAGE_INFO (may be empty)
  std::string product_version;  // IMAGE_INFO prod_ver (may be empty)
  std::string name;             // IMAGE_INFO name (may be empty)
  std::string image_vsd;
  std::string device_vsd;       // FS3 DEV_INFO vsd (what `sv` sets; may be empty)
  std::optional<std::uint16_t> pci_vendor_id;
  std::optional<std::uint16_t> pci_device_id;
  std::vector<std::uint32_t> supported_hw_ids;  // empty when the image does not say
  std::optional<UidRange> base_guid;            // absent = "N/A"
  std::optional<UidRange> base_mac;
  // FS1/FS2: every entry of the GUID section as stored (GUIDs, then FS2 MACs): a board's
  // identity, kept exactly by a burn. Empty for FS3/FS4 (their identity is device data).
  std::vector<std::uint64_t> uids;
  std::optional<std::uint32_t> security_version;  // FS4 "Security Ver"
  std::uint64_t image_size = 0;                   // bytes of the image proper (0 if unknown)
  // FS3/FS4 IMAGE_INFO mcc_en (dword 0 bit 8): this firmware takes updates through the MCC
  // component-update registers (mstflint fs3_ops reads it the same way).
  bool mcc_enabled = false;
};

}  // namespace openflint
