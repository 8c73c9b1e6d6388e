// ResetCommand: `mst reset DEV` — show the plan, ask, reset safely, report the firmware before and after.
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/Confirm.h"
#include "cli/JsonOutput.h"
#include "cli/ErrorReport.h"
#include "cli/RunningFirmwareReport.h"
#include "cli/ExitCode.h"
#include "core/HexString.h"
#include "fwops/registers/AdapterReset.h"
#include "fwops/access/StaleLocks.h"
#include "mtcr/registers/MfrlRegister.h"
#include "mst/Commands.h"
#include "reports/ResetDocument.h"

namespace openflint::mst {
namespace {

using nlohmann::json;

struct ResetArgs {
  std::string device;
  std::string sysfs;
  bool yes = false;
  bool no = false;
  bool unbind = false;
  unsigned timeout_ms = 5000;
  unsigned lock_wait_ms = 1000;
  int level = 3;
};

void print_plan(std::ostream& out, const ResetPlan& plan) {
  out << "Device:          " << plan.device << " (" << plan.device_type << ")\n";
  out << "Reset:           " << plan.method << '\n';
  if (plan.firmware_reset)
    out << "Firmware reset:  MFRL level " << plan.firmware_reset->level << " (state: "
        << mfrl_state_name(plan.firmware_reset->state) << ")\n";
  for (const auto& f : plan.functions)
    out << "Function:        " << f.address.to_string() << (f.driver.empty() ? "  no driver bound" : "  driver " + f.driver) << '\n';
  out << "Running FW:      " << cli::running_firmware_text(plan.running_before) << '\n';
}

int run_reset_command(const ResetArgs& a, const Common& common) {
  DeviceOpenOptions open_options;
  open_options.lock_timeout = std::chrono::milliseconds(a.lock_wait_ms);  // a burn in progress holds it
  if (!a.sysfs.empty()) open_options.sysfs_root = a.sysfs;
  auto device = open_device(a.device, open_options);
  if (!device) return cli::report_error(device.error(), common.json);
  ResetOptions options;
  options.unbind_drivers = a.unbind;
  options.comeback_timeout = std::chrono::milliseconds(a.timeout_ms);
  options.level = a.level;
  auto plan = plan_reset(*device, options);
  if (!plan) return cli::report_error(with_stale_lock_advice(*device, plan.error()), common.json);
  print_plan(common.json ? std::cerr : std::cout, *plan);
  if (!plan->blockers.empty()) {
    const auto& b = plan->blockers.front();
    return cli::report_error(Error(b.code, "refusing to reset " + a.device + ": " + b.why), common.json);
  }
  const std::string question = plan->resets_now ? "Reset " + a.device + " now? Traffic through it stops until it is back."
                                                : "Arm the firmware reset of " + a.device + " for the next warm reboot?";
  if (!cli::confirm(question, {a.yes, a.no})) {
    (void)cli::report_error(Error(ErrorCode::InvalidArgument, "reset of " + a.device + " declined: nothing was done"), common.json);
    return cli::kDeclined;
  }
  auto report = run_reset(*device, *plan, options);
  if (!report)
    return cli::report_error(with_stale_lock_advice(*device, report.error().with_context("resetting " + a.device)),
                             common.json);
  if (auto saved = device->commit(); !saved) return cli::report_error(saved.error(), common.json);
  if (common.json) {
    cli::print_json(reports::reset_report_json(*report));
    return cli::kOk;
  }
  for (const auto& r : report->restored) std::cout << "Restored:        " << r << '\n';
  std::cout << "Running FW now:  " << cli::running_firmware_text(report->running_after) << '\n';
  if (!report->plan.resets_now) {
    std::cout << "-I- " << a.device << ": firmware reset armed; the new firmware runs after the next warm reboot\n";
    return cli::kOk;
  }
  std::cout << "-I- " << a.device << " was reset in " << report->took.count() << " ms\n";
  return cli::kOk;
}

}  // namespace

void add_reset_command(CLI::App& app, std::function<int()>& run, const Common& common) {
  static ResetArgs args;
  auto* reset = app.add_subcommand("reset", "reset an adapter (or switch) safely so the firmware on its flash runs: "
                                            "shows what will happen, asks, refuses while the device is in use");
  reset->add_option("DEV", args.device, "the device (name forms: mst --help; in-band, a switch only)")->required();
  reset->add_flag("-y,--yes", args.yes, "reset without asking");
  reset->add_flag("--no", args.no, "answer no (show the plan only)");
  reset->add_flag("--unbind", args.unbind, "unbind the kernel drivers bound to the device before the reset and bind "
                                          "them again after it (default: a bound driver refuses the reset)");
  reset->add_option("--level", args.level, "3: arm the firmware reset and reset the PCI link now (default); "
                                           "4: arm it for the host's next warm reboot, reset nothing now")
      ->check(CLI::IsMember({3, 4}));
  reset->add_option("--timeout", args.timeout_ms, "milliseconds each PCI function may take to come back (default 5000)");
  reset->add_option("--lock-wait", args.lock_wait_ms, "milliseconds to wait for another tool to release the device "
                                                      "(default 1000; a burn in progress holds it)");
  reset->add_option("--sysfs", args.sysfs, "sysfs PCI root (default $OPENFLINT_SYSFS_ROOT or /sys/bus/pci)");
  reset->callback([&run, &common] { run = [&common] { return run_reset_command(args, common); }; });
}

}  // namespace openflint::mst
