// FlashImageReader: the device's current image from flash, on every transport: only the blocks of the copy it
// boots (read_current_image: every query; verify, ri and the boot guard where reads are costly) or the whole flash.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/Result.h"
#include "devices/DeviceInfo.h"
#include "flash/FlashReader.h"
#include "fwops/burn/CopyLayout.h"
#include "image/ImageQuery.h"
#include "image/VerifyReport.h"
#include "mtcr/RegisterAccess.h"

namespace openflint {

struct SparseFlash {
  std::vector<std::uint8_t> bytes;  // flash-sized; blocks not read hold 0xFF
  bool image_found = false;         // a bootable copy was found (its blocks are loaded)
  std::optional<ImageQuery> query;  // that copy's query
  std::uint64_t bytes_read = 0;
  ImageFormat format = ImageFormat::Fs3;  // the device's image format
  std::uint64_t copy_start = 0;           // the found copy's address (image/BootCopy.h verify_copy)
};

// Finds the copy the device would boot the way the failsafe burner does (headers, TOCs, every
// section of the copy and its device data) and reads just those blocks, so query/verify/read
// image of the result equal those of the whole flash while reading a fraction of it (in-band a
// 16 MiB flash read takes minutes).
// `scope`: CopyScope::Query reads only what the query needs when one slot holds a copy
// (`bytes` then cannot be verified; use `query`).
// `with_board_data`: also the board data that carries no CRC (NV_DATA), e.g. for ri.
[[nodiscard]] Result<SparseFlash> read_current_image(RegisterAccess& access, const DeviceInfo& info,
                                                     FlashReader& flash, CopyScope scope,
                                                     bool with_board_data = false);

// The whole flash, and the copy the boot ROM starts from it (image/BootCopy.h find_boot_copy
// with the device's boot-address register): what query/verify report on a fast transport.
[[nodiscard]] Result<SparseFlash> read_whole_flash(RegisterAccess& access, const DeviceInfo& info,
                                                   FlashReader& flash, const FlashProgress& progress = {});

// Verify of the copy `flash` found; with none bootable, of the first copy on it (which says
// why it does not boot). InvalidImage when the flash holds no copy at all.
[[nodiscard]] Result<VerifyReport> verify_found_copy(const SparseFlash& flash);

}  // namespace openflint
