// Fs3Writer: generates FS3 (Connect-IB .. Spectrum-1) flash images laid out like real ones.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.h"
#include "image/ImageQuery.h"

namespace openflint {

// One ITOC section the caller supplies (code or configuration); the writer makes IMAGE_INFO,
// DBG_FW_INI and the device data (NV_DATA, DEV_INFO, MFG_INFO, VPD_R0) itself.
struct Fs3Section {
  std::uint8_t type = 0;           // section_type::k* (not a generated or device-data type)
  std::vector<std::uint8_t> data;  // a dword multiple
};

// Everything an FS3 flash image carries. Same spec -> same bytes (zlib level 9, no clock).
struct Fs3ImageSpec {
  FwVersion fw_version;
  std::optional<ReleaseDate> release_date;
  std::string psid;          // at most 16 bytes (IMAGE_INFO and MFG_INFO)
  std::string vsd;           // at most 208 bytes
  std::string description;   // at most 256 bytes (IMAGE_INFO description)
  std::string part_number;   // at most 64 bytes (IMAGE_INFO name, mstflint "Part Number")
  std::string prs_name;      // at most 64 bytes; empty = none
  std::uint16_t pci_device_id = 0;
  std::uint16_t issu_version = 1;     // IMAGE_INFO MAD module major ("FW ISSU Version")
  bool component_update = false;      // IMAGE_INFO mcc_en: the firmware takes updates through MCC
  std::vector<std::uint32_t> supported_hw_ids;  // at most 4
  std::uint64_t base_guid = 0;        // DEV_INFO/MFG_INFO; 0 = none ("N/A")
  std::uint8_t guid_count = 8;
  std::uint64_t base_mac = 0;         // 48 bits; 0 = none
  std::uint8_t mac_count = 8;
  std::string ini;                    // DBG_FW_INI text (stored zlib-compressed); empty = none
  std::vector<std::uint8_t> boot2_code;  // empty = fixed filler; a dword multiple >= 16 bytes
  std::vector<Fs3Section> sections;   // in ITOC order, each at a 4 KiB boundary
  unsigned log2_chunk_size = 22;      // 0x24[23:16]; the image must fit in one chunk
  std::uint64_t flash_size = 0x1000000;  // device data sits at its end
};

// Offsets of the parts of a generated image (for callers that patch or check them).
struct Fs3Layout {
  std::uint64_t boot2 = 0;
  std::uint64_t itoc = 0;
  struct Placed {
    std::uint8_t type = 0;
    std::uint64_t address = 0;
    std::uint64_t size = 0;
  };
  std::vector<Placed> sections;  // every ITOC entry in order, device data included
};

// The image bytes, from 0 to the end of the last device-data section (as real Spectrum-1
// images: 0xff9000 bytes for a 16 MiB flash). InvalidArgument naming the field when the
// spec is out of range.
[[nodiscard]] Result<std::vector<std::uint8_t>> write_fs3_image(const Fs3ImageSpec& spec,
                                                                Fs3Layout* layout = nullptr);

// The checks of `spec` both FS3 and FS4 writers make (texts fit their fields, at most 4 hw ids,
// a 48-bit MAC, BOOT2 code, sections of a caller's type and at most `max_section` bytes, a MiB multiple less 4);
// InvalidArgument naming the field.
[[nodiscard]] Result<void> check_image_spec_fields(const Fs3ImageSpec& spec, std::uint64_t max_section);

// An IMAGE_INFO section (0x400 bytes, layout 0.2) for `spec`.
[[nodiscard]] std::vector<std::uint8_t> build_fs3_image_info(const Fs3ImageSpec& spec);

}  // namespace openflint
