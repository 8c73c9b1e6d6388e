// DeviceFlash: opening a device's flash and reading its current image, the same for every tool.
#include "fwops/DeviceFlash.h"

#include <string>

#include "flash/FirmwareFlashBus.h"
#include "flash/FirmwareFlashReader.h"
#include "fwops/DeviceBurn.h"
#include "fwops/SectorJournal.h"

namespace openflint {

Result<FlashDriver> open_device_flash(RegisterAccess& access, const DeviceInfo& info, std::string_view name,
                                      CacheReplacement cache) {
  auto flash = FlashDriver::open(access, info.flash_gateway, {}, cache);
  if (!flash) return make_error(std::move(flash).error().with_context(std::string(name)));
  if (auto recovered = recover_interrupted_write(*flash); !recovered)
    return make_error(std::move(recovered).error().with_context(std::string(name) + ": finishing an interrupted write"));
  return flash;
}

namespace {

Result<FlashDriver> open_through_firmware(Device& device) {
  const std::string what = device.name() + ": driving the flash through the firmware";
  OF_ASSIGN(RegisterPort* port, device.register_port());
  auto bus = FirmwareFlashBus::open(*port);
  if (!bus) return make_error(std::move(bus).error().with_context(what));
  FlashDriver flash = FlashDriver::over_bus(std::move(*bus), /*costly_reads=*/true);
  if (auto recovered = recover_interrupted_write(flash); !recovered)
    return make_error(std::move(recovered).error().with_context(what + ": finishing an interrupted write"));
  return flash;
}

}  // namespace

Result<FlashDriver> open_device_flash(Device& device, bool override_firmware) {
  if (burn_path(device, override_firmware) == BurnPath::Firmware) return open_through_firmware(device);
  return open_device_flash(device.access(), device.info(), device.name(), device.cache_replacement());
}

Result<std::unique_ptr<FlashReader>> open_device_flash_reader(Device& device, bool override_firmware) {
  if (burn_path(device, override_firmware) == BurnPath::Firmware) {
    OF_ASSIGN(RegisterPort* port, device.register_port());
    auto reader = FirmwareFlashReader::open(*port);
    if (!reader)
      return make_error(std::move(reader).error().with_context(device.name() + ": reading the flash through the firmware"));
    return std::unique_ptr<FlashReader>(std::make_unique<FirmwareFlashReader>(std::move(*reader)));
  }
  OF_ASSIGN(FlashDriver driver, open_device_flash(device.access(), device.info(), device.name(), device.cache_replacement()));
  return std::unique_ptr<FlashReader>(std::make_unique<FlashDriver>(std::move(driver)));
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
