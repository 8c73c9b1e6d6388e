// FlashImageReader: reads only the flash blocks that hold the device's current image (for slow transports).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/Result.h"
#include "devices/DeviceInfo.h"
#include "flash/FlashDriver.h"
#include "fwops/CopyLayout.h"
#include "image/ImageQuery.h"
#include "mtcr/RegisterAccess.h"

namespace openflint {

struct SparseFlash {
  std::vector<std::uint8_t> bytes;  // flash-sized; blocks not read hold 0xFF
  bool image_found = false;         // a bootable copy was found (its blocks are loaded)
  std::optional<ImageQuery> query;  // that copy's query
  std::uint64_t bytes_read = 0;
};

// Finds the copy the device would boot the way the failsafe burner does (headers, TOCs, every
// section of the copy and its device data) and reads just those blocks, so query/verify/read
// image of the result equal those of the whole flash while reading a fraction of it (in-band a
// 16 MiB flash read takes minutes).
// `scope`: CopyScope::Query reads only what the query needs when one slot holds a copy
// (`bytes` then cannot be verified; use `query`).
// `with_board_data`: also the board data that carries no CRC (NV_DATA), e.g. for ri.
[[nodiscard]] Result<SparseFlash> read_current_image(RegisterAccess& access, const DeviceInfo& info,
                                                     FlashDriver& driver, CopyScope scope,
                                                     bool with_board_data = false);

}  // namespace openflint
