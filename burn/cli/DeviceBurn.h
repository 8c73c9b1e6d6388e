// DeviceBurn: burns an image into the device named by -dev (any name open_device() takes) with fwops' burn_device.
#pragma once

#include <string>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "fwops/burn/FailsafeBurner.h"

namespace openflint::burn::cli {

// Opens `device` (any name open_device() accepts: sim:PATH, PCI, lid-N, HOST:PORT,DEVICE, ...), burns
// `image` through burn_device() (the running firmware where it takes images, else the failsafe
// gateway burn) and commits the device (a simulator saves its state).
[[nodiscard]] Result<BurnReport> burn_to_device(const std::string& device, Bytes image,
                                                const BurnOptions& options);

}  // namespace openflint::burn::cli
