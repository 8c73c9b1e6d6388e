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
#include "devices/DeviceCatalog.h"
#include "fabric/CablingCheck.h"
#include "fabric/FabricDiscovery.h"
#include "fabric/NodeFirmware.h"
#include "fabric/SystemNaming.h"
#include "fabric/options/SystemNameOptions.h"
#include "fabric/ibls/Listing.h"

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

// The running FW of every node that answers vendor MADs (MGIR; flash left alone).
std::map<std::uint64_t, std::string> firmware_versions(const Args& a, const std::vector<FabricNode>& nodes) {
  std::map<std::uint64_t, std::string> fw;
  auto channel = MadChannel::open(a.ca, a.port);
  if (!channel) return fw;  // the listing stands without it
  for (const auto& n : take_inventory(nodes, *channel, FlashQuery::Skip)) {
    if (n.vendor_access && n.fw_version) fw[n.node.guid] = n.fw_version->to_string();
  }
  return fw;
}

Result<ibls::Listing> make_listing(const Args& a, const SystemNaming& naming, const FabricSweep& sweep) {
  const Topology* topo = naming.topology();
  const SystemNameMap& names = naming.map();
  OF_ASSIGN(const auto guid, parse_guid(a.guid));
  const auto fw = a.no_fw ? std::map<std::uint64_t, std::string>{} : firmware_versions(a, sweep.nodes);
  ibls::Listing l;
  std::map<std::uint64_t, std::string> name_of;
  std::set<std::string> selected;  // names of the systems the filters keep
  for (const auto& node : sweep.nodes) {
    ibls::ListedSystem s;
    s.node = node;
    s.name = naming.name_or_guid(node);
    auto info = find_device_by_pci_id(node.device_id);
    if (info) {
      s.device = std::string((*info)->name);
      s.type = std::string((*info)->part_number);
    }
    if (auto declared = naming.declared_type(node); !declared.empty()) s.type = declared;
    if (const auto it = fw.find(node.guid); it != fw.end()) s.fw = it->second;
    name_of[node.guid] = s.name;
    if ((!guid || node.guid == *guid) && (a.name.empty() || s.name == a.name)) {
      selected.insert(s.name);
      l.systems.push_back(std::move(s));
    }
  }
  if (l.systems.empty()) return make_error(ErrorCode::NotFound, "no system on the fabric matches the filter");
  const bool filtered = guid || !a.name.empty();
  for (const auto& link : sweep.links) {
    ibls::ListedCable c{{name_of[link.guid_a], link.port_a}, {name_of[link.guid_b], link.port_b}, link};
    if (c.b < c.a) std::swap(c.a, c.b);
    if (!filtered || selected.count(c.a.system) || selected.count(c.b.system)) l.cables.push_back(c);
  }
  std::sort(l.cables.begin(), l.cables.end(), [](const auto& x, const auto& y) { return x.a < y.a; });
  if (a.check && topo != nullptr) {
    std::vector<CablingFinding> findings;
    for (auto& f : check_cabling(*topo, sweep, names)) {
      const bool touches = selected.count(f.port.system) || (f.expected && selected.count(f.expected->system)) ||
                           (f.found && selected.count(f.found->system));
      if (!filtered || touches) findings.push_back(f);
    }
    l.findings = std::move(findings);
  }
  return l;
}

int run(const Args& a) {
  const auto fail = [&](const Error& e) { return openflint::cli::report_error(e, a.json); };
  if (a.check && a.files.topology.empty())
    return fail(Error(ErrorCode::InvalidArgument, "-e needs the topology file (-t FILE)"));
  auto naming = SystemNaming::load(a.files);
  if (!naming) return fail(naming.error());
  auto sweep = discover_fabric_links(a.ca, a.port);
  if (!sweep) return fail(sweep.error());
  auto listing = make_listing(a, *naming, *sweep);
  if (!listing) return fail(listing.error());
  if (a.json) {
    openflint::cli::print_json(ibls::listing_json(*listing));
  } else {
    ibls::print_listing(std::cout, *listing);
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
