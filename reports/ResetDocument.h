// ResetDocument: `mst reset --json`'s documents — the plan (what will happen, what blocks it) and
// the report after the reset — for mst and the web console's reset.
#pragma once

#include <nlohmann/json.hpp>

#include "fwops/registers/AdapterReset.h"

namespace openflint::reports {

// {"device", "device_type", "method", "resets_now", "firmware_reset", "pci_reset_method",
//  "functions", "running_before", "blockers", "by_server", "server_refusal"}.
[[nodiscard]] nlohmann::json reset_plan_json(const ResetPlan& plan);
// {"ok", "plan", "running_after", "restored", "took_ms"}.
[[nodiscard]] nlohmann::json reset_report_json(const ResetReport& report);

}  // namespace openflint::reports
