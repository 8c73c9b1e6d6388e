// DeviceVerify: the verify of an opened device's flash that every tool calls (flint -d DEV v, the
// web console's flash page): the copy the boot ROM starts, section by section.
#pragma once

#include "core/Result.h"
#include "flash/FlashReader.h"
#include "fwops/Device.h"
#include "image/VerifyReport.h"

namespace openflint {

struct DeviceVerify {
  VerifyReport report;  // the copy the boot ROM starts; with none bootable, the first copy on flash
  bool ok = false;      // a copy the boot ROM starts was found and every section holds
};

// Opens the flash as a query does (open_device_flash_reader; `override_firmware`: --ocr), reads it
// (read_device_flash: whole when cheap, else the copy's blocks) and verifies the boot copy. A
// flash without a bootable copy is a result (ok false, a problem saying so), not an error; errors
// name the device.
[[nodiscard]] Result<DeviceVerify> verify_device(Device& device, bool override_firmware = false,
                                                 const FlashProgress& progress = {});

}  // namespace openflint
