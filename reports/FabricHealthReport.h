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
  std::optional<std::vector<PortRate>> rates;       // traffic since the previous pass (none on the first)
};

// Pass `number` of `sweep` and `sample`, judged against `thresholds`: counters by their value, or
// with `previous` (a watch's earlier pass) by their increase since it, whose deltas it lists.
[[nodiscard]] HealthPass make_health_pass(int number, FabricSweep sweep, HealthSample sample, const HealthPass* previous,
                                          const HealthThresholds& thresholds);

// "leaf-3 port 2: SymbolErrorCounter 7 > 0", ...
[[nodiscard]] std::string health_finding_text(const HealthFinding& f, const std::string& system);

// ibmon --json's pass: {"pass", "nodes", "ports", "counters_read", "traffic_read",
// "temperatures_read", "healthy", "findings", "deltas", "traffic", "temperatures", "unread"};
// systems named through `naming`, else by GUID. "traffic" (null on a first pass): per port
// {"system", "guid", "port", "xmit_bytes_per_s", "rcv_bytes_per_s", "xmit_pkts_per_s",
// "rcv_pkts_per_s", "link_bytes_per_s", "utilisation_pct", "counters": {NAME: value now}}; "temperatures": per node read
// {"system", "guid", "celsius", "path"} ("in-band" or "out-of-band HOST").
[[nodiscard]] nlohmann::json health_pass_json(const HealthPass& p, const SystemNaming& naming);
// "pass N: ... healthy" and one line per finding; on later passes the traffic: one line naming
// the busiest port (the most bytes/s in either direction), or with `every_port` one per port.
void print_health_pass(std::ostream& out, const HealthPass& p, const SystemNaming& naming, bool every_port = false);

// What the pass read, for plots: {"ports": [{"system", "guid", "port", "state", "counters": {NAME:
// value} or null}], "temperatures": [{"system", "guid", "celsius"}], "thresholds": {"counters":
// {NAME: limit or null}, "temperature_c", "port_state"}}.
[[nodiscard]] nlohmann::json health_readings_json(const HealthPass& p, const SystemNaming& naming,
                                                  const HealthThresholds& thresholds);

}  // namespace openflint::reports
