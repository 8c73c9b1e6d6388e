// Fs1Writer: generates FS1 (InfiniHost) flash images: invariant sector, two pointer sectors,
// two image copies.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.h"
#include "image/GphSections.h"
#include "image/ImageQuery.h"

namespace openflint {

// Everything an FS1 flash image carries. Same spec -> same bytes.
struct Fs1ImageSpec {
  FwVersion fw_version;
  std::optional<ReleaseDate> release_date;
  std::string psid;             // at most 16 bytes (pointer sectors and IMG_INFO)
  std::string vsd;              // at most 208 bytes
  std::string product_version;  // at most 16 bytes
  std::uint16_t device_id = 25208;  // IMG_INFO DeviceType (InfiniHost III Ex)
  std::uint8_t dev_rev = 0xa0;
  std::vector<std::uint32_t> supported_hw_ids;
  std::uint64_t base_guid = 0;  // GUID section: base_guid+0..3 (node, port1, port2, sys image)
  std::string ini;              // FW_CONF text (zlib-compressed); empty = none
  std::vector<std::uint8_t> invariant_code;  // invariant-sector boot code; empty = filler
  std::vector<std::uint8_t> boot2_code;      // each copy's BOOT2 code; empty = filler
  std::vector<gph::GphSection> sections;     // code sections (DDR, CNF, JMP, EMT, ROM, ...)
  unsigned log2_sector_size = 16;            // 12..20 (4 KiB .. 1 MiB)
};

// The whole flash image: sector 0 invariant, 1 primary PS, 2 secondary PS, then the
// primary copy at 3 sectors and the secondary copy after it (sector aligned); 0xff padding.
[[nodiscard]] Result<std::vector<std::uint8_t>> write_fs1_image(const Fs1ImageSpec& spec);

}  // namespace openflint
