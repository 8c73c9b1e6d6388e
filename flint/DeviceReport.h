// DeviceReport: text and JSON for what `flint -d DEV query` adds to an image query (device, flash, running FW;
// the running FW's JSON is cli/RunningFirmwareReport).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>

#include <nlohmann/json.hpp>

#include "devices/DeviceInfo.h"
#include "devices/FlashChip.h"
#include "fwops/registers/RunningFirmware.h"

namespace openflint::flint {

// "FW Version(Running)" line (only when the transport knows what runs).
void print_running(std::ostream& out, const std::optional<RunningFirmware>& running);
// The device and its flash part (fwops/DeviceQuery.h: as probed, with the id it answered).
void print_device(std::ostream& out, const DeviceInfo& info, const FlashChip& chip, std::uint32_t jedec_id);

[[nodiscard]] nlohmann::json device_json(const DeviceInfo& info);
[[nodiscard]] nlohmann::json flash_json(const FlashChip& chip, std::uint32_t jedec_id);

}  // namespace openflint::flint
