// ibmon: fabric health against thresholds — port states, PerfMgt error counters (deltas with --watch), device temperature.
#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "cli/JsonOutput.h"
#include "cli/ParseCommandLine.h"
#include "cli/ToolBoundary.h"
#include "cli/Version.h"
#include "fabric/ConfigText.h"
#include "fabric/FabricDiscovery.h"
#include "fabric/HealthCheck.h"
#include "fabric/SystemNaming.h"
#include "fabric/options/SystemNameOptions.h"

namespace {

using namespace openflint;
using nlohmann::json;

volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

struct Args {
  std::string ca;
  int port = 0;
  std::string thresholds_file;
  std::vector<std::string> thresholds;
  SystemNamingFiles files;
  double watch = 0;
  int count = 0;
  bool no_temperature = false;
  bool json = false;
};

// The file first, then the command line's NAME=VALUE over it. A file that does not parse is a
// usage error like a bad --threshold, name map or hosts file (exit 2; the message names the line).
Result<HealthThresholds> load_thresholds(const Args& a) {
  HealthThresholds t = HealthThresholds::defaults();
  if (!a.thresholds_file.empty()) {
    OF_ASSIGN(auto text, read_config_text(a.thresholds_file, "threshold file"));
    auto parsed = HealthThresholds::parse(text, t);
    if (!parsed) return make_error(ErrorCode::InvalidArgument, "threshold file " + a.thresholds_file + ": " + parsed.error().message());
    t = std::move(*parsed);
  }
  for (const auto& s : a.thresholds) OF_TRY(t.set(s));
  return t;
}

struct Pass {
  int number = 0;
  FabricSweep sweep;
  HealthSample sample;
  std::vector<HealthFinding> findings;
  std::optional<std::vector<CounterDelta>> deltas;  // since the previous pass (none on the first)
};

std::string finding_text(const HealthFinding& f, const std::string& system) {
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
  }
  return buf;
}

class Names {
 public:
  Names(const SystemNaming& naming, const FabricSweep& sweep) {
    for (const auto& n : sweep.nodes) names_[n.guid] = naming.name_or_guid(n);
  }
  [[nodiscard]] std::string of(std::uint64_t guid) const {
    const auto it = names_.find(guid);
    return it == names_.end() ? guid_text(guid) : it->second;
  }

 private:
  std::map<std::uint64_t, std::string> names_;
};

// Counters and their limits are whole numbers; temperatures are degrees C (eighths).
json limit_json(const HealthFinding& f) {
  if (f.kind == HealthFinding::Kind::PortState) return nullptr;
  if (f.kind == HealthFinding::Kind::Counter) return static_cast<std::uint64_t>(f.limit);
  return f.limit;
}

json pass_json(const Pass& p, const Names& names) {
  json findings = json::array();
  for (const auto& f : p.findings) {
    json j{{"kind", to_string(f.kind)}, {"system", names.of(f.guid)}, {"guid", guid_text(f.guid)},
           {"port", f.port == 0 ? json(nullptr) : json(f.port)}, {"metric", f.metric},
           {"limit", limit_json(f)},
           {"text", finding_text(f, names.of(f.guid))}};
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
  json deltas = nullptr;
  if (p.deltas) {
    deltas = json::array();
    for (const auto& d : *p.deltas)
      deltas.push_back({{"system", names.of(d.guid)}, {"guid", guid_text(d.guid)}, {"port", d.port},
                        {"counter", d.counter}, {"value", d.value}, {"delta", d.delta}});
  }
  return json{{"pass", p.number},
              {"nodes", p.sweep.nodes.size()},
              {"ports", p.sample.port_state.size()},
              {"counters_read", p.sample.counters.size()},
              {"temperatures_read", p.sample.temperature_c.size()},
              {"healthy", p.findings.empty()},
              {"findings", findings},
              {"deltas", deltas},
              {"unread", unread}};
}

void print_pass(const Pass& p, const Names& names) {
  std::cout << "pass " << p.number << ": " << p.sweep.nodes.size() << " nodes, " << p.sample.port_state.size()
            << " cabled ports (" << p.sample.counters.size() << " counters read), " << p.sample.temperature_c.size()
            << " temperatures read: " << (p.findings.empty() ? "healthy" : std::to_string(p.findings.size()) + " finding(s)")
            << '\n';
  for (const auto& f : p.findings) std::cout << "  " << finding_text(f, names.of(f.guid)) << '\n';
  std::cout.flush();
}

// Sleeps `seconds` in small steps so SIGINT/SIGTERM ends a watch at once.
void pause_for(double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!g_stop && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

int run(const Args& a) {
  const auto fail = [&](const Error& e) { return openflint::cli::report_error(e, a.json); };
  if (a.watch < 0 || a.count < 0) return fail(Error(ErrorCode::InvalidArgument, "--watch and --count must not be negative"));
  if (a.count > 0 && a.watch == 0 && a.count != 1)
    return fail(Error(ErrorCode::InvalidArgument, "--count needs --watch SECONDS"));
  auto thresholds = load_thresholds(a);
  if (!thresholds) return fail(thresholds.error());
  auto naming = SystemNaming::load(a.files);
  if (!naming) return fail(naming.error());
  auto perf = PerfMgtPort::open(a.ca, a.port);
  if (!perf) return fail(perf.error());
  std::shared_ptr<MadChannel> channel;
  if (!a.no_temperature) {
    auto opened = MadChannel::open(a.ca, a.port);
    if (!opened) return fail(opened.error());
    channel = *opened;
  }
  const int passes = a.watch > 0 ? a.count : 1;  // 0: until a signal
  const bool json_lines = a.json && a.watch > 0;
  std::optional<Pass> previous;
  json passes_json = json::array();
  bool crossed = false;
  for (int n = 1; (passes == 0 || n <= passes) && !g_stop; ++n) {
    if (n > 1) pause_for(a.watch);
    if (g_stop) break;
    Pass p;
    p.number = n;
    auto sweep = discover_fabric_links(a.ca, a.port);
    if (!sweep) return fail(sweep.error());
    p.sweep = std::move(*sweep);
    p.sample = sample_health(p.sweep, *perf, channel, !a.no_temperature);
    p.findings = check_health(p.sample, previous ? &previous->sample : nullptr, *thresholds);
    if (previous) p.deltas = counter_deltas(p.sample, previous->sample);
    crossed = crossed || !p.findings.empty();
    const Names names(*naming, p.sweep);
    if (json_lines) {  // one document per pass, on one line, as it ends
      json doc = pass_json(p, names);
      doc["ok"] = true;
      cli::print_json(doc, -1);
      std::cout.flush();
    } else if (a.json) {
      passes_json.push_back(pass_json(p, names));
    } else {
      print_pass(p, names);
    }
    previous = std::move(p);
  }
  if (a.json && !json_lines) cli::print_json(json{{"ok", true}, {"healthy", !crossed}, {"passes", passes_json}});
  return crossed ? openflint::cli::kFailed : openflint::cli::kOk;
}

int tool_main(int argc, char** argv) {
  CLI::App app{"ibmon: fabric health — port states, error counters (PerfMgt) and device temperature against thresholds"};
  Args a;
  fabriccli::add_local_port_options(app, a.ca, a.port);
  app.add_option("-T,--thresholds", a.thresholds_file, "threshold file: 'NAME VALUE' per line");
  app.add_option("--threshold", a.thresholds, "NAME=VALUE over the file's (repeatable; VALUE a number or off)")
      ->allow_extra_args(false);
  fabriccli::add_system_name_options(app, a.files, {.topology = false});
  app.add_option("--watch", a.watch, "repeat every SECONDS; later passes judge counter increases");
  app.add_option("--count", a.count, "with --watch: stop after N passes (default: until SIGINT/SIGTERM)");
  app.add_flag("--no-temperature", a.no_temperature, "do not read the devices' temperature (vendor MADs)");
  app.add_flag("--json", a.json, "JSON output: one document; with --watch one line per pass (JSON lines, with counter deltas)");
  app.set_version_flag("--version", openflint::cli::version_line("ibmon"), "print the version and exit");
  if (auto done = openflint::cli::parse_command_line(app, argc, argv)) return *done;
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
  return run(a);
}

}  // namespace

int main(int argc, char** argv) {
  return openflint::cli::run_at_tool_boundary("ibmon", [&] { return tool_main(argc, argv); });
}
