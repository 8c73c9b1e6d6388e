// DeviceBurn: burns an image into the device named by -dev (sim:PATH) with fwops' failsafe burn.
#pragma once

#include <string>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "fwops/FailsafeBurner.h"

namespace openflint::burn::cli {

// Opens `device` (only "sim:PATH", a saved simulator state folder, for now), burns `image`
// through burn_image() and saves the simulator state back. NotSupported when the device name
// is not a sim: path.
[[nodiscard]] Result<BurnReport> burn_to_device(const std::string& device, Bytes image,
                                                const BurnOptions& options);

}  // namespace openflint::burn::cli
