// DeviceBurn: one verify, one path decision, one flash open, then the firmware's or the tool's burn.
#include "fwops/DeviceBurn.h"

#include "fwops/burn/BootableImage.h"
#include "fwops/DeviceFlash.h"
#include "fwops/burn/FailsafeBurner.h"
#include "fwops/burn/FirmwareBurn.h"
#include "fwops/burn/FlashPath.h"
#include "fwops/access/StaleLocks.h"

namespace openflint {
namespace {

// A burn step's error, named after the device, with stale-lock advice where a lock is held.
Error burn_error(const Device& device, Error error) {
  if (error.code() != ErrorCode::Cancelled) error = std::move(error).with_context(device.name());
  return with_stale_lock_advice(device, std::move(error));
}

// The tool's burn on the flash `path` opens (its errors already name the device).
Result<BurnReport> burn_on_flash(Device& device, FlashPath path, const BootableImage& image, const BurnOptions& options) {
  OF_ASSIGN(FlashDriver flash, open_device_flash(device, path));
  auto report = burn_image(device.access(), device.info(), flash, image, options);
  if (!report) return make_error(burn_error(device, std::move(report).error()));
  return report;
}

}  // namespace

Result<BurnReport> burn_device(Device& device, Bytes image, const BurnOptions& options) {
  OF_ASSIGN_CTX(const BootableImage bootable, BootableImage::check(image), device.name());
  OF_ASSIGN(const FlashPath path, flash_path(device, options.override_firmware));
  if (path == FlashPath::FlashGateway) return burn_on_flash(device, path, bootable, options);
  OF_ASSIGN(RegisterPort* port, device.register_port());
  auto report = burn_through_firmware(*port, device.access(), device.info(), bootable, options);
  if (!report) return make_error(burn_error(device, std::move(report).error()));
  return report;
}

Result<BurnReport> burn_device(Device& device, const ImageName& image, const BurnOptions& options) {
  OF_ASSIGN(const ImageFile file, ImageFile::open(image));
  auto report = burn_device(device, file.bytes(), options);
  // What was written is saved whatever the outcome, as a real flash keeps a burn's partial writes.
  auto saved = device.commit();
  if (report && !saved) return make_error(std::move(saved).error().with_context(device.name()));
  return report;
}

Result<BurnReport> burn_device_flash(Device& device, Bytes image, const BurnOptions& options) {
  OF_ASSIGN_CTX(const BootableImage bootable, BootableImage::check(image), device.name());
  OF_ASSIGN(const FlashPath path, flash_path(device, options.override_firmware));
  return burn_on_flash(device, path, bootable, options);
}

}  // namespace openflint
