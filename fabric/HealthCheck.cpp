// HealthCheck: sampling a fabric pass and judging it against thresholds.
#include "fabric/HealthCheck.h"

#include <algorithm>
#include <chrono>

#include "fabric/NodeRegisters.h"

namespace openflint {
namespace {

// MTMP temperature: 16-bit two's complement in 0.125 degree C units (PRM, MTMP).
double mtmp_celsius(std::uint32_t raw) {
  const auto s = static_cast<std::int16_t>(static_cast<std::uint16_t>(raw));
  return s / 8.0;
}

void check_counters(const HealthSample& now, const HealthSample* previous, const HealthThresholds& t,
                    std::vector<HealthFinding>& out) {
  for (const auto& [where, values] : now.counters) {
    const PortCounterValues* before = nullptr;
    if (previous != nullptr) {
      const auto it = previous->counters.find(where);
      if (it != previous->counters.end()) before = &it->second;
    }
    for (const auto name : port_error_counter_names()) {
      const auto limit = t.counter_max.find(std::string(name));
      const auto v = values.find(std::string(name));
      if (limit == t.counter_max.end() || !limit->second || v == values.end()) continue;
      std::optional<std::uint64_t> delta;
      std::uint64_t judged = v->second;
      if (before != nullptr) {
        const auto b = before->find(std::string(name));
        const std::uint64_t was = b == before->end() ? 0 : b->second;
        judged = counter_increase(was, v->second);
        delta = judged;
      }
      if (judged <= *limit->second) continue;
      HealthFinding f;
      f.kind = HealthFinding::Kind::Counter;
      f.guid = where.first;
      f.port = where.second;
      f.metric = std::string(name);
      f.value = static_cast<double>(v->second);
      f.delta = delta;
      f.limit = static_cast<double>(*limit->second);
      out.push_back(f);
    }
  }
}

void check_utilisation(const HealthSample& now, const HealthSample* previous, const HealthThresholds& t,
                       std::vector<HealthFinding>& out) {
  if (previous == nullptr || !t.utilisation_max_pct) return;
  for (const auto& r : traffic_rates(now, *previous)) {
    if (!r.traffic.utilisation_pct || *r.traffic.utilisation_pct <= *t.utilisation_max_pct) continue;
    HealthFinding f;
    f.kind = HealthFinding::Kind::Utilisation;
    f.guid = r.guid;
    f.port = r.port;
    f.metric = "utilisation";
    f.value = *r.traffic.utilisation_pct;
    f.limit = *t.utilisation_max_pct;
    out.push_back(f);
  }
}

}  // namespace

std::vector<PortRate> traffic_rates(const HealthSample& now, const HealthSample& previous) {
  std::vector<PortRate> out;
  for (const auto& [where, values] : now.traffic) {
    const auto before = previous.traffic.find(where);
    if (before == previous.traffic.end()) continue;
    const auto link = now.link_bytes_per_s.find(where);
    const auto t = port_traffic(before->second, previous.taken_s, values, now.taken_s,
                                link == now.link_bytes_per_s.end() ? 0 : link->second);
    if (t) out.push_back(PortRate{where.first, where.second, *t});
  }
  return out;
}

std::vector<CounterDelta> counter_deltas(const HealthSample& now, const HealthSample& previous) {
  std::vector<CounterDelta> out;
  for (const auto& [where, values] : now.counters) {
    const auto before = previous.counters.find(where);
    if (before == previous.counters.end()) continue;
    for (const auto& [name, value] : values) {
      const auto b = before->second.find(name);
      const std::uint64_t increase = counter_increase(b == before->second.end() ? 0 : b->second, value);
      if (increase != 0) out.push_back(CounterDelta{where.first, where.second, name, value, increase});
    }
  }
  return out;
}

std::vector<HealthFinding> check_health(const HealthSample& now, const HealthSample* previous,
                                        const HealthThresholds& t) {
  std::vector<HealthFinding> out;
  if (t.port_state) {
    for (const auto& [where, state] : now.port_state) {
      if (state == "Active") continue;
      HealthFinding f;
      f.kind = HealthFinding::Kind::PortState;
      f.guid = where.first;
      f.port = where.second;
      f.metric = "port-state";
      f.state = state;
      out.push_back(f);
    }
  }
  check_counters(now, previous, t, out);
  check_utilisation(now, previous, t, out);
  if (t.temperature_max_c) {
    for (const auto& [guid, celsius] : now.temperature_c) {
      if (celsius <= *t.temperature_max_c) continue;
      HealthFinding f;
      f.kind = HealthFinding::Kind::Temperature;
      f.guid = guid;
      f.metric = "temperature";
      f.value = celsius;
      f.limit = *t.temperature_max_c;
      out.push_back(f);
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const HealthFinding& a, const HealthFinding& b) {
    return std::pair(a.guid, a.port) < std::pair(b.guid, b.port);
  });
  return out;
}

HealthSample sample_health(const FabricSweep& sweep, PerfMgtPort& perf, const std::shared_ptr<MadChannel>& channel,
                           bool read_temperature, const std::map<std::uint64_t, RemoteDeviceName>& remote) {
  HealthSample s;
  std::map<std::uint64_t, std::uint16_t> lid_of;
  for (const auto& n : sweep.nodes) lid_of[n.guid] = n.lid;
  for (const auto& link : sweep.links) {
    s.port_state[{link.guid_a, link.port_a}] = link.state;
    s.port_state[{link.guid_b, link.port_b}] = link.state;
    const double rate = link_data_bytes_per_s(link.width, link.speed);
    s.link_bytes_per_s[{link.guid_a, link.port_a}] = rate;
    s.link_bytes_per_s[{link.guid_b, link.port_b}] = rate;
  }
  s.taken_s = std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  for (const auto& [where, state] : s.port_state) {
    const std::uint16_t lid = lid_of[where.first];
    if (lid == 0) {
      s.counter_notes[where] = "no LID (run an SM)";
      continue;
    }
    auto counters = perf.query(lid, where.second);
    if (counters) s.counters[where] = std::move(*counters);
    else s.counter_notes[where] = counters.error().message();
    auto traffic = perf.query_traffic(lid, where.second);
    if (traffic) s.traffic[where] = std::move(*traffic);
    else s.traffic_notes[where] = traffic.error().message();
  }
  if (!read_temperature) return s;
  auto selector = RegisterSelector::parse("MTMP.temperature");
  if (!selector) return s;  // the catalog always has MTMP
  for (const auto& r : read_node_registers(sweep.nodes, channel, *selector, remote)) {
    s.temperature_path[r.node.guid] = r.path;
    if (r.values.empty()) s.temperature_notes[r.node.guid] = r.note;
    else s.temperature_c[r.node.guid] = mtmp_celsius(r.values.front().second);
  }
  return s;
}

}  // namespace openflint
