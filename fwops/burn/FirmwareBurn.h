// FirmwareBurn: a burn the device's running firmware performs (component update), the flash read through MFBA.
#pragma once

#include "core/ByteReader.h"
#include "core/Result.h"
#include "devices/DeviceInfo.h"
#include "fwops/burn/BootableImage.h"
#include "fwops/BurnTypes.h"
#include "fwops/burn/ComponentUpdater.h"
#include "mtcr/RegisterAccess.h"
#include "mtcr/RegisterPort.h"

namespace openflint {

// The same checks, identity plan and questions as burn_image, with the current copy read
// through the firmware (MFPA/MFBA); then the copy goes to the firmware (MCC/MCDA), which writes
// it to the slot it does not boot from, verifies it and makes it the boot copy at the next reset.
// The CR-space flash gateway is never used; `access` only reads the hw id. The board's device
// data stays (the firmware keeps it); what only a direct write can do is refused before any
// question with NotSupported naming --ocr, as mstflint under controlled firmware: a burn without
// failsafe, the image's VSD, the file's device data, --uid/--mac/--vsd edits, a PSID change.
[[nodiscard]] Result<BurnReport> burn_through_firmware(RegisterPort& port, RegisterAccess& access, const DeviceInfo& info,
                                                       const BootableImage& image, const BurnOptions& options,
                                                       ComponentUpdateTimeouts timeouts = {});
// The same after BootableImage::check(image).
[[nodiscard]] Result<BurnReport> burn_through_firmware(RegisterPort& port, RegisterAccess& access, const DeviceInfo& info,
                                                       Bytes image, const BurnOptions& options,
                                                       ComponentUpdateTimeouts timeouts = {});

}  // namespace openflint
