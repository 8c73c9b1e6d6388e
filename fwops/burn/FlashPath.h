// FlashPath: who drives a device's flash — the tool through the flash gateway, or the running firmware — for queries and burns alike.
#pragma once

#include "core/Result.h"
#include "fwops/Device.h"

namespace openflint {

enum class FlashPath {
  FlashGateway,  // the tool drives the flash through the CR-space gateway (fwops/burn/FailsafeBurner.h)
  Firmware,      // the running firmware owns the flash: reads through MFBA, burns by component update (fwops/burn/FirmwareBurn.h)
};

// How the device's flash is reached, decided from what the device is, never from a failure to
// ask it. `override_firmware` (--ocr): the gateway. Else the gateway when the catalog gives the
// family no firmware flash access, or no firmware runs (sim: the boot state; PCI: the function
// shows its flash-recovery id), or the firmware answers that it does not list the
// component-update registers (MCAM, fwops/burn/ComponentUpdater offered). Firmware when it lists them.
// When the firmware cannot be asked: an error saying why and what to do, never the gateway:
// Busy (a lock or semaphore is held: advice from fwops/access/StaleLocks.h), Timeout (the firmware does
// not answer: reset the device), NotSupported (the transport has no register channel, e.g. a
// legacy mstmtserver: --ocr), each naming --ocr and its risk.
[[nodiscard]] Result<FlashPath> flash_path(Device& device, bool override_firmware = false);

}  // namespace openflint
