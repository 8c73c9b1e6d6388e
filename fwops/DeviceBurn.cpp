// DeviceBurn: chooses the burn path from the device's catalog record and its firmware's answers.
#include "fwops/DeviceBurn.h"

#include "fwops/ComponentUpdater.h"
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

Result<void> check_direct_flash_write(Device& device, bool override_firmware) {
  if (burn_path(device, override_firmware) == BurnPath::FlashGateway) return {};
  return make_error(ErrorCode::NotSupported, device.name() + ": the running firmware owns the flash; writing it "
                                             "through the gateway may hang the firmware (--ocr forces it; reset "
                                             "the device afterwards)");
}

Result<BurnReport> burn_device(Device& device, Bytes image, const BurnOptions& options) {
  if (burn_path(device, options.override_firmware) == BurnPath::Firmware) {
    OF_ASSIGN(RegisterPort* port, device.register_port());
    return burn_through_firmware(*port, device.access(), device.info(), image, options);
  }
  return burn_image(device.access(), device.info(), image, options);
}

}  // namespace openflint
