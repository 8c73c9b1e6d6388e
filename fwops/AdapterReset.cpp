// AdapterReset: plan (checks, functions, drivers) and run (unbind, save, reset, wait, restore, bind).
#include "fwops/AdapterReset.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <system_error>
#include <thread>

#include "core/HexString.h"
#include "devices/DeviceInfo.h"
#include "mtcr/PciConfigFile.h"

namespace openflint {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr std::uint8_t kPcieCapabilityId = 0x10;
constexpr std::uint16_t kVendorMellanox = 0x15b3;

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
    if (config && (config_dword(*config, 0) & 0xffff) == kVendorMellanox) return config;
    if (!config) last = config.error().message();
    else last = "vendor/device reads " + hex_string(config_dword(*config, 0));
    if (Clock::now() >= deadline)
      return make_error(ErrorCode::Timeout, dir.filename().string() + " did not come back within " +
                                                std::to_string(timeout.count()) + " ms after the reset (" + last + ")");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

struct ConfigRegister {
  const char* name;
  std::uint32_t offset;
  std::uint32_t mask;  // the bits written back; the rest of the dword is written as 0 (RW1C status bits)
};

// The host-assigned registers a reset clears, in restore order (BARs before the command register
// enables decoding). Never 0x58..0x5f (the CR-space window) nor the vendor capability.
std::vector<ConfigRegister> restorable(const std::vector<std::uint8_t>& saved) {
  std::vector<ConfigRegister> regs;
  static const char* const kBars[] = {"BAR0", "BAR1", "BAR2", "BAR3", "BAR4", "BAR5"};
  for (std::uint32_t i = 0; i < 6; ++i) regs.push_back({kBars[i], 0x10 + 4 * i, 0xffffffff});
  regs.push_back({"cache line size/latency timer", 0x0c, 0x0000ffff});
  regs.push_back({"interrupt line", 0x3c, 0x000000ff});
  if (const std::uint32_t pcie = find_pci_capability(saved, kPcieCapabilityId); pcie != 0) {
    regs.push_back({"PCIe device control", pcie + 0x08, 0x0000ffff});
    regs.push_back({"PCIe link control", pcie + 0x10, 0x0000ffff});
    regs.push_back({"PCIe device control 2", pcie + 0x28, 0x0000ffff});
  }
  regs.push_back({"command", 0x04, 0x0000ffff});
  return regs;
}

Result<std::vector<std::string>> restore_config(const fs::path& dir, const std::vector<std::uint8_t>& saved,
                                                const std::vector<std::uint8_t>& now) {
  std::vector<std::string> written;
  for (const auto& r : restorable(saved)) {
    if (r.offset + 4 > saved.size()) continue;
    const std::uint32_t want = config_dword(saved, r.offset) & r.mask;
    if ((config_dword(now, r.offset) & r.mask) == want) continue;
    OF_TRY(write_pci_config32(dir, r.offset, want));
    written.push_back(dir.filename().string() + " " + r.name);
  }
  OF_ASSIGN(const auto after, read_pci_config(dir));
  for (const auto& r : restorable(saved)) {
    if (r.offset + 4 > saved.size() || r.offset + 4 > after.size()) continue;
    const std::uint32_t want = config_dword(saved, r.offset) & r.mask;
    const std::uint32_t got = config_dword(after, r.offset) & r.mask;
    // BARs read back masked by their size; compare what the device keeps of what was written.
    if (got != want && std::string_view(r.name).starts_with("BAR") == false)
      return make_error(ErrorCode::Io, dir.filename().string() + ": " + r.name + " reads " + hex_string(got) +
                                           " after restoring " + hex_string(want));
  }
  return written;
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
    OF_TRY(device.reset());
    std::vector<std::string> restored;
    for (const auto& [bdf, bytes] : saved) {
      const fs::path fdir = dir.parent_path() / bdf;
      OF_ASSIGN(const auto now, wait_for_function(fdir, options.comeback_timeout));
      OF_ASSIGN(auto written, restore_config(fdir, bytes, now));
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

}  // namespace

Result<ResetPlan> plan_reset(Device& device, const ResetOptions& options) {
  ResetPlan plan;
  plan.device = device.name();
  plan.device_type = std::string(device.info().name);
  plan.running_before = device.running_firmware();
  if (sim::SimDevice* sim = device.simulator()) {
    plan.method = "power-on reset of the simulated device: its boot ROM runs what the flash holds";
    if (!sim->powered()) plan.blockers.push_back({ErrorCode::Io, device.name() + " is powered off: run 'hcasim power-on'"});
    return plan;
  }
  if (!device.pci_dir().empty()) {
    const fs::path& dir = device.pci_dir();
    plan.method = "PCI function reset through " + (dir / "reset").string() +
                  "; the config space of every function is saved before and restored after";
    plan.functions = device_functions(dir);
    std::error_code ec;
    if (!fs::exists(dir / "reset", ec))
      plan.blockers.push_back({ErrorCode::NotSupported, (dir / "reset").string() + " does not exist: the kernel cannot reset this function"});
    for (const auto& f : plan.functions) {
      if (f.driver.empty() || options.unbind_drivers) continue;
      plan.blockers.push_back({ErrorCode::Busy, "driver " + f.driver + " is bound to " + f.address.to_string() +
                                                    ": unload it, or let the reset unbind and bind it again (--unbind)"});
    }
    return plan;
  }
  if (device.info().kind == DeviceKind::Switch) {
    plan.method = "in-band software reset of the switch (vendor MAD); the running firmware is read again after it";
    return plan;
  }
  plan.method = "none in-band";
  plan.blockers.push_back({ErrorCode::NotSupported, "in-band reset exists for switches only: reset this " + plan.device_type +
                                                        " over PCI on its host (mst reset BDF)"});
  return plan;
}

Result<ResetReport> run_reset(Device& device, const ResetPlan& plan, const ResetOptions& options) {
  if (!plan.blockers.empty()) return make_error(plan.blockers.front().code, plan.blockers.front().why);
  const auto start = Clock::now();
  ResetReport report;
  report.plan = plan;
  if (!device.pci_dir().empty()) {
    OF_ASSIGN(report.restored, reset_pci(device, plan, options));
  } else {
    OF_TRY(device.reset());
  }
  report.running_after = device.running_firmware();
  report.took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
  return report;
}

}  // namespace openflint
