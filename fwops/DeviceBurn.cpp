// DeviceBurn: chooses the burn path from the device's catalog record and its firmware's answers.
#include "fwops/DeviceBurn.h"

#include "fwops/ComponentUpdater.h"
#include "fwops/DeviceFlash.h"
#include "fwops/FirmwareBurn.h"

namespace openflint {

BurnPath burn_path(Device& device, bool override_firmware) {
  if (override_firmware || !device.info().firmware_flash.component_update) return BurnPath::FlashGateway;
  const auto running = device.running_firmware();
  if (!running || running->recovery || !running->image) return BurnPath::FlashGateway;
  auto port = device.register_port();
  if (!port) return BurnPath::FlashGateway;
  const auto offered = ComponentUpdater::offered(**port);
  return offered && *offered ? BurnPath::Firmware : BurnPath::FlashGateway;
}


Result<BurnReport> burn_device(Device& device, Bytes image, const BurnOptions& options) {
  if (burn_path(device, options.override_firmware) == BurnPath::Firmware) {
    OF_ASSIGN(RegisterPort* port, device.register_port());
    return burn_through_firmware(*port, device.access(), device.info(), image, options);
  }
  return burn_image(device.access(), device.info(), image, options);
}

Result<BurnReport> burn_device_flash(Device& device, Bytes image, const BurnOptions& options) {
  OF_TRY(check_image_bootable(image));  // before the flash is touched
  OF_ASSIGN(FlashDriver flash, open_device_flash(device, options.override_firmware));
  return burn_image(device.access(), device.info(), flash, image, options);
}

}  // namespace openflint
