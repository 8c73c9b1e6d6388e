// BoardConfig: the per-board INI — PSID, FW version, release date, GUIDs/MACs, VSD, flash layout.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "burn/FirmwareDescription.h"
#include "burn/IniFile.h"
#include "core/Result.h"
#include "image/ImageQuery.h"

namespace openflint::burn {

struct BoardConfig {
  std::string ini_text;  // the INI exactly as read; stored zlib-compressed in the image
  // [image]
  std::string psid;
  FwVersion fw_version;
  std::optional<ReleaseDate> release_date;
  std::string description;      // FS3
  std::string part_number;      // FS3 IMAGE_INFO name
  std::string product_version;  // FS1/FS2 IMG_INFO
  std::string vsd;
  std::vector<std::uint32_t> supported_hw_ids;  // default: the description's device
  // [board]
  std::uint64_t base_guid = 0;
  std::uint64_t base_mac = 0;  // FS2, FS3
  std::uint8_t guid_count = 8;  // FS3
  std::uint8_t mac_count = 8;   // FS3
  // [flash]
  std::optional<unsigned> log2_chunk_size;  // FS2, FS3
  std::optional<std::uint64_t> flash_size;  // FS3; default: the device's flash chip
  std::optional<unsigned> log2_sector_size; // FS1
};

// Checks every key against the target format (text lengths, ranges, keys that do not apply)
// and that supported_hw_ids includes the target device. Errors: InvalidArgument "FILE:LINE:
// [section] key: problem".
[[nodiscard]] Result<BoardConfig> parse_board_config(const IniFile& ini, const FirmwareDescription& target);
[[nodiscard]] Result<BoardConfig> load_board_config(const std::filesystem::path& path,
                                                    const FirmwareDescription& target);

}  // namespace openflint::burn
