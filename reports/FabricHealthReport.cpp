// FabricHealthReport: a health pass judged, and its text and JSON (ibmon's, and the web console's).
#include "reports/FabricHealthReport.h"

#include <algorithm>
#include <cstdio>

namespace openflint::reports {
namespace {

using nlohmann::json;

// The system names of a pass's nodes (the name map, else the NodeDescription, else the GUID).
class PassNames {
 public:
  PassNames(const SystemNaming& naming, const FabricSweep& sweep) {
    for (const auto& n : sweep.nodes) names_[n.guid] = naming.name_or_guid(n);
  }
  [[nodiscard]] std::string of(std::uint64_t guid) const {
    const auto it = names_.find(guid);
    return it == names_.end() ? openflint::guid_text(guid) : it->second;
  }

 private:
  std::map<std::uint64_t, std::string> names_;
};

// Counters and their limits are whole numbers; temperatures are degrees C (eighths).
json health_limit_json(const HealthFinding& f) {
  if (f.kind == HealthFinding::Kind::PortState) return nullptr;
  if (f.kind == HealthFinding::Kind::Counter) return static_cast<std::uint64_t>(f.limit);
  return f.limit;
}

// 1234567 -> "1.2 MB" (decimal units, as link rates are quoted).
std::string format_bytes(double bytes) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  int u = 0;
  while (bytes >= 1000 && u < 4) {
    bytes /= 1000;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
  return buf;
}

std::string format_percent(double pct) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f%%", pct);
  return buf;
}

// "leaf-1 port 3: xmit 913.0 MB/s 2000 pkt/s, rcv 1.2 kB/s 30 pkt/s, utilisation 91.3%"
std::string traffic_text(const PortRate& r, const PassNames& names) {
  char line[200];
  const std::string util = r.traffic.utilisation_pct ? format_percent(*r.traffic.utilisation_pct) : "-";
  std::snprintf(line, sizeof line, "%s port %d: xmit %s/s %.0f pkt/s, rcv %s/s %.0f pkt/s, utilisation %s",
                names.of(r.guid).c_str(), r.port, format_bytes(r.traffic.xmit_bytes_per_s).c_str(),
                r.traffic.xmit_pkts_per_s, format_bytes(r.traffic.rcv_bytes_per_s).c_str(), r.traffic.rcv_pkts_per_s,
                util.c_str());
  return line;
}

}  // namespace

HealthPass make_health_pass(int number, FabricSweep sweep, HealthSample sample, const HealthPass* previous,
                            const HealthThresholds& thresholds) {
  HealthPass p;
  p.number = number;
  p.sweep = std::move(sweep);
  p.sample = std::move(sample);
  p.findings = check_health(p.sample, previous ? &previous->sample : nullptr, thresholds);
  if (previous) {
    p.deltas = counter_deltas(p.sample, previous->sample);
    p.rates = traffic_rates(p.sample, previous->sample);
  }
  return p;
}

std::string health_finding_text(const HealthFinding& f, const std::string& system) {
  char buf[160];
  switch (f.kind) {
    case HealthFinding::Kind::PortState:
      std::snprintf(buf, sizeof buf, "%s port %d: state %s (not Active)", system.c_str(), f.port, f.state.c_str());
      break;
    case HealthFinding::Kind::Counter:
      if (f.delta)
        std::snprintf(buf, sizeof buf, "%s port %d: %s +%llu since the last pass (now %.0f) > %.0f", system.c_str(),
                      f.port, f.metric.c_str(), static_cast<unsigned long long>(*f.delta), f.value, f.limit);
      else
        std::snprintf(buf, sizeof buf, "%s port %d: %s %.0f > %.0f", system.c_str(), f.port, f.metric.c_str(), f.value,
                      f.limit);
      break;
    case HealthFinding::Kind::Temperature:
      std::snprintf(buf, sizeof buf, "%s: temperature %.1f C > %.0f C", system.c_str(), f.value, f.limit);
      break;
    case HealthFinding::Kind::Utilisation:
      std::snprintf(buf, sizeof buf, "%s port %d: utilisation %.1f%% > %.0f%%", system.c_str(), f.port, f.value,
                    f.limit);
      break;
  }
  return buf;
}

json health_pass_json(const HealthPass& p, const SystemNaming& naming) {
  const PassNames names(naming, p.sweep);
  json findings = json::array();
  for (const auto& f : p.findings) {
    json j{{"kind", to_string(f.kind)}, {"system", names.of(f.guid)}, {"guid", openflint::guid_text(f.guid)},
           {"port", f.port == 0 ? json(nullptr) : json(f.port)}, {"metric", f.metric},
           {"limit", health_limit_json(f)},
           {"text", health_finding_text(f, names.of(f.guid))}};
    if (f.kind == HealthFinding::Kind::PortState) j["state"] = f.state;
    else if (f.kind == HealthFinding::Kind::Counter) j["value"] = static_cast<std::uint64_t>(f.value);
    else j["value"] = f.value;
    if (f.kind == HealthFinding::Kind::Counter) j["delta"] = f.delta ? json(*f.delta) : json(nullptr);
    findings.push_back(std::move(j));
  }
  json unread = json::array();
  for (const auto& [where, why] : p.sample.counter_notes)
    unread.push_back({{"system", names.of(where.first)}, {"port", where.second}, {"what", "counters"}, {"why", why}});
  for (const auto& [guid, why] : p.sample.temperature_notes)
    unread.push_back({{"system", names.of(guid)}, {"port", nullptr}, {"what", "temperature"}, {"why", why}});
  for (const auto& [where, why] : p.sample.traffic_notes)
    unread.push_back({{"system", names.of(where.first)}, {"port", where.second}, {"what", "traffic"}, {"why", why}});
  json traffic = nullptr;
  if (p.rates) {
    traffic = json::array();
    for (const auto& r : *p.rates) {
      const auto link = p.sample.link_bytes_per_s.find({r.guid, r.port});
      const double link_rate = link == p.sample.link_bytes_per_s.end() ? 0 : link->second;
      traffic.push_back({{"system", names.of(r.guid)}, {"guid", openflint::guid_text(r.guid)}, {"port", r.port},
                         {"xmit_bytes_per_s", r.traffic.xmit_bytes_per_s}, {"rcv_bytes_per_s", r.traffic.rcv_bytes_per_s},
                         {"xmit_pkts_per_s", r.traffic.xmit_pkts_per_s}, {"rcv_pkts_per_s", r.traffic.rcv_pkts_per_s},
                         {"link_bytes_per_s", link_rate > 0 ? json(link_rate) : json(nullptr)},
                         {"utilisation_pct", r.traffic.utilisation_pct ? json(*r.traffic.utilisation_pct) : json(nullptr)},
                         {"counters", p.sample.traffic.at({r.guid, r.port})}});
    }
  }
  json temperatures = json::array();
  for (const auto& [guid, celsius] : p.sample.temperature_c) {
    const auto path = p.sample.temperature_path.find(guid);
    temperatures.push_back({{"system", names.of(guid)}, {"guid", openflint::guid_text(guid)}, {"celsius", celsius},
                            {"path", path == p.sample.temperature_path.end() ? "in-band" : path->second}});
  }
  json deltas = nullptr;
  if (p.deltas) {
    deltas = json::array();
    for (const auto& d : *p.deltas)
      deltas.push_back({{"system", names.of(d.guid)}, {"guid", openflint::guid_text(d.guid)}, {"port", d.port},
                        {"counter", d.counter}, {"value", d.value}, {"delta", d.delta}});
  }
  return json{{"pass", p.number},
              {"nodes", p.sweep.nodes.size()},
              {"ports", p.sample.port_state.size()},
              {"counters_read", p.sample.counters.size()},
              {"traffic_read", p.sample.traffic.size()},
              {"temperatures_read", p.sample.temperature_c.size()},
              {"healthy", p.findings.empty()},
              {"findings", findings},
              {"deltas", deltas},
              {"traffic", traffic},
              {"temperatures", temperatures},
              {"unread", unread}};
}

void print_health_pass(std::ostream& out, const HealthPass& p, const SystemNaming& naming, bool every_port) {
  const PassNames names(naming, p.sweep);
  out << "pass " << p.number << ": " << p.sweep.nodes.size() << " nodes, " << p.sample.port_state.size()
      << " cabled ports (" << p.sample.counters.size() << " counters read), " << p.sample.temperature_c.size()
      << " temperatures read: " << (p.findings.empty() ? "healthy" : std::to_string(p.findings.size()) + " finding(s)")
      << '\n';
  for (const auto& f : p.findings) out << "  " << health_finding_text(f, names.of(f.guid)) << '\n';
  if (!p.rates || p.rates->empty()) {
    out.flush();
    return;
  }
  const PortRate* busiest = &p.rates->front();
  for (const auto& r : *p.rates) {
    const double bytes = std::max(r.traffic.xmit_bytes_per_s, r.traffic.rcv_bytes_per_s);
    if (bytes > std::max(busiest->traffic.xmit_bytes_per_s, busiest->traffic.rcv_bytes_per_s)) busiest = &r;
    if (every_port) out << "  traffic " << traffic_text(r, names) << '\n';
  }
  if (!every_port) out << "  traffic: " << p.rates->size() << " ports, busiest " << traffic_text(*busiest, names) << '\n';
  out.flush();
}

json health_readings_json(const HealthPass& p, const SystemNaming& naming, const HealthThresholds& thresholds) {
  const PassNames names(naming, p.sweep);
  json ports = json::array();
  for (const auto& [where, state] : p.sample.port_state) {
    const auto counters = p.sample.counters.find(where);
    ports.push_back({{"system", names.of(where.first)}, {"guid", openflint::guid_text(where.first)}, {"port", where.second},
                     {"state", state}, {"counters", counters == p.sample.counters.end() ? json(nullptr) : json(counters->second)}});
  }
  json temperatures = json::array();
  for (const auto& [guid, celsius] : p.sample.temperature_c)
    temperatures.push_back({{"system", names.of(guid)}, {"guid", openflint::guid_text(guid)}, {"celsius", celsius}});
  json limits = json::object();
  for (const auto& [name, limit] : thresholds.counter_max) limits[name] = limit ? json(*limit) : json(nullptr);
  return json{{"ports", ports},
              {"temperatures", temperatures},
              {"thresholds", {{"counters", limits},
                              {"temperature_c", thresholds.temperature_max_c ? json(*thresholds.temperature_max_c) : json(nullptr)},
                              {"port_state", thresholds.port_state}}}};
}

}  // namespace openflint::reports
