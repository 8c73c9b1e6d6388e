// ibls: the fabric's systems, devices, cables and firmware by their administrators' names (out-of-band through --hosts first, else in-band); -e checks the cabling against the topology file.
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
#include "fabric/HostsFile.h"
#include "fabric/NodeFirmware.h"
#include "fabric/OutOfBandNodes.h"
#include "fabric/SystemNaming.h"
#include "fabric/options/SystemNameOptions.h"
#include "reports/FabricListing.h"

namespace {

using namespace openflint;

struct Args {
  std::vector<std::string> keys;
  std::string guid;
  std::string name;
  std::string device;
  std::string ca;
  int port = 0;
  SystemNamingFiles files;
  std::string hosts_file;
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

// The firmware facts of every node: out-of-band from the flash of the device a host serves, the
// rest in-band (MGIR; nodes without vendor access have none).
std::map<std::uint64_t, reports::ListedFirmware> firmware_facts(const Args& a, const OutOfBandNodes& oob,
                                                                const std::vector<FabricNode>& nodes) {
  std::map<std::uint64_t, reports::ListedFirmware> fw;
  std::vector<FabricNode> in_band;
  for (const auto& n : nodes) {
    const auto it = oob.by_guid.find(n.guid);
    if (it == oob.by_guid.end()) {
      in_band.push_back(n);
      continue;
    }
    const RemoteDeviceStatus& d = it->second;
    fw[n.guid] = reports::ListedFirmware{.version = d.flash && d.flash->fw_version ? d.flash->fw_version->to_string() : "",
                                         .psid = d.flash ? d.flash->psid : "",
                                         .path = "out-of-band " + to_string(d.remote.server)};
  }
  auto channel = MadChannel::open(a.ca, a.port);
  if (!channel) return fw;  // the listing stands without it
  for (const auto& n : take_inventory(in_band, *channel, FlashQuery::Skip)) {
    if (!n.vendor_access) continue;
    fw[n.node.guid] = reports::ListedFirmware{.version = n.fw_version ? n.fw_version->to_string() : "",
                                              .psid = n.psid, .path = n.path()};
  }
  return fw;
}

int run(const Args& a) {
  const auto fail = [&](const Error& e) { return openflint::cli::report_error(e, a.json); };
  if (a.check && a.files.topology.empty())
    return fail(Error(ErrorCode::InvalidArgument, "-e needs the topology file (-t FILE)"));
  auto sections = reports::parse_listing_keys(a.keys);
  if (!sections) return fail(sections.error());
  if (a.no_fw && sections->firmware) return fail(Error(ErrorCode::InvalidArgument, "the firmware key needs the firmware: drop --no-fw"));
  auto naming = SystemNaming::load(a.files);
  if (!naming) return fail(naming.error());
  auto guid = parse_guid(a.guid);
  if (!guid) return fail(guid.error());
  // The hosts file is read before anything touches the fabric; with --no-fw nothing is asked of them.
  if (a.no_fw && !a.hosts_file.empty()) {
    auto hosts = read_hosts_file(a.hosts_file);
    if (!hosts) return fail(hosts.error());
  }
  auto oob = a.no_fw ? Result<OutOfBandNodes>(OutOfBandNodes{}) : reach_hosts(a.hosts_file);
  if (!oob) return fail(oob.error());
  for (const auto& w : oob->warnings()) std::cerr << "-W- " << w << '\n';
  auto sweep = discover_fabric_links(a.ca, a.port);
  if (!sweep) return fail(sweep.error());
  const auto fw = a.no_fw ? std::map<std::uint64_t, reports::ListedFirmware>{} : firmware_facts(a, *oob, sweep->nodes);
  auto listing = reports::make_fabric_listing(*naming, *sweep, fw,
                                              {.guid = *guid, .name = a.name, .device = a.device, .check = a.check});
  if (!listing && !a.device.empty() && listing.error().code() == ErrorCode::NotFound)  // -i was the local CA
    return fail(Error(ErrorCode::NotFound, "no node on the fabric is a " + a.device +
                                               " (-i names a device; the local CA is -C,--ca)"));
  if (!listing) return fail(listing.error());
  if (a.json) {
    openflint::cli::print_json(reports::listing_json(*listing, *sections));
  } else {
    reports::print_listing(std::cout, *listing, *sections);
  }
  // A check that found problems: exit 1 (the command ran and the answer is "no").
  return listing->findings && !listing->findings->empty() ? openflint::cli::kFailed : openflint::cli::kOk;
}

int tool_main(int argc, char** argv) {
  CLI::App app{"ibls: the fabric's systems (by topology/names, else NodeDescription), devices, cables and firmware; "
               "nodes a --hosts bus server serves are read through it, the rest in-band"};
  Args a;
  app.add_option("keys", a.keys,
                 "what to print (one or more, also comma-separated): systems (names, types), devices (node type, "
                 "GUID, LID, device), cables, firmware (PSID, version, path); default: systems with devices and "
                 "firmware, and cables");
  app.add_option("-g,--guid", a.guid, "only the node with this GUID (and its cables)");
  app.add_option("-n,--name", a.name, "only the system with this name (and its cables)");
  app.add_option("-i,--device", a.device,
                 "only nodes of this device (and their cables): its name (ConnectX-4), part number (MT27700) or "
                 "device id (MT4115 or 4115), case-insensitive");
  fabriccli::add_local_port_options(app, a.ca, a.port);
  fabriccli::add_system_name_options(app, a.files);
  fabriccli::add_hosts_option(app, a.hosts_file);
  app.add_flag("-e,--check", a.check, "compare the cabling with the topology file: exit 1 when anything differs");
  app.add_flag("--no-fw", a.no_fw, "do not ask the nodes' firmware (vendor MADs, bus servers' flash)");
  app.add_flag("--json", a.json, "JSON output (keys choose its sections)");
  app.set_version_flag("--version", openflint::cli::version_line("ibls"), "print the version and exit");
  if (auto done = openflint::cli::parse_command_line(app, argc, argv)) return *done;
  return run(a);
}

}  // namespace

int main(int argc, char** argv) {
  return openflint::cli::run_at_tool_boundary("ibls", [&] { return tool_main(argc, argv); });
}
