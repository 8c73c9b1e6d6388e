// ibls: the fabric's systems, devices and cables by their administrators' names; -e checks the cabling against the topology file.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <iostream>
#include <set>
#include <string>

#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "cli/ParseCommandLine.h"
#include "cli/JsonOutput.h"
#include "cli/ToolBoundary.h"
#include "cli/Version.h"
#include "fabric/FabricDiscovery.h"
#include "fabric/NodeFirmware.h"
#include "fabric/SystemNaming.h"
#include "fabric/options/SystemNameOptions.h"
#include "reports/FabricListing.h"

namespace {

using namespace openflint;

struct Args {
  std::string guid;
  std::string name;
  std::string ca;
  int port = 0;
  SystemNamingFiles files;
  bool check = false;
  bool json = false;
  bool no_fw = false;
};

Result<std::optional<std::uint64_t>> parse_guid(std::string_view text) {
  if (text.empty()) return std::optional<std::uint64_t>{};
  if (text.starts_with("0x") || text.starts_with("0X")) text.remove_prefix(2);
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v, 16);
  if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size())
    return make_error(ErrorCode::InvalidArgument, "bad GUID " + std::string(text));
  return std::optional<std::uint64_t>{v};
}

int run(const Args& a) {
  const auto fail = [&](const Error& e) { return openflint::cli::report_error(e, a.json); };
  if (a.check && a.files.topology.empty())
    return fail(Error(ErrorCode::InvalidArgument, "-e needs the topology file (-t FILE)"));
  auto naming = SystemNaming::load(a.files);
  if (!naming) return fail(naming.error());
  auto sweep = discover_fabric_links(a.ca, a.port);
  if (!sweep) return fail(sweep.error());
  auto guid = parse_guid(a.guid);
  if (!guid) return fail(guid.error());
  const auto fw = a.no_fw ? std::map<std::uint64_t, std::string>{} : running_fw_versions(a.ca, a.port, sweep->nodes);
  auto listing = reports::make_fabric_listing(*naming, *sweep, fw, {.guid = *guid, .name = a.name, .check = a.check});
  if (!listing) return fail(listing.error());
  if (a.json) {
    openflint::cli::print_json(reports::listing_json(*listing));
  } else {
    reports::print_listing(std::cout, *listing);
  }
  // A check that found problems: exit 1 (the command ran and the answer is "no").
  return listing->findings && !listing->findings->empty() ? openflint::cli::kFailed : openflint::cli::kOk;
}

int tool_main(int argc, char** argv) {
  CLI::App app{"ibls: the fabric's systems (by topology/hosts names, else NodeDescription), devices and cables"};
  Args a;
  app.add_option("-g,--guid", a.guid, "only the node with this GUID (and its cables)");
  app.add_option("-n,--name", a.name, "only the system with this name (and its cables)");
  fabriccli::add_local_port_options(app, a.ca, a.port);
  fabriccli::add_system_name_options(app, a.files);
  app.add_flag("-e,--check", a.check, "compare the cabling with the topology file: exit 1 when anything differs");
  app.add_flag("--no-fw", a.no_fw, "do not ask the nodes' running firmware (vendor MADs)");
  app.add_flag("--json", a.json, "JSON output");
  app.set_version_flag("--version", openflint::cli::version_line("ibls"), "print the version and exit");
  if (auto done = openflint::cli::parse_command_line(app, argc, argv)) return *done;
  return run(a);
}

}  // namespace

int main(int argc, char** argv) {
  return openflint::cli::run_at_tool_boundary("ibls", [&] { return tool_main(argc, argv); });
}
