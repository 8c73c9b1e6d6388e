// ibmon: fabric health against thresholds — port states, PerfMgt error counters (deltas with --watch), traffic and utilisation (with --watch), device temperature (out-of-band through --hosts first).
#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "cli/JsonOutput.h"
#include "cli/ParseCommandLine.h"
#include "cli/ToolBoundary.h"
#include "cli/Version.h"
#include "fabric/FabricDiscovery.h"
#include "fabric/HealthCheck.h"
#include "fabric/OutOfBandNodes.h"
#include "fabric/SystemNaming.h"
#include "fabric/options/SystemNameOptions.h"
#include "reports/FabricHealthReport.h"

namespace {

using namespace openflint;
using nlohmann::json;

volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

struct Args {
  std::string ca;
  std::string ca_old;  // -i CA: the old spelling of -C,--ca
  int port = 0;
  std::string thresholds_file;
  std::vector<std::string> thresholds;
  std::optional<std::string> util_warn;
  SystemNamingFiles files;
  std::string hosts_file;
  double watch = 0;
  int count = 0;
  bool no_temperature = false;
  bool traffic = false;
  bool json = false;
};

// Sleeps `seconds` in small steps so SIGINT/SIGTERM ends a watch at once.
void pause_for(double seconds) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!g_stop && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

int run(Args a) {
  const auto fail = [&](const Error& e) { return openflint::cli::report_error(e, a.json); };
  if (!a.ca_old.empty()) {
    std::cerr << "-W- -i CA is deprecated: the local CA is -C,--ca\n";
    if (a.ca.empty()) a.ca = a.ca_old;
  }
  if (a.util_warn) a.thresholds.push_back("utilisation=" + *a.util_warn);
  if (a.watch < 0 || a.count < 0) return fail(Error(ErrorCode::InvalidArgument, "--watch and --count must not be negative"));
  if (a.count > 0 && a.watch == 0 && a.count != 1)
    return fail(Error(ErrorCode::InvalidArgument, "--count needs --watch SECONDS"));
  auto thresholds = HealthThresholds::load(a.thresholds_file, a.thresholds);
  if (!thresholds) return fail(thresholds.error());
  auto naming = SystemNaming::load(a.files);
  if (!naming) return fail(naming.error());
  auto oob = reach_hosts(a.hosts_file);  // read before anything touches the fabric
  if (!oob) return fail(oob.error());
  for (const auto& w : oob->warnings()) std::cerr << "-W- " << w << '\n';
  const auto remote = oob->names();
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
  std::optional<reports::HealthPass> previous;
  json passes_json = json::array();
  bool crossed = false;
  for (int n = 1; (passes == 0 || n <= passes) && !g_stop; ++n) {
    if (n > 1) pause_for(a.watch);
    if (g_stop) break;
    auto sweep = discover_fabric_links(a.ca, a.port);
    if (!sweep) return fail(sweep.error());
    auto sample = sample_health(*sweep, *perf, channel, !a.no_temperature, remote);
    reports::HealthPass p = reports::make_health_pass(n, std::move(*sweep), std::move(sample),
                                                      previous ? &*previous : nullptr, *thresholds);
    crossed = crossed || !p.findings.empty();
    if (json_lines) {  // one document per pass, on one line, as it ends
      json doc = reports::health_pass_json(p, *naming);
      doc["ok"] = true;
      cli::print_json(doc, -1);
      std::cout.flush();
    } else if (a.json) {
      passes_json.push_back(reports::health_pass_json(p, *naming));
    } else {
      reports::print_health_pass(std::cout, p, *naming, a.traffic);
    }
    previous = std::move(p);
  }
  if (a.json && !json_lines) cli::print_json(json{{"ok", true}, {"healthy", !crossed}, {"passes", passes_json}});
  return crossed ? openflint::cli::kFailed : openflint::cli::kOk;
}

int tool_main(int argc, char** argv) {
  CLI::App app{"ibmon: fabric health — port states, error counters, traffic (PerfMgt) and device temperature against "
               "thresholds; temperatures of the nodes a --hosts bus server serves are read through it"};
  Args a;
  fabriccli::add_local_port_options(app, a.ca, a.port);
  app.add_option("-i", a.ca_old, "deprecated spelling of -C,--ca")->group("");
  app.add_option("-T,--thresholds", a.thresholds_file, "threshold file: 'NAME VALUE' per line");
  app.add_option("--threshold", a.thresholds, "NAME=VALUE over the file's (repeatable; VALUE a number or off)")
      ->allow_extra_args(false);
  app.add_option("--util-warn", a.util_warn,
                 "a finding for a port whose busier direction carries more than PCT percent of its link's data rate "
                 "between two passes (--watch); the same as --threshold utilisation=PCT");
  fabriccli::add_system_name_options(app, a.files, {.topology = false});
  fabriccli::add_hosts_option(app, a.hosts_file);
  app.add_option("--watch", a.watch, "repeat every SECONDS; later passes judge counter increases and traffic rates");
  app.add_option("--count", a.count, "with --watch: stop after N passes (default: until SIGINT/SIGTERM)");
  app.add_flag("--traffic", a.traffic,
               "text: one traffic line per port from the second pass on (default: the busiest port; JSON has all)");
  app.add_flag("--no-temperature", a.no_temperature, "do not read the devices' temperature (vendor MADs)");
  app.add_flag("--json", a.json,
               "JSON output: one document; with --watch one line per pass (JSON lines, with counter deltas and traffic)");
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
