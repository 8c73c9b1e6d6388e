// DeviceQuery: flash reader, boot copy's query, running firmware — in the order every tool read them.
#include "fwops/DeviceQuery.h"

#include "fwops/DeviceFlash.h"

namespace openflint {

namespace {

enum class Running { Ask, Skip };

// The flash part and the boot copy's query; the running firmware too when asked, read before
// the flash is released (the order tools always had, which recorded sessions hold).
Result<DeviceQuery> query(Device& device, bool override_firmware, Running running) {
  OF_ASSIGN(const std::unique_ptr<FlashReader> flash, open_device_flash_reader(device, override_firmware));
  DeviceQuery out;
  out.chip = flash->chip();
  out.jedec_id = flash->jedec_id();
  auto image = query_device_image(device, *flash);
  if (image) {
    out.image = std::move(*image);
  } else {
    const ErrorCode code = image.error().code();
    if (code != ErrorCode::InvalidImage && code != ErrorCode::Mismatch && code != ErrorCode::NotFound)
      return make_error(std::move(image).error().with_context(device.name()));  // the flash could not be read
    out.no_image = std::move(image).error();
  }
  if (running == Running::Ask) out.running = device.running_firmware();
  return out;
}

}  // namespace

Result<DeviceQuery> query_device(Device& device, bool override_firmware) {
  return query(device, override_firmware, Running::Ask);
}

Result<ImageQuery> listed_flash_image(Device& device) {
  // Reads only (through the firmware where it owns the flash); a listing does not ask what runs.
  OF_ASSIGN_CTX(DeviceQuery found, query(device, false, Running::Skip), "flash not readable");
  if (!found.image) return make_error(ErrorCode::InvalidImage, "no valid image on flash");
  return std::move(*found.image);
}

Result<std::string> device_psid(Device& device) {
  OF_ASSIGN(const DeviceQuery found, query(device, false, Running::Skip));
  if (!found.image || found.image->psid.empty()) {
    const Error why = found.no_image ? *found.no_image : Error(ErrorCode::NotFound, "the image has no PSID");
    return make_error(why.with_context(device.name() + ": flash holds no valid firmware image, so no PSID picks a "
                                                           "board out of the package"));
  }
  return found.image->psid;
}

}  // namespace openflint
