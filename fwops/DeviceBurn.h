// DeviceBurn: the burn of an opened device that every front end calls — through its running firmware when it offers that, else the flash gateway.
#pragma once

#include "core/ByteReader.h"
#include "core/Result.h"
#include "fwops/BurnTypes.h"
#include "fwops/Device.h"
#include "fwops/ImageFile.h"

namespace openflint {

// flint burn, fwburn -dev and ibfwmgr update call this and compose nothing around it. In order:
// the image is verified once (fwops/burn/BootableImage.h: InvalidImage before the flash is touched);
// the flash path is decided once (fwops/burn/FlashPath.h flash_path: the firmware is asked, never
// guessed); then either the running firmware takes the image (burn_through_firmware), or the
// flash is opened once — the device's cache-replacement policy, its lock held to the end, an
// interrupted journaled write finished first (fwops/DeviceFlash.h) — and burned failsafe
// (burn_image). The refusals (image for other devices, PSID change, what the firmware cannot
// do) are made here, before options.decide is asked. Every error but Cancelled names the
// device; Busy ones carry fwops/access/StaleLocks.h advice.
[[nodiscard]] Result<BurnReport> burn_device(Device& device, Bytes image, const BurnOptions& options);
// The same burn of the image a tool names (fwops/ImageFile.h: a file, or an archive's board), so
// a front end opens the device and makes this one call: the image is opened here (its errors
// name the file), and the device's writes are saved (Device::commit) before it returns, also
// when the burn failed part-way.
[[nodiscard]] Result<BurnReport> burn_device(Device& device, const ImageName& image, const BurnOptions& options);
// The tool's own burn (burn_image: FailsafeBurner's rules, e.g. bb's in-place non-failsafe burn,
// sg/sv re-burns) on the flash open_device_flash(device, options.override_firmware) gives: on a
// device whose firmware owns the flash its sectors are erased and programmed through the firmware
// (MFBE/MFBA), not the gateway — still the tool's burn, not the firmware's component update.
// The image is verified once, the flash opened once, errors as burn_device's.
[[nodiscard]] Result<BurnReport> burn_device_flash(Device& device, Bytes image, const BurnOptions& options);

}  // namespace openflint
