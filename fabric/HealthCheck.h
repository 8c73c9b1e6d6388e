// HealthCheck: one health pass over the fabric (port states, PerfMgt error counters, device temperature) and its findings.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/Result.h"
#include "fabric/FabricDiscovery.h"
#include "fabric/HealthThresholds.h"
#include "fabric/PortCounters.h"
#include "mtcr/inband/MadChannel.h"

namespace openflint {

using NodePort = std::pair<std::uint64_t, int>;  // node GUID, port number

// What one pass read. Nodes or ports that could not be read are listed with why (not findings:
// a node without vendor access has no temperature to judge).
struct HealthSample {
  std::map<NodePort, std::string> port_state;          // every cabled port: logical state
  std::map<NodePort, PortCounterValues> counters;      // every cabled port that answered PerfMgt
  std::map<std::uint64_t, double> temperature_c;       // nodes that answered MTMP sensor 0
  std::map<NodePort, std::string> counter_notes;       // ports whose counters were not read
  std::map<std::uint64_t, std::string> temperature_notes;  // nodes whose temperature was not read
};

struct HealthFinding {
  enum class Kind { PortState, Counter, Temperature };
  Kind kind = Kind::Counter;
  std::uint64_t guid = 0;
  int port = 0;            // 0 for a node's temperature
  std::string metric;      // counter name, "temperature" or "port-state"
  double value = 0;        // counter value, degrees C; unused for port-state
  std::optional<std::uint64_t> delta;  // counters on a later pass: the increase since the last
  double limit = 0;
  std::string state;       // port-state: the state found
};

[[nodiscard]] constexpr const char* to_string(HealthFinding::Kind k) {
  return k == HealthFinding::Kind::PortState ? "port-state" : (k == HealthFinding::Kind::Counter ? "counter" : "temperature");
}

// A counter that rose between two passes.
struct CounterDelta {
  std::uint64_t guid = 0;
  int port = 0;
  std::string counter;     // PortCounters name
  std::uint64_t value = 0; // now
  std::uint64_t delta = 0; // the increase since the earlier pass
};

// How much a counter rose from `was` to `now`; a counter that went down was cleared, so its new
// value is the increase.
[[nodiscard]] constexpr std::uint64_t counter_increase(std::uint64_t was, std::uint64_t now) {
  return now >= was ? now - was : now;
}

// Every counter of `now` that rose since `previous` (counter_increase > 0), in node/port order;
// ports `previous` did not read have no baseline and are left out.
[[nodiscard]] std::vector<CounterDelta> counter_deltas(const HealthSample& now, const HealthSample& previous);

// The findings of `now` against `thresholds`, in node/port order. With `previous` (a watch's
// earlier pass), counters are judged by their increase since then (a counter that went down was
// cleared: its new value is the increase); without, by their value.
[[nodiscard]] std::vector<HealthFinding> check_health(const HealthSample& now, const HealthSample* previous,
                                                      const HealthThresholds& thresholds);

// Reads one pass: the state of every cabled port of `sweep`, PortCounters of each (through
// `perf`), and MTMP sensor 0 of every node (vendor register over `channel`, in parallel).
[[nodiscard]] HealthSample sample_health(const FabricSweep& sweep, PerfMgtPort& perf,
                                         const std::shared_ptr<MadChannel>& channel, bool read_temperature = true);

}  // namespace openflint
