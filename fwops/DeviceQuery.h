// DeviceQuery: the firmware query of an opened device that every tool calls (flint q, ibfwmgr's inventory, mst status --remote).
#pragma once

#include <cstdint>
#include <optional>

#include "core/Error.h"
#include "core/Result.h"
#include "devices/FlashChip.h"
#include "fwops/Device.h"
#include "fwops/registers/RunningFirmware.h"
#include "image/ImageQuery.h"

namespace openflint {

struct DeviceQuery {
  FlashChip chip;                   // the flash part as probed
  std::uint32_t jedec_id = 0;       // as the part answered
  std::optional<ImageQuery> image;  // the copy the device boots; nullopt: none, `no_image` says why
  std::optional<Error> no_image;    // InvalidImage, Mismatch or NotFound: the flash holds no valid image
  std::optional<RunningFirmware> running;  // Device::running_firmware()
};

// Opens the flash for reading the way every query does (fwops/DeviceFlash.h
// open_device_flash_reader: through the running firmware where it owns the flash, else the
// gateway; `override_firmware` is --ocr), reads the boot copy's query sections
// (query_device_image), then asks the running firmware (MGIR, kept by the Device), the flash
// still held. A flash holding no valid image is a result, not an error; an error is a flash that
// cannot be opened or read, and names the device.
[[nodiscard]] Result<DeviceQuery> query_device(Device& device, bool override_firmware = false);

// For a listing of many devices (ibfwmgr's inventory, mst status --remote) that notes a device's
// problem instead of failing: query_device's image, else an error whose message is the note —
// "flash not readable: ..." or "no valid image on flash" (InvalidImage). It does not ask the
// running firmware (no MGIR round trip per listed device).
[[nodiscard]] Result<ImageQuery> listed_flash_image(Device& device);

// The PSID that picks a device's board out of a package (MFA, MFA2; fwburn -image, mst web's
// upload): the boot copy's on flash. A flash holding no valid image is an error naming the
// device and why (the board cannot be told).
[[nodiscard]] Result<std::string> device_psid(Device& device);

}  // namespace openflint
