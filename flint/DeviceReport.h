// DeviceReport: text and JSON for what `flint -d DEV query` adds to an image query (device, flash, running FW;
// the running FW's JSON is cli/RunningFirmwareReport).
#pragma once

#include <iosfwd>
#include <optional>

#include <nlohmann/json.hpp>

#include "devices/DeviceInfo.h"
#include "flash/FlashReader.h"
#include "fwops/RunningFirmware.h"

namespace openflint::flint {

// "FW Version(Running)" line (only when the transport knows what runs).
void print_running(std::ostream& out, const std::optional<RunningFirmware>& running);
void print_device(std::ostream& out, const DeviceInfo& info, const FlashReader& flash);

[[nodiscard]] nlohmann::json device_json(const DeviceInfo& info);
[[nodiscard]] nlohmann::json flash_json(const FlashReader& flash);

}  // namespace openflint::flint
