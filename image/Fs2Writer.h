// Fs2Writer: generates FS2 (ConnectX-1..3) firmware images from a plain description.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/Result.h"
#include "image/Fs2ConfigArea.h"
#include "image/GphSections.h"
#include "image/ImageQuery.h"

namespace openflint {

// Everything an FS2 image carries. Same spec -> same bytes (zlib level 9, no timestamps).
struct Fs2ImageSpec {
  FwVersion fw_version;
  std::optional<ReleaseDate> release_date;
  // When set, the image carries a MIC version tag, which makes mstflint also check the
  // whole-image CRC in fw_id[15:0] (always written).
  std::optional<FwVersion> mic_version;
  std::string psid;             // at most 16 bytes
  std::string vsd;              // at most 208 bytes
  std::string product_version;  // at most 16 bytes; empty = no tag
  std::uint16_t device_id = 4099;  // IMG_INFO DeviceType ("Device ID" in mstflint query)
  std::uint8_t dev_rev = 0xb0;     // fw_id[31:24]
  std::vector<std::uint32_t> supported_hw_ids;
  std::uint64_t base_guid = 0;  // GUID section: base_guid+0..3 (node, port1, port2, sys image)
  std::uint64_t base_mac = 0;   // then base_mac+0..1 (port1, port2); 48 bits
  // Switches (SwitchX): the port 1 and port 2 GUIDs are 0, node = base_guid, system image =
  // base_guid + 3 (MFTDOC: "-guids <node> 0 0 <sysimg>").
  bool zero_port_guids = false;
  std::optional<Fs2ConfigArea> config_area;  // SwitchX: the configuration-area tag
  std::string ini;              // FW_CONF text (stored zlib-compressed); empty = no FW_CONF
  std::vector<std::uint8_t> boot2_code;      // empty = 16 fixed filler bytes
  std::vector<gph::GphSection> sections;     // code sections (DDR, CNF, JMP, EMT, ROM, ...)
  bool failsafe = true;
  unsigned log2_chunk_size = 20;  // 16..23
  // false: the image as a file (contiguous, what mlxburn produces). true: a failsafe flash
  // dump, the image striped into the even chunks and a second copy into the odd chunks.
  bool striped = false;
};

// The image bytes; InvalidArgument naming the field when the spec is out of range.
[[nodiscard]] Result<std::vector<std::uint8_t>> write_fs2_image(const Fs2ImageSpec& spec);

}  // namespace openflint
