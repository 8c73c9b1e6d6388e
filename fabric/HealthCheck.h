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
#include "fabric/PortTraffic.h"
#include "mtcr/remote/RemoteDeviceName.h"
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
  std::map<std::uint64_t, std::string> temperature_path;   // node → "in-band" / "out-of-band HOST"
  std::map<NodePort, PortCounterValues> traffic;       // PortCountersExtended (port_traffic_counter_names)
  std::map<NodePort, std::string> traffic_notes;       // ports whose traffic counters were not read
  std::map<NodePort, double> link_bytes_per_s;         // the link's data rate (link_data_bytes_per_s; 0 unknown)
  double taken_s = 0;  // when the counters were read (steady clock, seconds): rates divide by the difference
};

// A port's traffic between two passes.
struct PortRate {
  std::uint64_t guid = 0;
  int port = 0;
  PortTraffic traffic;
};

struct HealthFinding {
  enum class Kind { PortState, Counter, Temperature, Utilisation };
  Kind kind = Kind::Counter;
  std::uint64_t guid = 0;
  int port = 0;            // 0 for a node's temperature
  std::string metric;      // counter name, "temperature", "port-state" or "utilisation"
  double value = 0;        // counter value, degrees C, percent; unused for port-state
  std::optional<std::uint64_t> delta;  // counters on a later pass: the increase since the last
  double limit = 0;
  std::string state;       // port-state: the state found
};

[[nodiscard]] constexpr const char* to_string(HealthFinding::Kind k) {
  switch (k) {
    case HealthFinding::Kind::PortState: return "port-state";
    case HealthFinding::Kind::Counter: return "counter";
    case HealthFinding::Kind::Temperature: return "temperature";
    case HealthFinding::Kind::Utilisation: return "utilisation";
  }
  return "?";
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

// Every port whose traffic counters both passes read: its rates from `previous` to `now`, in
// node/port order.
[[nodiscard]] std::vector<PortRate> traffic_rates(const HealthSample& now, const HealthSample& previous);

// The findings of `now` against `thresholds`, in node/port order. With `previous` (a watch's
// earlier pass), counters are judged by their increase since then (a counter that went down was
// cleared: its new value is the increase); without, by their value. Utilisation needs rates, so
// `previous`: a port whose busier direction used more than thresholds.utilisation_max_pct.
[[nodiscard]] std::vector<HealthFinding> check_health(const HealthSample& now, const HealthSample* previous,
                                                      const HealthThresholds& thresholds);

// Reads one pass: the state of every cabled port of `sweep`, PortCounters and
// PortCountersExtended of each (through `perf`), and MTMP sensor 0 of every node (an access
// register, in parallel: through the bus server for the nodes of `remote` (node GUID → the device
// a host serves, fabric/OutOfBandNodes.h), vendor MADs over `channel` for the rest).
[[nodiscard]] HealthSample sample_health(const FabricSweep& sweep, PerfMgtPort& perf,
                                         const std::shared_ptr<MadChannel>& channel, bool read_temperature = true,
                                         const std::map<std::uint64_t, RemoteDeviceName>& remote = {});

}  // namespace openflint
