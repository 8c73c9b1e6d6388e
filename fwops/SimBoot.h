// SimBoot: stand-in for the simulator's boot ROM until SimDevice::reset()/boot_state() land.
#pragma once

#include <filesystem>

#include "core/Result.h"
#include "fwops/RunningFirmware.h"
#include "sim/SimDevice.h"

namespace openflint {

// INTEGRATION POINT (the only boot-dependent code of the device layer). Today: fails with Io
// on a powered-off device, else latches are reset (power_cycle) and the flash array is searched
// for an image that verifies; none = recovery mode. Once the sim boot ROM lands this becomes
// `OF_TRY(device.reset());` plus a conversion of `device.boot_state()`.
[[nodiscard]] Result<RunningFirmware> boot_simulated_device(sim::SimDevice& device);

// The running firmware survives between processes in PATH/boot.json (written with temp +
// rename). Once SimDevice::save_state persists its own boot state these two go away.
[[nodiscard]] Result<void> save_running_firmware(const std::filesystem::path& dir, const RunningFirmware& running);
// A missing file means "never booted": recovery mode.
[[nodiscard]] Result<RunningFirmware> load_running_firmware(const std::filesystem::path& dir);

}  // namespace openflint
