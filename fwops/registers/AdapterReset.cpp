// AdapterReset: plan (checks, functions, drivers) and run (unbind, save, reset, wait, restore, bind).
#include "fwops/registers/AdapterReset.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>
#include <thread>

#include "core/HexString.h"
#include "core/UninterruptibleSection.h"
#include "devices/DeviceInfo.h"
#include "fwops/registers/FirmwareResetRegister.h"
#include "mtcr/pci/PciConfigFile.h"
#include "mtcr/pci/PciConfigRestore.h"
#include "mtcr/pci/PciFunctionIds.h"

namespace openflint {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Every function of the device `dir` names: the sibling folders with the same domain:bus:device.
std::vector<ResetFunction> device_functions(const fs::path& dir) {
  std::vector<ResetFunction> out;
  auto self = parse_pci_address(dir.filename().string());
  if (!self) return out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir.parent_path(), ec)) {
    auto a = parse_pci_address(entry.path().filename().string());
    if (!a || a->domain != self->domain || a->bus != self->bus || a->device != self->device) continue;
    ResetFunction f{*a, {}};
    const fs::path link = entry.path() / "driver";
    if (fs::is_symlink(link, ec)) f.driver = fs::read_symlink(link, ec).filename().string();
    out.push_back(std::move(f));
  }
  std::sort(out.begin(), out.end(), [](const ResetFunction& x, const ResetFunction& y) { return x.address.function < y.address.function; });
  return out;
}

Result<void> write_text(const fs::path& file, const std::string& text) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return make_error(ErrorCode::Io, "opening " + file.string() + ": " + std::strerror(errno));
  const ssize_t n = ::write(fd, text.data(), text.size());
  const int err = errno;
  ::close(fd);
  if (n != static_cast<ssize_t>(text.size())) return make_error(ErrorCode::Io, "writing " + file.string() + ": " + std::strerror(err));
  return {};
}

fs::path driver_file(const fs::path& pci_dir, const ResetFunction& f, const char* which) {
  return pci_dir.parent_path().parent_path() / "drivers" / f.driver / which;  // <root>/drivers/<name>/(un)bind
}

// Binds every function that had a driver; the first failure is returned, the others still run.
Result<void> bind_again(const fs::path& pci_dir, const std::vector<ResetFunction>& functions) {
  Result<void> first;
  for (const auto& f : functions) {
    if (f.driver.empty()) continue;
    std::error_code ec;
    if (fs::is_symlink(pci_dir.parent_path() / f.address.to_string() / "driver", ec)) continue;  // hot-plug rebound it
    auto bound = write_text(driver_file(pci_dir, f, "bind"), f.address.to_string());
    if (!bound && first) first = make_error(std::move(bound).error().with_context("binding " + f.driver + " again"));
  }
  return first;
}

// Waits until the function answers config reads as a Mellanox device again.
Result<std::vector<std::uint8_t>> wait_for_function(const fs::path& dir, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  std::string last = "no answer";
  for (;;) {
    auto config = read_pci_config(dir);
    if (config && (config_dword(*config, 0) & 0xffff) == kPciVendorMellanox) return config;
    if (!config) last = config.error().message();
    else last = "vendor/device reads " + hex_string(config_dword(*config, 0));
    if (Clock::now() >= deadline)
      return make_error(ErrorCode::Timeout, dir.filename().string() + " did not come back within " +
                                                std::to_string(timeout.count()) + " ms after the reset (" + last + ")");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// The kernel's reset_method of the function at `dir` (Linux 5.15+), as listed; nullopt without it.
std::optional<std::string> read_reset_methods(const fs::path& dir) {
  std::ifstream in(dir / "reset_method");
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return line;
}

bool lists_method(const std::string& methods, std::string_view method) {
  std::istringstream words(methods);
  std::string w;
  while (words >> w) {
    if (w == method) return true;
  }
  return false;
}

// Resets the opened function through sysfs with plan.pci_reset_method selected, and selects the
// kernel's previous methods again afterwards (also when the reset fails).
Result<void> reset_function(Device& device, const ResetPlan& plan) {
  const fs::path& dir = device.pci_dir();
  if (plan.pci_reset_method.empty()) return device.reset();
  const auto previous = read_reset_methods(dir);
  OF_TRY(write_text(dir / "reset_method", plan.pci_reset_method));
  auto reset = device.reset();
  if (previous) {
    auto put_back = write_text(dir / "reset_method", *previous);
    if (reset && !put_back) return make_error(std::move(put_back).error().with_context("selecting the reset methods again"));
  }
  return reset;
}

Result<std::vector<std::string>> reset_pci(Device& device, const ResetPlan& plan, const ResetOptions& options) {
  const fs::path& dir = device.pci_dir();
  std::map<std::string, std::vector<std::uint8_t>> saved;
  for (const auto& f : plan.functions) {
    const fs::path fdir = dir.parent_path() / f.address.to_string();
    OF_ASSIGN(saved[f.address.to_string()], read_pci_config(fdir));
  }
  for (const auto& f : plan.functions) {
    if (f.driver.empty()) continue;
    if (auto r = write_text(driver_file(dir, f, "unbind"), f.address.to_string()); !r) {
      (void)bind_again(dir, plan.functions);
      return make_error(std::move(r).error().with_context("unbinding " + f.driver + " from " + f.address.to_string()));
    }
  }
  auto run = [&]() -> Result<std::vector<std::string>> {
    if (plan.firmware_reset)
      OF_TRY(arm_reset_register(dir, mfrl_level_bit(plan.firmware_reset->level), 0, 1));  // hot reset
    OF_TRY(reset_function(device, plan));
    std::vector<std::string> restored;
    for (const auto& [bdf, bytes] : saved) {
      const fs::path fdir = dir.parent_path() / bdf;
      OF_ASSIGN(const auto now, wait_for_function(fdir, options.comeback_timeout));
      OF_ASSIGN(auto written, restore_pci_config(fdir, bytes, now));
      restored.insert(restored.end(), written.begin(), written.end());
    }
    return restored;
  };
  auto restored = run();
  auto bound = bind_again(dir, plan.functions);
  if (!restored) return restored;
  if (!bound) return make_error(std::move(bound).error());
  return restored;
}

std::string level_list(std::uint8_t levels) {
  std::string out;
  for (int level : {0, 3, 4}) {
    if ((levels & mfrl_level_bit(level)) == 0) continue;
    out += (out.empty() ? "" : ", ") + std::to_string(level);
  }
  return out.empty() ? "none" : out;
}

// MFRL as the device's transport reaches it: ICMD on this host, the bus server's register channel.
Result<MfrlRegister> query_mfrl(Device& device) { return device.transport().query_reset_register(device); }

Result<MfrlRegister> arm_mfrl(Device& device, int level) { return device.transport().arm_reset_register(device, level); }

void plan_firmware_reset(Device& device, const ResetOptions& options, ResetPlan& plan);

// A remote adapter whose server does not reset: only arming the firmware's reset for the host's
// next warm reboot (level 4) is a register access; a PCI reset needs the device's host.
void plan_remote(Device& device, const ResetOptions& options, ResetPlan& plan) {
  plan.resets_now = false;
  plan.method = "arm the firmware reset (MFRL level 4, warm reboot) through the bus server: the new firmware runs "
                "after the device's host next warm-reboots; nothing is reset now";
  const std::string server = plan.server_refusal.empty() ? "the server does not reset"
                                                         : "the server does not reset (" + plan.server_refusal + ")";
  if (options.level != 4 && !options.arm_when_server_refuses) {
    plan.method = "a level " + std::to_string(options.level) + " reset by the bus server, which " +
                  (plan.server_refusal.empty() ? std::string("does not reset") : "answered: " + plan.server_refusal);
    plan.blockers.push_back({ErrorCode::NotSupported, server + ": a level " + std::to_string(options.level) +
                                                          " reset needs the device's host (run 'mst reset' there, or "
                                                          "start its server with --allow-reset); remotely only level 4 "
                                                          "(arm for the next warm reboot) works"});
    return;
  }
  if (options.level != 4) plan.method = server + ": " + plan.method;
  ResetOptions arm = options;
  arm.level = 4;
  plan_firmware_reset(device, arm, plan);
  if (!plan.firmware_reset && plan.blockers.empty())
    plan.blockers.push_back({ErrorCode::NotSupported, "no firmware reset register to arm"});
}

// The firmware's side: on parts with a reset register (and firmware running to answer it), the
// level must be supported and no other reset under way.
void plan_firmware_reset(Device& device, const ResetOptions& options, ResetPlan& plan) {
  const bool firmware_runs = plan.running_before && !plan.running_before->recovery;
  if (device.info().firmware_reset.levels == 0 || !firmware_runs) {
    if (options.level == 4)
      plan.blockers.push_back({ErrorCode::NotSupported, "level 4 arms the firmware's reset register, and " +
                                                            std::string(firmware_runs ? "this part has none" : "no firmware runs") +
                                                            ": use level 3"});
    return;
  }
  auto mfrl = query_mfrl(device);
  if (!mfrl) {
    plan.blockers.push_back({mfrl.error().code(), mfrl.error().message() +
                                                      ": a PCI reset would not run the new firmware; reboot the host"});
    return;
  }
  plan.firmware_reset = FirmwareResetStep{mfrl->reset_trigger, options.level, mfrl->reset_state};
  if ((mfrl->reset_trigger & mfrl_level_bit(options.level)) == 0)
    plan.blockers.push_back({ErrorCode::NotSupported, "the firmware offers reset levels " + level_list(mfrl->reset_trigger) +
                                                          ", not level " + std::to_string(options.level)});
  else if (mfrl->reset_state != MfrlRegister::kStateIdle && mfrl->reset_state != MfrlRegister::kStateWaitingForTrigger)
    plan.blockers.push_back({ErrorCode::Busy, "a firmware reset is under way (MFRL: " +
                                                  std::string(mfrl_state_name(mfrl->reset_state)) + ")"});
}

// The reset unbinds, saves and restores every function of the device: each must be the vendor's
// (the opened one was checked against the catalog when it was opened; VFs and bridges of the
// adapter have ids of their own, the vendor is the same). A function of another vendor at that
// address means the tree is not what it seems: nothing is touched.
void check_functions_are_ours(const fs::path& dir, ResetPlan& plan) {
  for (const auto& f : plan.functions) {
    const fs::path fdir = dir.parent_path() / f.address.to_string();
    auto ids = read_pci_function_ids(fdir);
    if (ids && ids->vendor == kPciVendorMellanox) continue;
    plan.blockers.push_back({ErrorCode::InvalidArgument,
                             ids ? f.address.to_string() + " shares the device with " + dir.filename().string() + " but is " +
                                       describe_pci_function(*ids) + ", not a function of vendor 0x15b3: not resetting"
                                 : ids.error().message()});
  }
}

void plan_pci(Device& device, const ResetOptions& options, ResetPlan& plan) {
  const fs::path& dir = device.pci_dir();
  plan.functions = device_functions(dir);
  check_functions_are_ours(dir, plan);
  if (options.level != 3 && options.level != 4) {
    plan.blockers.push_back({ErrorCode::InvalidArgument, "reset level " + std::to_string(options.level) +
                                                             ": use 3 (PCI reset now) or 4 (armed for the next warm reboot)"});
    return;
  }
  plan_firmware_reset(device, options, plan);
  if (options.level == 4) {
    plan.resets_now = false;
    plan.method = "arm the firmware reset (MFRL level 4, warm reboot): the new firmware runs after the host's next "
                  "warm reboot; nothing is reset now";
    return;
  }
  std::error_code ec;
  if (!fs::exists(dir / "reset", ec))
    plan.blockers.push_back({ErrorCode::NotSupported, (dir / "reset").string() + " does not exist: the kernel cannot reset this function"});
  if (const auto methods = read_reset_methods(dir)) {
    if (lists_method(*methods, "bus")) {
      plan.pci_reset_method = "bus";
    } else {
      plan.blockers.push_back({ErrorCode::NotSupported, "the kernel offers no bus reset of " + dir.filename().string() +
                                                            " (reset_method: " + *methods + "; another function shares its bus), "
                                                            "and a function-level reset does not reload firmware"});
    }
  }
  plan.method = std::string(plan.firmware_reset ? "arm the firmware reset (MFRL level 3), then " : "") +
                (plan.pci_reset_method == "bus" ? "a secondary bus reset by the upstream bridge (reset_method bus, "
                                                : "a PCI reset (the kernel chooses how, ") +
                (dir / "reset").string() + "); the config space of every function is saved before and restored after";
  for (const auto& f : plan.functions) {
    if (f.driver.empty() || options.unbind_drivers) continue;
    plan.blockers.push_back({ErrorCode::Busy, "driver " + f.driver + " is bound to " + f.address.to_string() +
                                                  ": unload it, or let the reset unbind and bind it again (--unbind)"});
  }
}

}  // namespace

void plan_pci_reset(Device& device, const ResetOptions& options, ResetPlan& plan) { plan_pci(device, options, plan); }

void plan_bus_server_reset(Device& device, const ResetOptions& options, ResetPlan& plan) {
  plan_remote(device, options, plan);
}

Result<std::vector<std::string>> reset_pci_now(Device& device, const ResetPlan& plan, const ResetOptions& options) {
  return reset_pci(device, plan, options);
}

Result<ResetPlan> plan_reset(Device& device, const ResetOptions& options) {
  ResetPlan plan;
  plan.device = device.name();
  plan.device_type = std::string(device.info().name);
  plan.running_before = device.running_firmware();
  device.transport().plan_reset(device, options, plan);
  return plan;
}

Result<ResetReport> run_reset(Device& device, const ResetPlan& plan, const ResetOptions& options) {
  if (!plan.blockers.empty()) return make_error(plan.blockers.front().code, plan.blockers.front().why);
  // Unbind, arm, reset, wait for the function, restore its config, bind again: a stop signal
  // (core/Interrupt.h) waits for the end (bounded by the comeback timeout) — stopping half way
  // would leave the function unconfigured and its driver unbound.
  const UninterruptibleSection whole_reset;
  const auto start = Clock::now();
  ResetReport report;
  report.plan = plan;
  if (plan.by_server) {
    OF_ASSIGN(report.restored, device.transport().reset_as_planned(device, plan, options));
  } else if (!plan.resets_now) {
    OF_TRY(arm_mfrl(device, plan.firmware_reset->level));
  } else {
    OF_ASSIGN(report.restored, device.transport().reset_as_planned(device, plan, options));
  }
  report.running_after = device.running_firmware();
  report.took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
  return report;
}

}  // namespace openflint
