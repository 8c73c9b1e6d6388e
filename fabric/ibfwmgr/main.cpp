// ibfwmgr: lists every node of an InfiniBand fabric with its firmware, and updates them all in parallel.
#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <iostream>
#include <optional>
#include <set>
#include <string>

#include "cli/Confirm.h"
#include "cli/JsonOutput.h"
#include "cli/ParseCommandLine.h"
#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "core/Interrupt.h"
#include "fabric/OpenedFabric.h"
#include "fabric/FabricUpdater.h"
#include "fabric/HostsFile.h"
#include "fabric/IbadmConfig.h"
#include "fabric/UpdateJournal.h"
#include "fabric/ibfwmgr/ProgressPrinter.h"
#include "fabric/ImageSet.h"
#include "fabric/NodeFirmware.h"
#include "fabric/NodeSelection.h"
#include "fabric/OutOfBand.h"
#include "fabric/options/SystemNameOptions.h"
#include "reports/FabricFirmwareReport.h"
#include "cli/ToolBoundary.h"
#include "cli/Version.h"

namespace {

using namespace openflint;

struct Args {
  std::string ca;
  int port = 0;
  bool json = false;
  bool yes = false;
  bool reset = false;
  bool force = false;
  bool dry_run = false;
  std::string archive;
  std::string images;
  std::string hosts_file;  // --hosts FILE: devices reached out-of-band first
  SystemNamingFiles naming;  // --names FILE, -t FILE: the SYSTEM column
  NodeSelection selection;   // --node, --exclude, --type, --system-type
  std::string type;          // --type hca|switch, into selection.type
  bool no_fabric = false;    // --no-fabric: the hosts' devices only, no sweep
  std::size_t parallel = kDefaultUpdateParallel;
  std::string max_failures;  // N or P%
  int retries = 2;
  int node_timeout = 3600;   // seconds; 0: none
  std::string journal;       // --journal FILE; empty: the default under the ibadm run dir
  bool progress_json = false;
};

// Discovery and the inventory, with what the hosts of --hosts listed.
struct Inventory {
  SystemNaming naming;
  std::vector<NodeFirmware> nodes;
  std::vector<RemoteHostStatus> hosts;
};

// One line (and the JSON report with --json); the exit code is the shared table's for the error
// (cli/ExitCode.h, README) unless the caller names one.
int fail(const Args& a, const Error& e, int rc = -1) {
  const int code = openflint::cli::report_error(e, a.json);
  return rc < 0 ? code : rc;
}

// Discovery runs first, on its own port (libibnetdisc); the selection (--node, ...) right after it,
// so no node outside it is asked anything; the shared channel opens after it. With --hosts, the
// hosts' devices are listed first and the nodes they serve go out-of-band. With --no-fabric there
// is no sweep: the nodes are the devices the hosts serve.
Result<Inventory> inventory(const Args& a, SystemNaming naming, const std::vector<RemoteHost>& hosts,
                            std::shared_ptr<MadChannel>& channel) {
  Inventory out;
  out.naming = std::move(naming);
  if (a.no_fabric) {
    out.hosts = scan_hosts(hosts);
    auto served = served_inventory(out.hosts);
    std::vector<FabricNode> nodes;
    for (const auto& n : served) nodes.push_back(n.node);
    OF_ASSIGN(const NodeSelection selection, resolve_names_by_server(nodes, a.selection, out.naming));
    OF_ASSIGN(const auto kept, select_node_indices(nodes, selection, out.naming));
    for (const std::size_t i : kept) out.nodes.push_back(std::move(served[i]));
    return out;
  }
  OF_ASSIGN(OpenedFabric fabric, open_fabric(a.ca, a.port));
  OF_ASSIGN(const NodeSelection selection, resolve_names_by_server(fabric.nodes, a.selection, out.naming));
  OF_ASSIGN(const std::vector<FabricNode> selected, select_nodes(fabric.nodes, selection, out.naming));
  channel = fabric.channel;
  out.hosts = scan_hosts(hosts);
  out.nodes = take_inventory(selected, out.hosts, channel);
  return out;
}

// --type and --no-fabric's need of --hosts: usage errors before anything is read or swept.
Result<void> check_selection(Args& a) {
  if (a.no_fabric && a.hosts_file.empty())
    return make_error(ErrorCode::InvalidArgument, "--no-fabric needs --hosts FILE: the bus servers are the only way to the devices");
  if (a.type == "hca") a.selection.type = FabricNode::Type::Hca;
  else if (a.type == "switch") a.selection.type = FabricNode::Type::Switch;
  return {};
}

// The hosts file, name map and topology are read before anything touches the fabric: a bad line
// is a usage error (exit 2, "FILE:LINE: why").
struct Files {
  std::vector<RemoteHost> hosts;
  SystemNaming naming;
};
Result<Files> read_files(const Args& a) {
  Files f;
  if (!a.hosts_file.empty()) {
    OF_ASSIGN(f.hosts, read_hosts_file(a.hosts_file));
  }
  OF_ASSIGN(f.naming, SystemNaming::load(a.naming));
  return f;
}

void warn_unreachable(const std::vector<RemoteHostStatus>& hosts) {
  for (const auto& h : hosts)
    if (!h.error.empty())
      std::cerr << "-W- host " << to_string(h.host) << " unreachable (" << h.error << "): its nodes are reached in-band\n";
}

int run_list(const Args& a) {
  auto files = read_files(a);
  if (!files) return fail(a, files.error());
  std::shared_ptr<MadChannel> channel;
  auto inv = inventory(a, std::move(files->naming), files->hosts, channel);
  if (!inv) return fail(a, inv.error());
  if (a.json) {
    cli::print_json(reports::inventory_json(inv->nodes, inv->naming, inv->hosts));
  } else {
    reports::print_inventory(std::cout, inv->nodes, inv->naming);
    warn_unreachable(inv->hosts);
  }
  return 0;
}

// Where the images come from, opened before the fabric is touched: a missing or bad archive or
// folder is reported as such (exit 4, 3), not as whatever the discovery then fails with.
struct ImageSource {
  std::unique_ptr<FirmwarePackage> archive;  // boards are extracted once the nodes' PSIDs are known
  std::optional<ImageSet> folder;
};
Result<ImageSource> open_images(const Args& a) {
  ImageSource source;
  if (!a.archive.empty()) {
    OF_ASSIGN(source.archive, open_package(a.archive));  // an MFA archive or MFA2 package, by content
  } else {
    OF_ASSIGN(ImageSet folder, ImageSet::from_directory(a.images));
    source.folder.emplace(std::move(folder));
  }
  return source;
}

Result<ImageSet> load_images(const Args& a, ImageSource& source, const std::vector<NodeFirmware>& nodes) {
  if (source.folder) return std::move(*source.folder);
  std::set<std::string> psids;
  for (const auto& n : nodes) {
    if (!n.psid.empty()) psids.insert(n.psid);
  }
  return ImageSet::from_package(*source.archive, a.archive, psids);
}

bool confirm(const Args& a, const std::vector<NodeFirmware>& nodes) {
  std::size_t reachable = 0;
  for (const auto& n : nodes) reachable += n.reachable() ? 1 : 0;
  return openflint::cli::confirm(
      "Update up to " + std::to_string(reachable) + " device(s) of " + std::to_string(nodes.size()) + " fabric nodes?",
      openflint::cli::ConfirmPolicy{a.yes, false});
}

// --journal FILE, else the default under the ibadm run dir when that directory exists (ibadm
// creates it), else none (said in the output).
Result<std::optional<UpdateJournal>> open_journal(const Args& a, const std::vector<NodeFirmware>& nodes) {
  std::optional<std::filesystem::path> path;
  if (!a.journal.empty()) {
    path = a.journal;
  } else {
    std::string run_dir(kDefaultIbadmRunDir);
    if (auto config = read_ibadm_config(ibadm_config_path(""))) run_dir = config->run_dir;
    std::uint64_t local = 0;
    for (const auto& n : nodes)
      if (n.node.local) local = n.node.guid;
    path = default_journal_path(run_dir, local);
    if (!path) {
      if (!a.json) std::cerr << "-I- no journal: " << run_dir << " does not exist (--journal FILE keeps one)\n";
      return std::optional<UpdateJournal>{};
    }
  }
  OF_ASSIGN(UpdateJournal journal, UpdateJournal::open(*path));
  return std::optional<UpdateJournal>(std::move(journal));
}

// The nodes the failure budget (or a stop signal) kept from starting, by LID, in one line.
void print_not_started(const std::vector<NodeUpdate>& updates) {
  std::string lids;
  std::size_t count = 0;
  for (const auto& u : updates) {
    if (u.status != NodeUpdateStatus::NotStarted) continue;
    ++count;
    lids += (lids.empty() ? "" : ", ") + std::to_string(u.before.node.lid);
  }
  if (count > 0) std::cerr << "-W- " << count << " node(s) not started (lid " << lids << "): run again to update them\n";
}

int run_update(const Args& a) {
  if (a.archive.empty() == a.images.empty())
    return fail(a, Error(ErrorCode::InvalidArgument, "update needs exactly one of --archive X.mfa|X.mfa2 or --images DIR"),
                openflint::cli::kUsage);
  auto files = read_files(a);
  if (!files) return fail(a, files.error());
  auto source = open_images(a);
  if (!source) return fail(a, source.error());
  const auto start = std::chrono::steady_clock::now();
  std::shared_ptr<MadChannel> channel;
  auto inv = inventory(a, std::move(files->naming), files->hosts, channel);
  if (!inv) return fail(a, inv.error());
  const auto* nodes = &inv->nodes;
  auto images = load_images(a, *source, *nodes);
  if (!images) return fail(a, images.error());
  if (!a.json) {
    reports::print_inventory(std::cout, *nodes, inv->naming);
    warn_unreachable(inv->hosts);
  }
  if (!a.dry_run && !confirm(a, *nodes)) return fail(a, Error(ErrorCode::Cancelled, "update declined"), openflint::cli::kDeclined);
  FabricUpdateOptions options;
  options.reset = a.reset;
  options.force = a.force;
  options.dry_run = a.dry_run;
  options.parallel = a.parallel;
  options.retries = a.retries;
  options.node_timeout = std::chrono::seconds(a.node_timeout);
  if (!a.max_failures.empty()) {
    auto budget = parse_failure_budget(a.max_failures);
    if (!budget) return fail(a, budget.error(), openflint::cli::kUsage);
    options.max_failures = *budget;
  }
  std::optional<UpdateJournal> journal;
  if (!a.dry_run) {
    auto opened = open_journal(a, *nodes);
    if (!opened) return fail(a, opened.error());
    if (*opened) journal.emplace(std::move(**opened));
    if (journal) options.journal = &*journal;
  }
  std::optional<ibfwmgr::ProgressPrinter> printer;  // a dry run burns nothing: no progress
  if (!a.dry_run) {
    printer.emplace(*nodes, a.parallel, a.progress_json);
    printer->attach(options);
  }
  const auto updates = update_fabric(*nodes, *images, channel, options);
  if (printer) printer->stop();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  bool ok = true;
  for (const auto& u : updates)
    ok = ok && u.status != NodeUpdateStatus::Failed && u.status != NodeUpdateStatus::NoImage;
  const auto total = plan_total(updates, a.parallel);
  if (a.json) {
    auto doc = reports::update_json(updates, seconds, inv->naming, inv->hosts);
    if (a.dry_run) doc["plan_total"] = reports::plan_total_json(total);
    doc["journal"] = journal ? nlohmann::json(journal->path().string()) : nlohmann::json(nullptr);
    cli::print_json(doc);
  } else {
    reports::print_updates(std::cout, updates, seconds, inv->naming);
    if (a.dry_run) {
      reports::print_update_plan(std::cout, updates, inv->naming);
      reports::print_plan_total(std::cout, total);
    }
    if (journal) std::cout << "-I- journal: " << journal->path().string() << "\n";
  }
  print_not_started(updates);  // stderr, with --json too: which nodes a rerun still has to do
  if (interrupted()) {  // the report above says which nodes were updated; one line for the stop
    std::cerr << "-E- interrupted by " << signal_name(interrupt_signal())
              << ": every burn under way stopped at a safe point and no other started; a device not "
                 "listed as updated boots its old image (stopped at a safe point; the devices were left usable)\n";
    return openflint::cli::interrupted_exit_code();
  }
  return ok ? openflint::cli::kOk : openflint::cli::kFailed;
}

}  // namespace

namespace {

void add_selection_options(CLI::App& command, Args& a) {
  command.add_option("--node", a.selection.nodes,
                     "only this node: GUID (0x...), LID or NAME (name map, topology, NodeDescription); repeatable")
      ->allow_extra_args(false);
  command.add_option("--exclude", a.selection.exclude, "not this node (GUID, LID or NAME); repeatable")
      ->allow_extra_args(false);
  command.add_option("--type", a.type, "only nodes of this type")->check(CLI::IsMember({"hca", "switch"}));
  command.add_option("--system-type", a.selection.system_type,
                     "only nodes of this system type (the topology's, or a catalog part number or model, e.g. MT4115)");
  command.add_flag("--no-fabric", a.no_fabric,
                   "no InfiniBand sweep: the devices the bus servers of --hosts serve are the nodes (no umad port needed)");
}

int tool_main(int argc, char** argv) {
  CLI::App app{"ibfwmgr: firmware inventory and update of every device on an InfiniBand fabric (out-of-band through --hosts first, else in-band)"};
  Args a;
  fabriccli::add_local_port_options(app, a.ca, a.port, /*short_ca=*/false);
  app.require_subcommand(1);
  app.set_version_flag("--version", openflint::cli::version_line("ibfwmgr"), "print the version and exit");
  app.footer("update at scale: --parallel N (default 16) nodes at once, --max-failures N|P% (no new node starts past "
             "it), --retries N and --node-timeout S, --journal FILE (resume: a node its flash shows done is not "
             "burned again), --progress-json, --dry-run (per node ~MADs and ~seconds, and the total); "
             "'ibfwmgr update --help' lists them, docs/inband.md explains them");
  auto* list = app.add_subcommand("list", "every node: system, type, GUID, LID, device, PSID, running FW, path");
  list->add_flag("--json", a.json, "JSON output");
  fabriccli::add_hosts_option(*list, a.hosts_file);
  fabriccli::add_system_name_options(*list, a.naming);
  add_selection_options(*list, a);
  auto* update = app.add_subcommand("update", "burn the image matching each device's PSID (failsafe), in parallel");
  update->add_option("--archive", a.archive, "MFA archive or MFA2 package holding the images (told apart by content)");
  update->add_option("--images", a.images, "folder of firmware images (picked by PSID)");
  update->add_flag("--json", a.json, "JSON report");
  fabriccli::add_hosts_option(*update, a.hosts_file);
  fabriccli::add_system_name_options(*update, a.naming);
  update->add_flag("-y,--yes", a.yes, "do not ask");
  update->add_flag("--reset", a.reset,
                   "make the new firmware run: switches by an in-band software reset, out-of-band adapters by their "
                   "host's bus server (mst server --allow-reset), else armed for the host's next warm reboot (MFRL "
                   "level 4); adapters in-band need a PCI reset on their host");
  update->add_flag("--force", a.force, "burn even when a device already has the image's version");
  update->add_flag("--dry-run", a.dry_run, "decide and report what each node would get (status would-update) and the "
                                           "plan: path, image, estimated requests and time (a few reads time each node's "
                                           "round trip), how it would be activated, and the total; write nothing");
  update->add_option("--parallel", a.parallel, "nodes burned at once (default 16; each keeps one MAD in flight)")
      ->check(CLI::Range(1, 4096));
  update->add_option("--max-failures", a.max_failures,
                     "failure budget: N nodes or P% of the nodes to burn; past it no new node starts (default: no limit)");
  update->add_option("--retries", a.retries, "burn a node again after a transient failure (timeout, busy, I/O), with "
                                             "backoff from 2 s, doubled each time (default 2)")
      ->check(CLI::Range(0, 100));
  update->add_option("--node-timeout", a.node_timeout, "seconds one node may take, retries included; past it its burn "
                                                       "stops at a safe point (default 3600; 0: no limit)")
      ->check(CLI::Range(0, 86400 * 7));
  update->add_option("--journal", a.journal, "record each node's progress here (appended, synced), and resume from it: "
                                             "a node the flash shows done is not burned again (default: "
                                             "RUN_DIR/ibfwmgr-GUID.journal when the ibadm run dir exists)");
  update->add_flag("--progress-json", a.progress_json, "progress as JSON lines on stderr: a line per node state "
                                                       "change and one per second overall (stdout keeps --json's document)");
  add_selection_options(*update, a);
  if (auto done = openflint::cli::parse_command_line(app, argc, argv)) return *done;
  if (auto checked = check_selection(a); !checked) return fail(a, checked.error(), openflint::cli::kUsage);
  if (list->parsed()) return run_list(a);
  return run_update(a);
}

}  // namespace

int main(int argc, char** argv) {
  return openflint::cli::run_at_tool_boundary("ibfwmgr", [&] { return tool_main(argc, argv); });
}
