// ConfigDocument: `mst config`'s --json documents — the query (default / current / next boot of
// each parameter) and a set's changes — for mst and the web console's configuration page.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fwops/registers/NvConfig.h"
#include "fwops/registers/NvConfigPlan.h"

namespace openflint::reports {

// {"value", "text"} or null.
[[nodiscard]] nlohmann::json nv_value_json(const NvParameter& parameter, std::optional<std::uint32_t> value);
// {"name", "item", "port", "default", "current", "next", "pending"}.
[[nodiscard]] nlohmann::json nv_reading_json(const NvReading& reading);
// The `mst config DEV query --json` document.
[[nodiscard]] nlohmann::json config_query_json(const std::string& device, const std::string& device_type,
                                               const NvConfig& config, const std::vector<NvReading>& rows);
// [{"name", "old", "new"}] of the assignments that change something.
[[nodiscard]] nlohmann::json config_changes_json(const std::vector<NvPlannedSet>& plan);

}  // namespace openflint::reports
