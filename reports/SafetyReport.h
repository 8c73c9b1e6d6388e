// SafetyReport: the "safety" object of `flint -d DEV query --json` and `mst status --json` (fwops/SafetyFacts.h; docs/json.md).
#pragma once

#include <nlohmann/json.hpp>

#include "fwops/SafetyFacts.h"

namespace openflint::reports {

// {"dual_image": {"value": true|false|"unknown", "source": "...", "detail": "..."}, "self_recovery": ...,
//  "update_through_firmware": ..., "needs_activation": ..., "signed_images_required": ...}
[[nodiscard]] nlohmann::json safety_json(const SafetyFacts& facts);

// `flint -d DEV q --json`'s document: device_query_json (reports/DeviceReport.h) with the device's
// "safety" object (derive_safety_facts: a few more register reads). The web console's device list
// and its answers after a burn carry the same document.
[[nodiscard]] nlohmann::json device_query_with_safety_json(Device& device, const DeviceQuery& query);

}  // namespace openflint::reports
