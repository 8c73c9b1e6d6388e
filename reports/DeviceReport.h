// DeviceReport: text and JSON for what `flint -d DEV query` adds to an image query (device, flash, running FW;
// the running FW's JSON is cli/RunningFirmwareReport).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "devices/DeviceInfo.h"
#include "devices/FlashChip.h"
#include "fwops/DeviceQuery.h"
#include "fwops/registers/RunningFirmware.h"

namespace openflint::reports {

// "FW Version(Running)" line (only when the transport knows what runs).
void print_running(std::ostream& out, const std::optional<RunningFirmware>& running);
// The device and its flash part (fwops/DeviceQuery.h: as probed, with the id it answered).
void print_device(std::ostream& out, const DeviceInfo& info, const FlashChip& chip, std::uint32_t jedec_id);

[[nodiscard]] nlohmann::json device_json(const DeviceInfo& info);
[[nodiscard]] nlohmann::json flash_json(const FlashChip& chip, std::uint32_t jedec_id);

// The `flint -d DEV query --json` document: the image's query with the device, its flash and
// what runs; `ok` true. With no valid image on flash: the error document (cli/ErrorReport
// error_json of `no_image`, named after `device_name`) with the device part, `ok` false.
[[nodiscard]] nlohmann::json device_query_json(const std::string& device_name, const DeviceInfo& info,
                                               const DeviceQuery& query);
// The error `device_query_json` reports for a flash with no valid image.
[[nodiscard]] Error no_image_error(const std::string& device_name, const DeviceQuery& query);

}  // namespace openflint::reports
