// DeviceFlash: opening a device's flash and reading its current image, the same for every tool.
#include "fwops/DeviceFlash.h"

#include <string>

#include "flash/FirmwareFlashBus.h"
#include "flash/FirmwareFlashReader.h"
#include "fwops/burn/FlashPath.h"
#include "fwops/burn/SectorJournal.h"
#include "fwops/access/StaleLocks.h"

namespace openflint {

Result<FlashDriver> open_device_flash(RegisterAccess& access, const DeviceInfo& info, std::string_view name,
                                      CacheReplacement cache, I2cAccess* i2c) {
  OF_ASSIGN_CTX(FlashDriver flash, FlashDriver::open(access, info.flash_gateway, {}, cache, i2c), std::string(name));
  OF_TRY_CTX(recover_interrupted_write(flash), std::string(name) + ": finishing an interrupted write");
  return flash;
}

namespace {

Result<FlashDriver> open_through_firmware(Device& device) {
  const std::string what = device.name() + ": driving the flash through the firmware";
  OF_ASSIGN(RegisterPort* port, device.register_port());
  OF_ASSIGN_CTX(std::unique_ptr<FirmwareFlashBus> bus, FirmwareFlashBus::open(*port), what);
  FlashDriver flash = FlashDriver::over_bus(std::move(bus), /*costly_reads=*/true);
  OF_TRY_CTX(recover_interrupted_write(flash), what + ": finishing an interrupted write");
  return flash;
}

}  // namespace

Result<FlashDriver> open_device_flash(Device& device, bool override_firmware) {
  OF_ASSIGN(const FlashPath path, flash_path(device, override_firmware));
  return open_device_flash(device, path);
}

Result<FlashDriver> open_device_flash(Device& device, FlashPath path) {
  auto flash = path == FlashPath::Firmware
                   ? open_through_firmware(device)
                   : open_device_flash(device.access(), device.info(), device.name(), device.cache_replacement(),
                                       device.transport().i2c());
  if (!flash) return make_error(with_stale_lock_advice(device, std::move(flash).error()));
  return flash;
}

Result<std::unique_ptr<FlashReader>> open_device_flash_reader(Device& device, bool override_firmware) {
  auto path = flash_path(device, override_firmware);
  // A transport with no register channel at all (a legacy mstmtserver) cannot ask the firmware:
  // reads go through the gateway there, as before; writes need the answer (open_device_flash
  // refuses them).
  if (!path && path.error().code() != ErrorCode::NotSupported) return make_error(std::move(path).error());
  if (path && *path == FlashPath::Firmware) {
    OF_ASSIGN(RegisterPort* port, device.register_port());
    auto reader = FirmwareFlashReader::open(*port);
    if (!reader)
      return make_error(with_stale_lock_advice(
          device, std::move(reader).error().with_context(device.name() + ": reading the flash through the firmware")));
    return std::unique_ptr<FlashReader>(std::make_unique<FirmwareFlashReader>(std::move(*reader)));
  }
  auto driver = open_device_flash(device.access(), device.info(), device.name(), device.cache_replacement(),
                                  device.transport().i2c());
  if (!driver) return make_error(with_stale_lock_advice(device, std::move(driver).error()));
  return std::unique_ptr<FlashReader>(std::make_unique<FlashDriver>(std::move(*driver)));
}

bool reads_whole_flash(const FlashReader& flash) { return !flash.costly_reads(); }

Result<SparseFlash> read_device_flash(Device& device, FlashReader& flash, bool with_board_data,
                                      const FlashProgress& progress) {
  if (reads_whole_flash(flash)) return read_whole_flash(device.access(), device.info(), flash, progress);
  return read_current_image(device.access(), device.info(), flash, CopyScope::Whole, with_board_data);
}

Result<ImageQuery> query_device_image(Device& device, FlashReader& flash) {
  // Only the copy's tables and query sections, whatever the transport: a fast one gains
  // nothing from the whole flash (a served BAR read 16-32 MiB through the gateway for this).
  OF_ASSIGN(const SparseFlash found, read_current_image(device.access(), device.info(), flash, CopyScope::Query));
  if (!found.query) return make_error(ErrorCode::InvalidImage, "no bootable copy found on flash");
  return *found.query;
}

}  // namespace openflint
