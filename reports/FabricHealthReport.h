// FabricHealthReport: one health pass over the fabric (ibmon's; the web console's /api/fabric/health)
// — what it read, its findings against the thresholds — as text and JSON.
#pragma once

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fabric/FabricDiscovery.h"
#include "fabric/HealthCheck.h"
#include "fabric/HealthThresholds.h"
#include "fabric/SystemNaming.h"

namespace openflint::reports {

struct HealthPass {
  int number = 0;
  FabricSweep sweep;
  HealthSample sample;
  std::vector<HealthFinding> findings;
  std::optional<std::vector<CounterDelta>> deltas;  // since the previous pass (none on the first)
};

// Pass `number` of `sweep` and `sample`, judged against `thresholds`: counters by their value, or
// with `previous` (a watch's earlier pass) by their increase since it, whose deltas it lists.
[[nodiscard]] HealthPass make_health_pass(int number, FabricSweep sweep, HealthSample sample, const HealthPass* previous,
                                          const HealthThresholds& thresholds);

// "leaf-3 port 2: SymbolErrorCounter 7 > 0", ...
[[nodiscard]] std::string health_finding_text(const HealthFinding& f, const std::string& system);

// ibmon --json's pass: {"pass", "nodes", "ports", "counters_read", "temperatures_read", "healthy",
// "findings", "deltas", "unread"}; systems named through `naming`, else by GUID.
[[nodiscard]] nlohmann::json health_pass_json(const HealthPass& p, const SystemNaming& naming);
// "pass N: ... healthy" and one line per finding.
void print_health_pass(std::ostream& out, const HealthPass& p, const SystemNaming& naming);

// What the pass read, for plots: {"ports": [{"system", "guid", "port", "state", "counters": {NAME:
// value} or null}], "temperatures": [{"system", "guid", "celsius"}], "thresholds": {"counters":
// {NAME: limit or null}, "temperature_c", "port_state"}}.
[[nodiscard]] nlohmann::json health_readings_json(const HealthPass& p, const SystemNaming& naming,
                                                  const HealthThresholds& thresholds);

}  // namespace openflint::reports
