// PciConfigCommands: `mst save` (configuration spaces to files) and `mst load` (their host-assigned
// registers written back, after the plan and a question); the work is in fwops/access/PciConfigSaveLoad.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/Confirm.h"
#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "cli/JsonOutput.h"
#include "core/HexString.h"
#include "fwops/access/DeviceListing.h"
#include "fwops/access/PciConfigSaveLoad.h"
#include "mst/Commands.h"
#include "mst/PciConfigSaving.h"
#include "mtcr/pci/PciDeviceName.h"

namespace openflint::mst {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct PciConfigArgs {
  std::vector<std::string> devices;  // empty: every catalog function (load: every one with a saved file)
  std::string dir;                   // -o / -i; empty: default_pci_save_dir()
  std::string sysfs;
  bool yes = false;
  bool no = false;
  bool force = false;
  unsigned lock_wait_ms = 1000;
};

fs::path sysfs_of(const PciConfigArgs& a) { return a.sysfs.empty() ? default_sysfs_root() : fs::path(a.sysfs); }
fs::path dir_of(const PciConfigArgs& a) { return a.dir.empty() ? default_pci_save_dir() : fs::path(a.dir); }

// The named functions (PCI names only: what has a configuration space on this host), or every
// catalog function of the tree.
Result<std::vector<PciAddress>> chosen_functions(const PciConfigArgs& a) {
  const fs::path root = sysfs_of(a);
  std::vector<PciAddress> out;
  if (a.devices.empty()) {
    OF_ASSIGN(const auto listed, list_pci_devices(root, ListingOptions{.probe_access = false}));
    return catalog_functions(listed);
  }
  for (const auto& name : a.devices) {
    if (!is_pci_device_name(name, root) && !looks_like_rdma_device_name(name))
      return make_error(ErrorCode::InvalidArgument, name + ": not a PCI function of this host (a BDF, pciconf-BDF, an "
                                                           "MST name or an RDMA name): only those have a configuration space to save");
    OF_ASSIGN(const PciDeviceName pci, resolve_pci_device_name(name, root));
    out.push_back(pci.address);
  }
  return out;
}

int run_save(const PciConfigArgs& a, const Common& common) {
  auto functions = chosen_functions(a);
  if (!functions) return cli::report_error(functions.error(), common.json);
  const SaveRun run = save_functions(sysfs_of(a), *functions, dir_of(a));
  for (const auto& e : run.failed) std::cerr << "-E- " << e.message() << '\n';
  if (common.json) {
    json doc = save_run_json(run);
    doc["ok"] = run.failed.empty();
    if (!run.failed.empty()) doc["error"] = cli::error_json(run.failed.front())["error"];  // as every failed document
    cli::print_json(doc);
  } else {
    if (functions->empty()) std::cout << "-I- no catalog PCI function under " << sysfs_of(a).string() << ": nothing saved\n";
    print_saved(std::cout, run);
  }
  return run.failed.empty() ? cli::kOk : cli::exit_code_for(run.failed.front().code());
}

json load_json(const PciConfigLoad& l, const std::vector<std::string>& written) {
  json f{{"bdf", l.saved.address.to_string()},
         {"file", l.file.string()},
         {"driver", l.driver.empty() ? json(nullptr) : json(l.driver)},
         {"changes", json::array()},
         {"written", written}};
  for (const auto& c : l.changes)
    f["changes"].push_back({{"register", c.reg.name},
                            {"offset", hex_string(c.reg.offset, 2)},
                            {"now", hex_dword(c.now)},
                            {"saved", hex_dword(c.saved)}});
  return f;
}

void print_load_plan(std::ostream& out, const PciConfigLoad& l) {
  out << "Function:  " << l.saved.address.to_string() << (l.driver.empty() ? "  no driver bound" : "  driver " + l.driver) << '\n';
  out << "Saved:     " << l.file.string() << '\n';
  if (l.changes.empty()) out << "Restore:   nothing (every register is as saved)\n";
  for (std::size_t i = 0; i < l.changes.size(); ++i)
    out << (i == 0 ? "Restore:   " : "           ") << l.changes[i].reg.name << ' ' << hex_dword(l.changes[i].now)
        << " -> " << hex_dword(l.changes[i].saved) << '\n';
}

// The functions to load: the named ones (each must have a file), or every catalog function with
// a file in the directory.
Result<std::vector<PciAddress>> functions_to_load(const PciConfigArgs& a) {
  OF_ASSIGN(auto functions, chosen_functions(a));
  if (!a.devices.empty()) return functions;
  std::vector<PciAddress> with_file;
  std::error_code ec;
  for (const auto& f : functions)
    if (fs::exists(fs::symlink_status(saved_pci_config_path(dir_of(a), f), ec))) with_file.push_back(f);
  if (with_file.empty())
    return make_error(ErrorCode::NotFound, "no saved configuration in " + dir_of(a).string() + " for any catalog function under " +
                                               sysfs_of(a).string() + " (mst save writes them)");
  return with_file;
}

int run_load(const PciConfigArgs& a, const Common& common) {
  auto functions = functions_to_load(a);
  if (!functions) return cli::report_error(functions.error(), common.json);
  const PciConfigLoadOptions options{.force = a.force, .lock_timeout = std::chrono::milliseconds(a.lock_wait_ms)};
  std::vector<PciConfigLoad> loads;
  std::ostream& out = common.json ? std::cerr : std::cout;
  std::size_t to_write = 0;
  for (const auto& f : *functions) {
    auto load = plan_pci_config_load(sysfs_of(a), f, dir_of(a), options);
    if (!load) return cli::report_error(load.error().with_context("loading " + f.to_string()), common.json);
    print_load_plan(out, *load);
    to_write += load->changes.size();
    loads.push_back(std::move(*load));
  }
  // Nothing is written unless every function can be.
  for (const auto& l : loads)
    if (!l.blockers.empty())
      return cli::report_error(Error(l.blockers.front().code, "refusing to load: " + l.blockers.front().why), common.json);
  std::vector<std::vector<std::string>> written(loads.size());
  if (to_write > 0) {
    const std::string question = "Write " + std::to_string(to_write) + " saved register(s) back to " +
                                 std::to_string(loads.size()) + " function(s)?";
    if (!cli::confirm(question, {a.yes, a.no})) {
      (void)cli::report_error(Error(ErrorCode::Cancelled, "load declined: nothing was written"), common.json);
      return cli::kDeclined;
    }
    for (std::size_t i = 0; i < loads.size(); ++i) {
      auto w = run_pci_config_load(loads[i]);
      if (!w) return cli::report_error(w.error().with_context("loading " + loads[i].saved.address.to_string()), common.json);
      written[i] = std::move(*w);
    }
  }
  if (common.json) {
    json doc{{"ok", true}, {"dir", dir_of(a).string()}, {"functions", json::array()}};
    for (std::size_t i = 0; i < loads.size(); ++i) doc["functions"].push_back(load_json(loads[i], written[i]));
    cli::print_json(doc);
    return cli::kOk;
  }
  for (std::size_t i = 0; i < loads.size(); ++i)
    std::cout << "-I- " << loads[i].saved.address.to_string() << ": "
              << (written[i].empty() ? std::string("as saved, nothing written")
                                     : std::to_string(written[i].size()) + " register(s) written back")
              << '\n';
  return cli::kOk;
}

void add_common_options(CLI::App* sub, PciConfigArgs& a) {
  sub->add_option("DEV", a.devices, "PCI functions (a BDF, pciconf-BDF, an MST name, an RDMA name; default: every "
                                    "catalog function mst status lists)");
  sub->add_option("--sysfs", a.sysfs, "sysfs PCI root (default $OPENFLINT_SYSFS_ROOT or /sys/bus/pci)");
}

}  // namespace

void add_pci_config_commands(CLI::App& app, std::function<int()>& run, const Common& common) {
  auto args = std::make_shared<PciConfigArgs>();
  CLI::App* save = app.add_subcommand(
      "save", "save the PCI configuration space of each function to DIR/<BDF> (default $OPENFLINT_MST_SAVE_DIR or "
              "/var/mst_pci), for mst load");
  add_common_options(save, *args);
  save->add_option("-o,--output-dir", args->dir, "the directory to save into (created if needed)");
  save->callback([&run, &common, args] { run = [&common, args] { return run_save(*args, common); }; });

  CLI::App* load = app.add_subcommand(
      "load", "write the host-assigned registers (BARs, command, interrupt line, PCIe control) saved by mst save back "
              "to each function: shows what differs, asks, refuses a bound driver or another card's file");
  add_common_options(load, *args);
  load->add_option("-i,--input-dir", args->dir, "the directory mst save wrote (default $OPENFLINT_MST_SAVE_DIR or /var/mst_pci)");
  load->add_flag("-y,--yes", args->yes, "write without asking");
  load->add_flag("--no", args->no, "answer no (show what would be written only)");
  load->add_flag("--force", args->force, "write even while a kernel driver is bound to the function (default: refused)");
  load->add_option("--lock-wait", args->lock_wait_ms, "milliseconds to wait for another tool to release a function (default 1000)");
  load->callback([&run, &common, args] { run = [&common, args] { return run_load(*args, common); }; });
}

}  // namespace openflint::mst
