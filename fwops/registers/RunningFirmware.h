// RunningFirmware: what a device booted from its flash (or that it sits in flash-recovery mode).
#pragma once

#include <cstdint>
#include <optional>

#include "image/ImageQuery.h"

namespace openflint {

struct RunningFirmware {
  bool recovery = false;                     // no bootable image was found: "livefish" mode
  std::optional<std::uint64_t> booted_copy;  // flash address of the image that runs
  std::optional<ImageQuery> image;           // query of the running image (not of today's flash)
};

}  // namespace openflint
