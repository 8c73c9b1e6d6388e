// DeviceListing: sysfs facts, catalog lookups and one hw-id read per access method.
#include "fwops/DeviceListing.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <system_error>

#include "core/HexString.h"
#include "devices/DeviceCatalog.h"
#include "devices/FlashGatewayInfo.h"
#include "fwops/Device.h"
#include "fwops/HostAccess.h"

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

// One method, opened as every tool opens it (fwops/open_pci_device: the per-device lock, the hw
// id checked against the catalog), so a probe never interleaves with another tool's gateway
// accesses — the 0x58 window has no semaphore of its own.
AccessProbe probe(const std::string& name, const fs::path& root) {
  DeviceOpenOptions options;
  options.sysfs_root = root;
  options.lock_timeout = kLockWait;
  auto device = open_pci_device(name, options);
  if (!device) return probe_word(make_error(std::move(device).error()));
  AccessProbe p = probe_word(device->access().read32(kHwIdAddr));
  p.running = device->running_firmware();  // read at open: MGIR, no flash access
  return p;
}

AccessProbe probe_bar(const PciAddress& address, const fs::path& root, const std::string& lockdown) {
  std::error_code ec;
  if (!fs::exists(root / "devices" / address.to_string() / "resource0", ec)) {
    AccessProbe p;
    p.reason = "no resource0 (BAR0 not exposed)";
    return p;
  }
  AccessProbe p = probe("pcicr-" + address.to_string(), root);
  if (!p.works && lockdown != "none" && !lockdown.empty()) p.reason += " (kernel lockdown: " + lockdown + ")";
  return p;
}

void identify(PciDeviceStatus& s) {
  bool recovery = false;
  if (auto info = find_device_by_pci_id(s.function.device_id, &recovery)) {
    s.info = *info;
    s.recovery = recovery;
    return;
  }
  // An id the catalog does not know (a compatibility id, say): the hw id still tells the ASIC.
  for (const AccessProbe* p : {&s.bar, &s.config}) {
    if (!p->hw_id_word) continue;
    auto info = find_device_by_hw_id(static_cast<std::uint16_t>(*p->hw_id_word & 0xffff),
                                     static_cast<std::uint8_t>((*p->hw_id_word >> 16) & 0xff));
    if (info) {
      s.info = *info;
      return;
    }
  }
}

}  // namespace

Result<std::vector<PciDeviceStatus>> list_pci_devices(const fs::path& sysfs_root, const ListingOptions& options) {
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
      s.config = probe("pciconf-" + f.address.to_string(), sysfs_root);
      s.bar = probe_bar(f.address, sysfs_root, lockdown);
    } else {
      s.config.reason = s.bar.reason = "not probed";
    }
    identify(s);
    const fs::path driver = fs::read_symlink(dir / "driver", ec);
    if (!ec) s.driver = driver.filename().string();
    s.rdma = entries_of(dir / "infiniband");
    s.net = entries_of(dir / "net");
    if (auto numa = read_sysfs_number(dir / "numa_node"); numa && *numa < 0x10000) s.numa_node = static_cast<int>(*numa);
    for (const AccessProbe* p : {&s.config, &s.bar}) {
      if (s.fw_version.empty() && p->running && p->running->image && p->running->image->fw_version) {
        s.fw_version = p->running->image->fw_version->to_string();
        s.fw_source = "mgir";
      }
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
