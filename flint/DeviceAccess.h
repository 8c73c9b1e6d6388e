// DeviceAccess: opening -d DEVICE and its flash for a flint command, and saving it afterwards.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cli/TextArgs.h"
#include "core/Result.h"
#include "flash/FlashDriver.h"
#include "flint/Options.h"
#include "fwops/Device.h"
#include "fwops/edit/FlashImageReader.h"
#include "image/ImageQuery.h"

namespace openflint::flint {

// Opens options.device (InvalidArgument when -d is missing), waiting up to --lock-timeout.
// `clear_gateway_semaphore`: clear_semaphore's opening (DeviceOpenOptions).
[[nodiscard]] Result<Device> open_cli_device(const Options& options, bool clear_gateway_semaphore = false);

// Saves a simulated device (also after a failed command: what reached the flash, a power cut,
// the counters are the device's real state) and returns `rc`, or the save error's exit code.
[[nodiscard]] int finish(const Options& options, Device& device, int rc);

// Opens the device and its flash (fwops/DeviceFlash.h open_device_flash: through the running
// firmware when it owns the flash, the gateway otherwise or with --ocr), runs `job`, releases the
// flash, saves the device; returns the job's exit code (or the open/save error's).
[[nodiscard]] int with_flash(const Options& options, const std::function<int(Device&, FlashDriver&)>& job);

// The image the device boots as a stand-alone file (what `ri` writes): the active copy at 0
// plus the board's device data (image/FlashImage.h).
[[nodiscard]] Result<std::vector<std::uint8_t>> read_device_image_file(const Options& options, Device& device,
                                                                       FlashDriver& flash);

// cli::parse_number: cli/TextArgs.h

[[nodiscard]] Result<std::vector<std::uint8_t>> read_whole_file(const std::string& path);

}  // namespace openflint::flint
