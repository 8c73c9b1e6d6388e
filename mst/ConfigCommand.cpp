// ConfigCommand: `mst config DEV query|set|reset|show_confs` — the device's non-volatile configuration, mstconfig's names.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/Confirm.h"
#include "cli/JsonOutput.h"
#include "cli/ErrorReport.h"
#include "cli/ExitCode.h"
#include "fwops/registers/NvConfig.h"
#include "fwops/registers/NvConfigPlan.h"
#include "reports/ConfigDocument.h"
#include "mst/Commands.h"

namespace openflint::mst {
namespace {

using nlohmann::json;

struct ConfigArgs {
  std::string device;
  std::string command;
  std::vector<std::string> args;
  std::string sysfs;
  bool yes = false;
  bool no = false;
  bool verbose = false;
  unsigned lock_wait_ms = 1000;
};

std::string padded(const std::string& text, std::size_t width) {
  return text.size() >= width ? text + (text.size() > width ? " " : "") : text + std::string(width - text.size(), ' ');
}

// The columns mstconfig prints: Next Boot alone, or with -e Default and Current too.
void print_table(std::ostream& out, const Device& device, const NvConfig& config, const std::vector<NvReading>& rows,
                 bool verbose, const std::vector<std::optional<std::uint32_t>>* new_values) {
  const bool show_default = verbose && config.reads_factory(), show_current = verbose && config.reads_current();
  out << "\nDevice #1:\n----------\n\n";
  out << padded("Device type:", 16) << device.info().name << '\n';
  out << padded("Device:", 16) << device.name() << "\n\n";
  out << padded("Configurations:", 16);
  if (show_default || show_current) {
    out << std::string(36 - 7, ' ') << (show_default ? "Default" : "Current");
    if (show_default && show_current) out << std::string(16 - 7, ' ') << "Current";
    out << std::string(18 - 9, ' ') << "Next Boot";
  } else {
    out << std::string(38 - 9, ' ') << "Next Boot";
  }
  if (new_values != nullptr) out << "       New";
  out << '\n';
  bool starred = false;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const NvReading& r = rows[i];
    const NvParameter& p = *r.setting.parameter;
    const bool star = (show_default && r.factory && r.next != *r.factory) || (show_current && r.current && r.next != *r.current);
    starred = starred || star;
    std::string line = (star ? "*        " : "         ") + padded(r.setting.name, 36);
    if (show_default) line += padded(r.factory ? nv_value_text(p, *r.factory) : "N/A", 16);
    if (show_current) line += padded(r.current ? nv_value_text(p, *r.current) : "N/A", 16);
    line += padded(nv_value_text(p, r.next), 16);
    if (new_values != nullptr && (*new_values)[i]) line += nv_value_text(p, *(*new_values)[i]);
    out << line.substr(0, line.find_last_not_of(' ') + 1) << '\n';
  }
  if (starred) out << "The '*' shows parameters with next value different from default/current value.\n";
}

int run_query(Device& device, NvConfig& config, const ConfigArgs& a, const Common& common) {
  std::vector<NvSetting> chosen;
  for (const std::string& name : a.args) {
    auto s = config.find(name);
    if (!s) return cli::report_error(s.error().with_context(a.device), common.json);
    chosen.push_back(*s);
  }
  if (a.args.empty()) chosen = config.settings();
  auto rows = config.query(chosen);
  if (!rows) return cli::report_error(rows.error().with_context("querying " + a.device), common.json);
  if (common.json) {
    cli::print_json(reports::config_query_json(a.device, std::string(device.info().name), config, *rows));
    return cli::kOk;
  }
  print_table(std::cout, device, config, *rows, a.verbose, nullptr);
  return cli::kOk;
}

int run_set(Device& device, NvConfig& config, const ConfigArgs& a, const Common& common) {
  if (a.args.empty())
    return cli::report_error(Error(ErrorCode::InvalidArgument, "set needs NAME=VALUE arguments"), common.json);
  auto plan = plan_nv_set(config, a.args);
  if (!plan) return cli::report_error(plan.error().with_context(a.device), common.json);
  std::vector<NvReading> rows;
  std::vector<std::optional<std::uint32_t>> new_values;
  for (const NvPlannedSet& p : *plan) {
    rows.push_back(p.before);
    new_values.push_back(p.assignment.value);
  }
  const std::vector<NvAssignment> changes = nv_changes(*plan);
  const json changed = reports::config_changes_json(*plan);
  print_table(common.json ? std::cerr : std::cout, device, config, rows, a.verbose, &new_values);
  if (changes.empty()) {
    if (common.json) cli::print_json(json{{"ok", true}, {"device", a.device}, {"changed", changed}});
    else std::cout << "-I- " << a.device << ": every parameter already has that next-boot value; nothing written\n";
    return cli::kOk;
  }
  if (!cli::confirm("Apply new configuration to " + a.device + "?", {a.yes, a.no})) {
    const Error declined(ErrorCode::InvalidArgument, "configuration of " + a.device + " declined: nothing was written");
    if (common.json) {
      // With --no this is a dry run: the document still lists what would have been written.
      json doc = cli::error_json(declined);
      doc["device"] = a.device;
      doc["changed"] = changed;
      cli::print_json(doc);
    }
    (void)cli::report_error(declined, false);
    return cli::kDeclined;
  }
  if (auto set = config.set(changes); !set) return cli::report_error(set.error().with_context(a.device), common.json);
  if (auto saved = device.commit(); !saved) return cli::report_error(saved.error(), common.json);
  if (common.json) {
    cli::print_json(json{{"ok", true}, {"device", a.device}, {"changed", changed}, {"takes_effect", "next reset"}});
    return cli::kOk;
  }
  std::cout << "-I- " << a.device << ": " << changes.size()
            << " parameter(s) written; they take effect at the next reset (mst reset " << a.device << ") or reboot\n";
  return cli::kOk;
}

int run_reset_config(Device& device, NvConfig& config, const ConfigArgs& a, const Common& common) {
  if (!cli::confirm("Reset the configuration of " + a.device + " to its defaults (at the next reset)?", {a.yes, a.no})) {
    (void)cli::report_error(Error(ErrorCode::InvalidArgument, "configuration reset of " + a.device + " declined: nothing was written"), common.json);
    return cli::kDeclined;
  }
  if (auto done = config.reset_to_defaults(); !done) return cli::report_error(done.error().with_context(a.device), common.json);
  if (auto saved = device.commit(); !saved) return cli::report_error(saved.error(), common.json);
  if (common.json) cli::print_json(json{{"ok", true}, {"device", a.device}, {"takes_effect", "next reset"}});
  else std::cout << "-I- " << a.device << ": every parameter returns to its default at the next reset (mst reset " << a.device << ") or reboot\n";
  return cli::kOk;
}

int run_show_confs(const NvConfig& config, const ConfigArgs& a, const Common& common) {
  json items = json::array();
  const NvItem* last = nullptr;
  if (!common.json) std::cout << "\nList of configurations the device " << a.device << " may support:\n";
  for (const NvSetting& s : config.settings()) {
    const NvParameter& p = *s.parameter;
    if (common.json) {
      items.push_back({{"name", s.name}, {"item", std::string(s.item->name)}, {"values", nv_value_choices(p)},
                       {"description", std::string(p.description)}});
      continue;
    }
    if (s.item != last) std::cout << "\t\t" << s.item->title << ":\n";
    last = s.item;
    std::cout << std::string(20, ' ') << padded(s.name + "=<" + nv_value_choices(p) + ">", 40) << p.description << '\n';
  }
  if (common.json) cli::print_json(json{{"ok", true}, {"device", a.device}, {"parameters", items}});
  return cli::kOk;
}

int run_config_command(const ConfigArgs& a, const Common& common) {
  const std::string& c = a.command;
  const bool query = c == "query" || c == "q", set = c == "set" || c == "s", reset = c == "reset" || c == "r",
             show = c == "show_confs" || c == "i";
  if (!query && !set && !reset && !show)
    return cli::report_error(Error(ErrorCode::InvalidArgument, "unknown config command '" + c +
                                                                   "' (query, set, reset, show_confs)"), common.json);
  DeviceOpenOptions open_options;
  open_options.lock_timeout = std::chrono::milliseconds(a.lock_wait_ms);
  if (!a.sysfs.empty()) open_options.sysfs_root = a.sysfs;
  auto device = open_device(a.device, open_options);
  if (!device) return cli::report_error(device.error(), common.json);
  auto config = NvConfig::open(*device);
  if (!config) return cli::report_error(config.error(), common.json);
  if (config->settings().empty())
    return cli::report_error(Error(ErrorCode::NotSupported, a.device + ": the device does not support any configuration change"), common.json);
  if (query) return run_query(*device, *config, a, common);
  if (set) return run_set(*device, *config, a, common);
  if (reset) return run_reset_config(*device, *config, a, common);
  return run_show_confs(*config, a, common);
}

}  // namespace

void add_config_command(CLI::App& app, std::function<int()>& run, const Common& common) {
  static ConfigArgs args;
  auto* config = app.add_subcommand("config", "non-volatile device configuration (port link type, SR-IOV, ...) with "
                                              "mstconfig's parameter names: query, set NAME=VALUE..., reset, show_confs");
  config->add_option("DEV", args.device, "the device (name forms: mst --help)")->required();
  config->add_option("COMMAND", args.command, "query|q [NAME...], set|s NAME=VALUE..., reset|r, show_confs|i")->required();
  config->add_option("ARGS", args.args, "parameter names (query) or NAME=VALUE pairs (set)");
  config->add_flag("-y,--yes", args.yes, "write without asking");
  config->add_flag("--no", args.no, "answer no (show what would change only)");
  config->add_flag("-e,--enable_verbosity", args.verbose, "show the Default and Current columns too");
  config->add_option("--lock-wait", args.lock_wait_ms, "milliseconds to wait for another tool to release the device");
  config->add_option("--sysfs", args.sysfs, "sysfs PCI root (default $OPENFLINT_SYSFS_ROOT or /sys/bus/pci)");
  config->footer("Values take effect at the device's next reset (mst reset DEV) or reboot. Names and value spellings\n"
                 "are mstconfig's (LINK_TYPE_P1=ETH, SRIOV_EN=True, NUM_OF_VFS=8). Exit codes: 2 unknown parameter or\n"
                 "bad value; 6 the device does not support it; 7 declined.");
  config->callback([&run, &common] { run = [&common] { return run_config_command(args, common); }; });
}

}  // namespace openflint::mst
