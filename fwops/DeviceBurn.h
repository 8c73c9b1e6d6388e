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

// Before a raw write through the CR-space gateway (ww, wb, erase, sg/sv on a device, bb): on a
// device whose firmware owns the flash (burn_path() is Firmware) the write would go under the
// running firmware, which may hang it: NotSupported naming --ocr, unless `override_firmware`.
[[nodiscard]] Result<void> check_direct_flash_write(Device& device, bool override_firmware);

// burn_through_firmware or burn_image, as burn_path() says.
[[nodiscard]] Result<BurnReport> burn_device(Device& device, Bytes image, const BurnOptions& options);

}  // namespace openflint
