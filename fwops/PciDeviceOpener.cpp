// PciDeviceOpener: opens a PCI device by name (BAR0 or config space), locked per device.
#include <unistd.h>

#include <cstdlib>
#include <functional>
#include <system_error>

#include "core/HexString.h"
#include "devices/DeviceCatalog.h"
#include "fwops/Device.h"
#include "fwops/StaleLocks.h"
#include "mtcr/PciBarAccess.h"
#include "mtcr/PciConfigAccess.h"
#include "mtcr/PciDeviceName.h"

namespace openflint {
namespace {

namespace fs = std::filesystem;

// One lock file per function and sysfs root, in a root-owned run directory (not a world-writable
// /tmp): OPENFLINT_RUN_DIR, else /run/openflint. Every tool opening the function takes it, so
// flint, fwburn, ibfwmgr and mst serialize on it whatever path (BAR or config) each uses.
Result<fs::path> lock_path(const PciAddress& address, const fs::path& sysfs_root) {
  const char* env = std::getenv("OPENFLINT_RUN_DIR");
  const fs::path dir = fs::path(env != nullptr && *env != '\0' ? env : "/run/openflint") / "locks";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return make_error(ErrorCode::PermissionDenied, "cannot create the lock directory " + dir.string() + ": " + ec.message() +
                                                             (::geteuid() != 0 ? " (run as root, or set OPENFLINT_RUN_DIR)"
                                                                               : " (or set OPENFLINT_RUN_DIR)"));
  // A link planted in place of the directory is not followed (the lock file itself is opened
  // without following links: fwops/DeviceLockFile).
  if (fs::is_symlink(fs::symlink_status(dir, ec)))
    return make_error(ErrorCode::Io, "lock directory " + dir.string() + " is a symbolic link: not following it");
  std::string name = address.to_string();
  if (sysfs_root != fs::path("/sys/bus/pci"))  // another tree (a served simulator): its own lock
    name += "@" + hex_string(std::hash<std::string>{}(fs::absolute(sysfs_root).lexically_normal().string()));
  return dir / (name + ".lock");
}

// The BAR (NotSupported etc. when it cannot serve CR-space) or config space, as `method` says.
Result<std::unique_ptr<RegisterAccess>> open_access(const PciDeviceName& pci, const fs::path& root) {
  const fs::path dir = root / "devices" / pci.address.to_string();
  std::string bar_problem;
  if (pci.method != PciMethod::Config) {
    auto bar = PciBarAccess::open(dir);
    if (bar) return std::unique_ptr<RegisterAccess>(std::make_unique<PciBarAccess>(std::move(*bar)));
    if (pci.method == PciMethod::Bar || bar.error().code() == ErrorCode::PermissionDenied)
      return make_error(std::move(bar).error());
    bar_problem = bar.error().message();
  }
  auto config = PciConfigAccess::open(pci.address, root);
  if (!config) {
    Error e = std::move(config).error();
    return make_error(bar_problem.empty() ? std::move(e) : std::move(e).with_context("BAR: " + bar_problem + "; config space"));
  }
  return std::unique_ptr<RegisterAccess>(std::move(*config));
}

// clear_semaphore: a VSEC gateway semaphore left held is freed through config space (a write of 0
// to its register, not a gateway access), before anything reads CR-space through the gateway.
Result<void> clear_gateway_semaphore(const PciDeviceName& pci, const fs::path& root, std::vector<ReclaimedLock>& freed) {
  OF_ASSIGN(const auto config, PciConfigAccess::open(pci.address, root));
  if (config->gateway() != PciConfigGateway::Vsec) return {};  // the 0x58 window has no semaphore
  OF_ASSIGN(const std::uint32_t holder, config->gateway_semaphore());
  if (holder == 0) return {};
  OF_TRY(config->clear_gateway_semaphore());
  freed.push_back({"the VSEC gateway semaphore", "config " + hex_string(config->vsec_offset() + kVsecSemaphore) +
                                                     ", ticket " + hex_string(holder)});
  return {};
}

}  // namespace

Result<Device> open_pci_device(std::string_view name, const DeviceOpenOptions& options) {
  const fs::path root = options.sysfs_root.empty() ? default_sysfs_root() : options.sysfs_root;
  Device device;
  device.name_ = std::string(name);
  OF_ASSIGN(const PciDeviceName pci, resolve_pci_device_name(name, root));
  OF_ASSIGN(const fs::path lock, lock_path(pci.address, root));
  OF_ASSIGN(DeviceLockFile held, DeviceLockFile::acquire(lock, options.lock_timeout, device.name_));
  device.lock_ = std::move(held);
  if (options.clear_gateway_semaphore) {
    if (auto cleared = clear_gateway_semaphore(pci, root, device.reclaimed_at_open_); !cleared)
      return make_error(std::move(cleared).error().with_context(device.name_ + ": freeing the VSEC gateway semaphore"));
  }
  auto access = open_access(pci, root);
  if (!access) return make_error(std::move(access).error().with_context(device.name_));
  device.pci_ = std::move(*access);
  device.pci_dir_ = root / "devices" / pci.address.to_string();
  device.access_ = device.pci_.get();
  auto info = identify_device(*device.access_, device.name_);
  if (!info) return make_error(with_stale_lock_advice(device, std::move(info).error()));
  device.info_ = *info;  // the running firmware (MGIR over ICMD) is read on first use
  return device;
}

}  // namespace openflint
