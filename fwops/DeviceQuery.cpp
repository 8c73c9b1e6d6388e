// DeviceQuery: flash reader, boot copy's query, running firmware — in the order every tool read them.
#include "fwops/DeviceQuery.h"

#include "fwops/DeviceFlash.h"

namespace openflint {

Result<DeviceQuery> query_device(Device& device, bool override_firmware) {
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
  out.running = device.running_firmware();  // before the flash is released: the order tools always had
  return out;
}

Result<ImageQuery> listed_flash_image(Device& device) {
  auto query = query_device(device);  // reads only: through the firmware where it owns the flash
  if (!query) return make_error(std::move(query).error().with_context("flash not readable"));
  if (!query->image) return make_error(ErrorCode::InvalidImage, "no valid image on flash");
  return std::move(*query->image);
}

}  // namespace openflint
