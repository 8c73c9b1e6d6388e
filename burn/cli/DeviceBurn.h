// DeviceBurn: burns an image into the device named by -dev (sim:PATH) with fwops' failsafe burn.
#pragma once

#include <string>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "fwops/FailsafeBurner.h"

namespace openflint::burn::cli {

// Opens `device` (any name open_device() accepts: sim:PATH, lid-N, ...), burns `image`
// through burn_image() and commits the device (a simulator saves its state).
[[nodiscard]] Result<BurnReport> burn_to_device(const std::string& device, Bytes image,
                                                const BurnOptions& options);

}  // namespace openflint::burn::cli
