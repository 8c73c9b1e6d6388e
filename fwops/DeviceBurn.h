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

// How the device's flash is reached, decided from what the device is, never from a failure to
// ask it. `override_firmware` (--ocr): the gateway. Else the gateway when the catalog gives the
// family no firmware flash access, or no firmware runs (sim: the boot state; PCI: the function
// shows its flash-recovery id), or the firmware answers that it does not list the
// component-update registers (MCAM, fwops/ComponentUpdater offered). Firmware when it lists them.
// When the firmware cannot be asked, an error saying why and what to do, never the gateway:
// Busy (a lock or semaphore is held: advice from fwops/StaleLocks.h), Timeout (the firmware does
// not answer: reset the device), NotSupported (the transport has no register channel, e.g. a
// legacy mstmtserver: --ocr), each naming --ocr and its risk.
[[nodiscard]] Result<BurnPath> burn_path(Device& device, bool override_firmware = false);

// burn_through_firmware or burn_image, as burn_path() says.
[[nodiscard]] Result<BurnReport> burn_device(Device& device, Bytes image, const BurnOptions& options);
// The tool's own burn (burn_image: FailsafeBurner's rules, e.g. bb's in-place non-failsafe burn,
// sg/sv re-burns) on the flash open_device_flash(device, options.override_firmware) gives: on a
// device whose firmware owns the flash its sectors are erased and programmed through the firmware
// (MFBE/MFBA), not the gateway — still the tool's burn, not the firmware's component update.
[[nodiscard]] Result<BurnReport> burn_device_flash(Device& device, Bytes image, const BurnOptions& options);

}  // namespace openflint
