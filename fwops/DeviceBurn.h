// DeviceBurn: a burn of an opened device by the path the real tools take — through its running firmware when it offers that, else the flash gateway.
#pragma once

#include "core/ByteReader.h"
#include "core/Result.h"
#include "fwops/Device.h"
#include "fwops/FailsafeBurner.h"

namespace openflint {

enum class BurnPath {
  FlashGateway,  // the tool drives the flash through the CR-space gateway (fwops/FailsafeBurner.h)
  Firmware,      // the running firmware takes the image (fwops/FirmwareBurn.h)
};

// Firmware when the device's family offers firmware flash access (catalog), firmware runs (not
// flash recovery), the device has a register channel, its firmware lists the component-update
// registers (register errors count as "no") and `override_firmware` (--ocr) is off.
[[nodiscard]] BurnPath burn_path(Device& device, bool override_firmware = false);

// burn_through_firmware or burn_image, as burn_path() says.
[[nodiscard]] Result<BurnReport> burn_device(Device& device, Bytes image, const BurnOptions& options);
// The tool's own burn (burn_image: FailsafeBurner's rules, e.g. bb's in-place non-failsafe burn,
// sg/sv re-burns) on the flash open_device_flash(device, options.override_firmware) gives: on a
// device whose firmware owns the flash its sectors are erased and programmed through the firmware
// (MFBE/MFBA), not the gateway — still the tool's burn, not the firmware's component update.
[[nodiscard]] Result<BurnReport> burn_device_flash(Device& device, Bytes image, const BurnOptions& options);

}  // namespace openflint
