// DeviceAccess: device/flash opening, saving and argument helpers shared by the -d commands.
#include "flint/DeviceAccess.h"

#include <charconv>

#include "core/InputFile.h"
#include "devices/FlashChip.h"
#include "flint/Commands.h"
#include "flint/Progress.h"
#include "fwops/edit/FlashImageReader.h"
#include "fwops/DeviceFlash.h"
#include "image/FirmwareImage.h"
#include "image/FlashImage.h"

namespace openflint::flint {

Result<Device> open_cli_device(const Options& options, bool clear_gateway_semaphore) {
  if (options.device.empty()) {
    return make_error(ErrorCode::InvalidArgument,
                      "no device given: use -d DEVICE (" + std::string(accepted_device_forms()) + ")");
  }
  DeviceOpenOptions open_options;
  open_options.lock_timeout = std::chrono::milliseconds(options.lock_timeout_ms);
  open_options.sysfs_root = options.sysfs_root;
  open_options.clear_gateway_semaphore = clear_gateway_semaphore;
  auto device = open_device(options.device, open_options);
  // --ocr also overrides the cache-replacement guard (mstflint -ocr = -override_cache_replacement).
  if (device && options.ocr) device->set_cache_replacement(CacheReplacement::Override);
  return device;
}

int finish(const Options& options, Device& device, int rc) {
  if (auto saved = device.commit(); !saved) return report_error(options, saved.error());
  return rc;
}

int with_flash(const Options& options, const std::function<int(Device&, FlashDriver&)>& job) {
  auto device = open_cli_device(options);
  if (!device) return report_error(options, device.error());
  int rc = 0;
  {
    auto flash = open_device_flash(*device, options.ocr);
    rc = flash ? job(*device, *flash) : report_error(options, flash.error());
  }
  return finish(options, *device, rc);
}

Result<std::vector<std::uint8_t>> read_device_image_file(const Options& options, Device& device,
                                                         FlashDriver& flash) {
  OF_ASSIGN(const SparseFlash found,
            openflint::read_device_flash(device, flash, true, progress_line(options, "Reading flash")));
  // The copy the boot ROM starts, as ri saves it (image/FlashImage.h).
  OF_ASSIGN_CTX(std::vector<std::uint8_t> file,
                found.image_found
                    ? image_file_from_copy(found.bytes, BootCopy{found.format, found.copy_start, 0, *found.query})
                    : image_file_from_flash(found.bytes),
                device.name() + ": no image on flash");
  return file;
}

Result<std::vector<std::uint8_t>> read_whole_file(const std::string& path) {
  // Nothing flint reads whole (an image to patch, a block to write) can exceed the largest flash.
  return read_input_file(path, largest_flash_size(), "file");
}

}  // namespace openflint::flint
