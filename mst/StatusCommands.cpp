// StatusCommands: `mst status`, `mst start`, `mst stop`, `mst restart` — the listing, host checks,
// /dev/mst links and saved configuration spaces live in fwops/ (DeviceListing, HostAccess, MstLinks,
// PciConfigSaveLoad); this file parses and prints.
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "cli/ErrorReport.h"
#include "cli/JsonOutput.h"
#include "cli/ExitCode.h"
#include "fabric/OpenedFabric.h"
#include "mst/Commands.h"
#include "mst/PciConfigSaving.h"
#include "mst/RemoteStatus.h"
#include "reports/StatusReport.h"
#include "mtcr/pci/PciDeviceName.h"

namespace openflint::mst {
using namespace openflint::reports;  // the documents the tools print (reports/)
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct StatusArgs {
  std::string sysfs;    // empty: default_sysfs_root()
  std::string mst_dir;  // empty: default_mst_dir()
  std::string save_dir; // empty: default_pci_save_dir()
  bool verbose = false;
  bool fabric = false;
  std::string ca;
  int port = 0;
  std::vector<std::string> remote;  // --remote HOST...: list those hosts' devices instead
};

fs::path sysfs_root(const StatusArgs& a) { return a.sysfs.empty() ? default_sysfs_root() : fs::path(a.sysfs); }
fs::path mst_dir(const StatusArgs& a) { return a.mst_dir.empty() ? default_mst_dir() : fs::path(a.mst_dir); }
fs::path save_dir(const StatusArgs& a) { return a.save_dir.empty() ? default_pci_save_dir() : fs::path(a.save_dir); }

// Discovery, then every node's hw id and MGIR on one shared channel; no flash reads.
Result<std::vector<NodeFirmware>> fabric_nodes(const StatusArgs& a) {
  OF_ASSIGN(const OpenedFabric fabric, open_fabric(a.ca, a.port));
  return take_inventory(fabric.nodes, fabric.channel, FlashQuery::Skip);
}

int run_status(const StatusArgs& a, const Common& common) {
  if (!a.remote.empty()) return run_remote_status(a.remote, common);
  const fs::path root = sysfs_root(a);
  // --json also reads each device's safety facts (flash query, MCAM/MCQI/MGIR; docs/json.md).
  auto devices = list_pci_devices(root, ListingOptions{.probe_access = true, .safety_facts = common.json});
  if (!devices) return cli::report_error(devices.error(), common.json);
  // In-band too when asked, or when a local port is up (an SM has brought the fabric up).
  const HostAccess host = check_host_access({root});
  const bool want_fabric = a.fabric || !host.active_ib_ports.empty();
  std::optional<std::vector<NodeFirmware>> nodes;
  std::string fabric_error;
  if (want_fabric) {
    auto found = fabric_nodes(a);
    if (found) nodes = std::move(*found);
    else if (a.fabric) return cli::report_error(found.error().with_context("in-band discovery"), common.json);
    else fabric_error = found.error().message();
  }
  if (common.json) {
    json doc{{"ok", true}, {"sysfs", root.string()}, {"pci", json::array()}, {"fabric", nullptr}};
    for (const auto& d : *devices) doc["pci"].push_back(device_json(d));
    if (nodes) {
      doc["fabric"] = json::array();
      for (const auto& n : *nodes) doc["fabric"].push_back(node_json(n));
    }
    if (!fabric_error.empty()) doc["fabric_error"] = fabric_error;
    cli::print_json(doc);
    return cli::kOk;
  }
  print_devices(std::cout, root, *devices, a.verbose);
  if (nodes) {
    std::cout << '\n';
    print_nodes(std::cout, *nodes);
  }
  if (!fabric_error.empty()) std::cerr << "-W- in-band discovery: " << fabric_error << '\n';
  return cli::kOk;
}

// The links, then (as the vendor's mst start did) every catalog function's configuration space
// saved for mst load: a function that cannot be saved is a warning, never a failed start.
Result<json> start_document(const StatusArgs& a, bool json_output) {
  const fs::path root = sysfs_root(a);
  OF_ASSIGN(const auto devices, list_pci_devices(root));
  const HostAccess host = check_host_access({root});
  const fs::path dir = mst_dir(a);
  OF_ASSIGN(const auto links, create_mst_links(dir, root, devices));
  const SaveRun saved = save_functions(root, catalog_functions(devices), save_dir(a));
  for (const auto& e : saved.failed) std::cerr << "-W- not saved for mst load: " << e.message() << '\n';
  if (!json_output) {
    print_host(std::cout, host, devices);
    std::cout << "Links:\n";
    print_links(std::cout, dir, links);
    std::cout << "PCI configuration saved (mst load):\n";
    print_saved(std::cout, saved);
    return json();
  }
  json doc{{"ok", true}, {"sysfs", root.string()}, {"mst_dir", dir.string()}, {"host", host_json(host)},
           {"pci", json::array()}, {"links", links_json(links)}, {"pci_config", save_run_json(saved)}};
  for (const auto& d : devices) doc["pci"].push_back(device_json(d));
  return doc;
}

int run_start(const StatusArgs& a, const Common& common) {
  auto doc = start_document(a, common.json);
  if (!doc) return cli::report_error(doc.error(), common.json);
  if (common.json) cli::print_json(*doc);
  return cli::kOk;
}

Result<std::vector<MstLink>> stop_links(const StatusArgs& a, bool json_output) {
  const fs::path dir = mst_dir(a);
  OF_ASSIGN(auto links, remove_mst_links(dir));
  if (!json_output) print_links(std::cout, dir, links);
  return links;
}

int run_stop(const StatusArgs& a, const Common& common) {
  auto links = stop_links(a, common.json);
  if (!links) return cli::report_error(links.error(), common.json);
  if (common.json) cli::print_json(json{{"ok", true}, {"mst_dir", mst_dir(a).string()}, {"links", links_json(*links)}});
  return cli::kOk;
}

// mst stop, then mst start (the vendor's "restart": the same).
int run_restart(const StatusArgs& a, const Common& common) {
  if (!common.json) std::cout << "Stopping:\n";
  auto stopped = stop_links(a, common.json);
  if (!stopped) return cli::report_error(stopped.error().with_context("stopping"), common.json);
  if (!common.json) std::cout << "Starting:\n";
  auto started = start_document(a, common.json);
  if (!started) return cli::report_error(started.error().with_context("starting"), common.json);
  if (common.json) {
    (*started)["stopped_links"] = links_json(*stopped);
    cli::print_json(*started);
  }
  return cli::kOk;
}

void add_sysfs_option(CLI::App* sub, StatusArgs& a) {
  sub->add_option("--sysfs", a.sysfs, "PCI sysfs root (default $OPENFLINT_SYSFS_ROOT or /sys/bus/pci)");
}

void add_mst_dir_option(CLI::App* sub, StatusArgs& a) {
  sub->add_option("--mst-dir", a.mst_dir, "where the device links go (default $OPENFLINT_MST_DIR or /dev/mst)");
}

void add_save_dir_option(CLI::App* sub, StatusArgs& a) {
  sub->add_option("--save-dir", a.save_dir, "where each function's PCI configuration is saved for mst load "
                                            "(default $OPENFLINT_MST_SAVE_DIR or /var/mst_pci)");
}

}  // namespace

void add_status_commands(CLI::App& app, std::function<int()>& run, const Common& common) {
  auto args = std::make_shared<StatusArgs>();
  CLI::App* status = app.add_subcommand(
      "status", "list PCI functions (ids, MST name, access methods, driver, RDMA/net) and, with --fabric "
                "or an active local IB port, in-band nodes");
  add_sysfs_option(status, *args);
  status->add_flag("-v,--verbose", args->verbose, "also ids, each access method (or why it fails), NUMA node");
  status->add_flag("--fabric", args->fabric, "also list the in-band nodes (an error when discovery fails)");
  status->add_option("--ca", args->ca, "in-band: the local CA (default: the first with an active port)");
  status->add_option("--port", args->port, "in-band: the local port (default: the first active)");
  status->add_option("--remote", args->remote,
                     "list the devices HOST serves (HOST[:PORT] or ssh:[USER@]HOST[:PORT]; repeatable) "
                     "instead of this host's")
      ->allow_extra_args(false);
  status->callback([&run, &common, args] { run = [&common, args] { return run_status(*args, common); }; });

  CLI::App* start = app.add_subcommand(
      "start", "check host access (root, sysfs, lockdown, BAR, umad); link /dev/mst/NAME to each function "
               "(no kernel module); save each function's PCI configuration for mst load");
  add_sysfs_option(start, *args);
  add_mst_dir_option(start, *args);
  add_save_dir_option(start, *args);
  start->callback([&run, &common, args] { run = [&common, args] { return run_start(*args, common); }; });

  CLI::App* stop = app.add_subcommand("stop", "remove the /dev/mst links `mst start` made (nothing else)");
  add_mst_dir_option(stop, *args);
  stop->callback([&run, &common, args] { run = [&common, args] { return run_stop(*args, common); }; });

  CLI::App* restart = app.add_subcommand("restart", "mst stop, then mst start");
  add_sysfs_option(restart, *args);
  add_mst_dir_option(restart, *args);
  add_save_dir_option(restart, *args);
  restart->callback([&run, &common, args] { run = [&common, args] { return run_restart(*args, common); }; });
}

}  // namespace openflint::mst
