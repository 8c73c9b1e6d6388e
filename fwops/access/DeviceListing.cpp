// DeviceListing: sysfs facts, catalog lookups, one open and one hw-id read per access method per function.
#include "fwops/access/DeviceListing.h"

#include "fwops/registers/NvConfig.h"
#include <algorithm>
#include <chrono>
#include <fstream>
#include <system_error>

#include "core/HexString.h"
#include "devices/DeviceCatalog.h"
#include "devices/FlashGatewayInfo.h"
#include "fwops/Device.h"
#include "fwops/access/HostAccess.h"
#include "fwops/registers/NvConfig.h"
#include "mtcr/pci/PciBarAccess.h"

namespace openflint {
namespace {

namespace fs = std::filesystem;

// Words a function answers when CR-space is not really reached (mtcr's conventions; 0 is no hw id).
constexpr std::uint32_t kNoDevice = 0xffffffff;
constexpr std::uint32_t kBadAccess = 0xbadacce5;
// A listing waits this long for a device another tool holds, then says so instead of waiting out a burn.
constexpr std::chrono::milliseconds kLockWait{200};

std::vector<std::string> entries_of(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    out.push_back(it->path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string first_line(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return {};
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

AccessProbe probe_word(Result<std::uint32_t> word) {
  AccessProbe p;
  if (!word) {
    p.reason = word.error().message();
  } else if (*word == 0 || *word == kNoDevice || *word == kBadAccess) {
    p.reason = "the hw id reads " + hex_string(*word) + " (CR-space not reached)";
  } else {
    p.works = true;
    p.hw_id_word = *word;
  }
  return p;
}

// A function is opened once, as every tool opens it (fwops/open_pci_device: the per-device lock,
// the hw id checked against the catalog), so a probe never interleaves with another tool's gateway
// accesses — the 0x58 window has no semaphore of its own. Config space is opened as a device;
// the BAR is then probed under the lock that device holds, and the running firmware is read once.
Result<Device> open_for_probe(const std::string& name, const fs::path& root) {
  DeviceOpenOptions options;
  options.sysfs_root = root;
  options.lock_timeout = kLockWait;
  return open_pci_device(name, options);
}

AccessProbe probe_opened(Device& device) { return probe_word(device.access().read32(kHwIdAddr)); }

// The BAR of a function whose lock the caller holds (through its config-space Device).
AccessProbe probe_bar_locked(const PciAddress& address, const fs::path& root) {
  auto bar = PciBarAccess::open(root / "devices" / address.to_string());
  if (!bar) return probe_word(make_error(std::move(bar).error().with_context("pcicr-" + address.to_string())));
  return probe_word(bar->read32(kHwIdAddr));
}

// The safety facts of an opened function (its flash query and firmware registers).
void read_listing_safety(PciDeviceStatus& s, Device& device) {
  auto facts = query_safety_facts(device);
  if (facts) {
    s.safety = std::move(*facts);
  } else {
    s.safety_error = facts.error().message();
  }
}

// Fills s.config, s.bar and s.running (and s.safety when asked).
void probe_function(PciDeviceStatus& s, const fs::path& root, const std::string& lockdown, bool safety) {
  const std::string bdf = s.function.address.to_string();
  auto config = open_for_probe("pciconf-" + bdf, root);
  s.config = config ? probe_opened(*config) : probe_word(make_error(config.error()));
  if (config) s.running = config->running_firmware();  // MGIR, no flash access
  if (config && s.running && !s.running->recovery) s.port_protocols = running_port_protocols(*config);
  if (safety) {
    if (config) read_listing_safety(s, *config);
    else s.safety_error = "not opened: " + config.error().message();
  }
  std::error_code ec;
  if (!fs::exists(root / "devices" / bdf / "resource0", ec)) {
    s.bar.reason = "no resource0 (BAR0 not exposed)";
    return;
  }
  if (config) {
    s.bar = probe_bar_locked(s.function.address, root);
  } else if (config.error().code() == ErrorCode::Busy || config.error().code() == ErrorCode::InvalidArgument) {
    s.bar = s.config;  // the same lock, or the same refusal (not a catalog function): trying again tells nothing new
  } else {  // config space failed: the BAR opens the function on its own
    auto bar = open_for_probe("pcicr-" + bdf, root);
    s.bar = bar ? probe_opened(*bar) : probe_word(make_error(bar.error()));
    if (bar) s.running = bar->running_firmware();
    if (bar && safety) {
      s.safety_error.clear();
      read_listing_safety(s, *bar);
    }
  }
  if (!s.bar.works && lockdown != "none" && !lockdown.empty()) s.bar.reason += " (kernel lockdown: " + lockdown + ")";
}

// The catalog record by PCI id. A function whose id the catalog does not list stays unknown:
// every tool refuses it (mtcr/pci/PciFunctionIds.h), so its hw id is never read either.
void identify(PciDeviceStatus& s) {
  bool recovery = false;
  if (auto info = find_device_by_pci_id(s.function.device_id, &recovery)) {
    s.info = *info;
    s.recovery = recovery;
  }
}

}  // namespace

Result<std::vector<PciDeviceStatus>> list_pci_devices(const fs::path& sysfs_root, const ListingOptions& options) {
  OF_TRY(check_sysfs_root(sysfs_root));
  std::error_code ec;
  if (!fs::is_directory(sysfs_root / "devices", ec))
    return make_error(ErrorCode::NotFound, "no PCI sysfs tree at " + sysfs_root.string() + " (" +
                                               (sysfs_root / "devices").string() + " is not a directory)");
  const std::string lockdown = kernel_lockdown_mode();
  std::vector<PciDeviceStatus> out;
  for (const MellanoxFunction& f : list_mellanox_functions(sysfs_root)) {
    PciDeviceStatus s;
    s.function = f;
    const fs::path dir = sysfs_root / "devices" / f.address.to_string();
    if (options.probe_access) {
      probe_function(s, sysfs_root, lockdown, options.safety_facts);
    } else {
      s.config.reason = s.bar.reason = "not probed";
    }
    identify(s);
    const fs::path driver = fs::read_symlink(dir / "driver", ec);
    if (!ec) s.driver = driver.filename().string();
    s.rdma = entries_of(dir / "infiniband");
    s.net = entries_of(dir / "net");
    if (auto numa = read_sysfs_number(dir / "numa_node"); numa && *numa < 0x10000) s.numa_node = static_cast<int>(*numa);
    if (s.running && s.running->image && s.running->image->fw_version) {
      s.fw_version = s.running->image->fw_version->to_string();
      s.fw_source = "mgir";
    }
    if (s.fw_version.empty() && !s.rdma.empty()) {
      s.fw_version = first_line(dir / "infiniband" / s.rdma.front() / "fw_ver");
      if (!s.fw_version.empty()) s.fw_source = "driver";
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace openflint
