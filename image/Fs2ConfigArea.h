// Fs2ConfigArea: the SwitchX configuration area of an FS2 flash (image-info tag 19, sizes and reserve).
#pragma once

#include <algorithm>
#include <cstdint>

namespace openflint {

// The tag carries config_sectors, config_pad and (optionally) log2 of the firmware sector size
// in KiB; mstflint fs2_ops GetMaxImageSize and the config-address code use them (facts:
// ../shared/reference/legacy-devices.md §3.3). config_pad is non-zero only on SwitchX, whose
// sector is 4 KiB (ConnectX: 64 KiB). Our reading of the reserve: up to 64 KiB of config
// sectors, kept twice at the end of flash (one per failsafe half), plus the pad once.
struct Fs2ConfigArea {
  std::uint32_t config_sectors = 0;  // 0 = the image has no configuration-area tag
  std::uint32_t config_pad = 0;      // sectors
  std::uint32_t log2_sector_kib = 2; // 4 KiB

  static constexpr std::uint32_t kTag = 19;  // IMG_INFO tag id (mstflint II_ConfigArea)
  static constexpr std::uint64_t kMaxConfigBytes = 0x10000;

  [[nodiscard]] constexpr bool present() const { return config_sectors != 0; }
  [[nodiscard]] constexpr std::uint64_t sector_size() const { return std::uint64_t{1024} << log2_sector_kib; }
  // The config sectors of one half, at most 64 KiB.
  [[nodiscard]] constexpr std::uint64_t config_bytes() const {
    return std::min<std::uint64_t>(std::uint64_t{config_sectors} * sector_size(), kMaxConfigBytes);
  }
  [[nodiscard]] constexpr std::uint64_t pad_bytes() const { return std::uint64_t{config_pad} * sector_size(); }
  // The largest image a flash of `flash_size` takes: half of it (failsafe) or all of it, less
  // the configuration area.
  [[nodiscard]] constexpr std::uint64_t max_image_size(std::uint64_t flash_size, bool failsafe) const {
    if (failsafe) return flash_size / 2 - (config_bytes() + pad_bytes());
    return flash_size - (2 * config_bytes() + pad_bytes());
  }
  // Where the configuration area starts: the end of flash less both config copies and the pad.
  [[nodiscard]] constexpr std::uint64_t base(std::uint64_t flash_size) const {
    return flash_size - (2 * config_bytes() + pad_bytes());
  }
};

}  // namespace openflint
