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

// The same for a package (MFA, MFA2; image/FirmwarePackage.h): the board whose PSID is the
// device's own (fwops device_psid: the boot copy's) is taken out of `package` and burned;
// `image_size` receives its size. A device whose flash holds no valid image, or a package without
// its PSID, is an error naming both.
[[nodiscard]] Result<BurnReport> burn_package_to_device(const std::string& device, const std::string& package,
                                                        const BurnOptions& options, std::size_t& image_size);

}  // namespace openflint::burn::cli
