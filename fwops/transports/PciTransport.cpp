// PciTransport: a PCI function by name (BAR0 or config space), locked per device; ICMD or the tools HCR for registers.
#include <unistd.h>

#include <cstdlib>
#include <functional>
#include <system_error>

#include "core/HexString.h"
#include "devices/DeviceCatalog.h"
#include "fwops/registers/AdapterReset.h"
#include "fwops/Device.h"
#include "fwops/registers/FirmwareResetRegister.h"
#include "fwops/registers/MgirQuery.h"
#include "fwops/access/StaleLocks.h"
#include "fwops/transports/Transports.h"
#include "mtcr/pci/IcmdAccess.h"
#include "mtcr/pci/IcmdRegisterPort.h"
#include "mtcr/pci/PciAddress.h"
#include "mtcr/pci/PciBarAccess.h"
#include "mtcr/pci/PciConfigAccess.h"
#include "mtcr/pci/PciConfigFile.h"
#include "mtcr/pci/PciDeviceName.h"
#include "mtcr/pci/PciFunctionList.h"
#include "mtcr/pci/PciFunctionReset.h"
#include "mtcr/pci/PciVpd.h"
#include "mtcr/ToolsHcrRegisterPort.h"

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
  // without following links: fwops/access/DeviceLockFile).
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

// The running firmware's register port of the function at `dir`: on a pre-VSEC part whose catalog
// record has a tools HCR (ConnectX-3) the HCR in CR-space, whose commands go through the
// config-space window (kept in `command_access`, which must outlive the port) even when the
// device was opened through its BAR, like mstflint's mpci_change: the HCR's semaphore is taken
// by a read, which the window carries. Else the ICMD mailbox.
Result<std::unique_ptr<RegisterPort>> open_pci_register_port(const fs::path& dir, const Device& device,
                                                             std::unique_ptr<RegisterAccess>& command_access) {
  const DeviceInfo& info = device.info();
  if (info.tools_hcr != nullptr && info.pci_config_gateway != PciConfigGateway::Vsec) {
    auto address = parse_pci_address(dir.filename().string());
    if (!address) return make_error(ErrorCode::InvalidArgument, device.name() + ": no PCI address for the tools HCR");
    auto config = PciConfigAccess::open(*address, dir.parent_path().parent_path());
    if (!config) return make_error(std::move(config).error().with_context(device.name() + ": config space for the tools HCR"));
    command_access = std::move(*config);
    auto hcr = ToolsHcrRegisterPort::open(*command_access, *info.tools_hcr);
    if (!hcr) return make_error(std::move(hcr).error().with_context(device.name()));
    return std::unique_ptr<RegisterPort>(std::move(*hcr));
  }
  auto icmd = IcmdRegisterPort::open(dir);
  if (!icmd) return make_error(std::move(icmd).error().with_context(device.name()));
  return std::unique_ptr<RegisterPort>(std::move(*icmd));
}

// One ICMD command on the function at `dir`, through a config-space handle opened for it (each
// command takes the ICMD semaphore, so a register port kept open beside it is no conflict).
Result<std::vector<std::uint8_t>> pci_icmd_command(const fs::path& dir, std::uint16_t opcode, std::span<const std::uint8_t> in,
                                                   std::size_t out_bytes) {
  auto address = parse_pci_address(dir.filename().string());
  if (!address) return make_error(ErrorCode::InvalidArgument, dir.filename().string() + " is not a PCI address");
  OF_ASSIGN(auto config, PciConfigAccess::open(*address, dir.parent_path().parent_path()));
  if (config->gateway() != PciConfigGateway::Vsec)
    return make_error(ErrorCode::NotSupported, "no firmware command interface (ICMD) on this part");
  OF_ASSIGN(IcmdAccess icmd, IcmdAccess::open(*config));
  return icmd.command(opcode, in, out_bytes);
}

class PciTransport final : public DeviceTransport {
 public:
  PciTransport(std::unique_ptr<RegisterAccess> access, fs::path dir) : access_(std::move(access)), dir_(std::move(dir)) {}

  [[nodiscard]] RegisterAccess& access() override { return *access_; }
  [[nodiscard]] Result<std::unique_ptr<RegisterPort>> open_register_port(Device& device) override {
    return open_pci_register_port(dir_, device, command_access_);
  }
  // MGIR through a port opened for this query only.
  [[nodiscard]] std::optional<RunningFirmware> running_firmware(Device& device) override {
    std::unique_ptr<RegisterAccess> config;
    auto port = open_pci_register_port(dir_, device, config);
    if (!port) return std::nullopt;
    return query_running(**port, device.info());
  }
  // The function shows its flash-recovery ("livefish") id.
  [[nodiscard]] bool shows_no_firmware(Device& device) override {
    const std::uint16_t recovery_id = device.info().pci_recovery_id;
    return recovery_id != 0 && read_sysfs_number(dir_ / "device") == recovery_id;
  }

  [[nodiscard]] Result<void> reset(Device& device) override {
    if (auto r = reset_pci_function(dir_); !r) return make_error(std::move(r).error().with_context(device.name()));
    device.invalidate_running_firmware();  // read again when asked: after the caller restored config space
    return {};
  }
  void plan_reset(Device& device, const ResetOptions& options, ResetPlan& plan) override {
    plan_pci_reset(device, options, plan);
  }
  [[nodiscard]] Result<std::vector<std::string>> reset_as_planned(Device& device, const ResetPlan& plan,
                                                                  const ResetOptions& options) override {
    return reset_pci_now(device, plan, options);
  }
  // MFRL through ICMD, opened for each call.
  [[nodiscard]] Result<MfrlRegister> query_reset_register(Device& /*device*/) override {
    return openflint::query_reset_register(dir_);
  }
  [[nodiscard]] Result<MfrlRegister> arm_reset_register(Device& /*device*/, int level) override {
    return openflint::arm_reset_register(dir_, mfrl_level_bit(level), 0, 1);
  }

  [[nodiscard]] Result<std::vector<std::uint8_t>> vpd(Device& /*device*/) override { return read_pci_vpd(dir_); }
  // The function's config file is fsynced: a served tree's save point; nothing on the kernel's sysfs.
  [[nodiscard]] Result<void> commit(Device& device) override {
    if (auto synced = sync_pci_config(dir_); !synced) return make_error(std::move(synced).error().with_context(device.name()));
    return {};
  }
  [[nodiscard]] Result<std::vector<std::uint8_t>> firmware_command(Device& device, std::uint16_t opcode,
                                                                   std::span<const std::uint8_t> in,
                                                                   std::size_t out_bytes) override {
    auto answer = pci_icmd_command(dir_, opcode, in, out_bytes);
    if (!answer) return make_error(std::move(answer).error().with_context(device.name()));
    return answer;
  }
  [[nodiscard]] const fs::path& pci_dir() const override { return dir_; }

 private:
  std::unique_ptr<RegisterAccess> access_;
  fs::path dir_;                                    // <sysfs root>/devices/<BDF>
  std::unique_ptr<RegisterAccess> command_access_;  // config space the kept tools HCR port goes through
};

}  // namespace

bool transports::pci_matches(std::string_view name, const DeviceOpenOptions& options) {
  // An RDMA name that is not there (no driver loaded, a typo in the number) is still this
  // transport's: opening it says it is absent, not that the name is unknown.
  return is_pci_device_name(name, options.sysfs_root.empty() ? default_sysfs_root() : options.sysfs_root) ||
         looks_like_rdma_device_name(name);
}

Result<Device> open_pci_device(std::string_view name, const DeviceOpenOptions& options) {
  SignalDeferral opening;  // from the start of the opening (fwops/Device.h)
  const fs::path root = options.sysfs_root.empty() ? default_sysfs_root() : options.sysfs_root;
  std::string device_name(name);
  OF_ASSIGN(const PciDeviceName pci, resolve_pci_device_name(name, root));
  OF_ASSIGN(const fs::path lock, lock_path(pci.address, root));
  OF_ASSIGN(DeviceLockFile held, DeviceLockFile::acquire(lock, options.lock_timeout, device_name));
  std::vector<ReclaimedLock> reclaimed;
  if (options.clear_gateway_semaphore) {
    if (auto cleared = clear_gateway_semaphore(pci, root, reclaimed); !cleared)
      return make_error(std::move(cleared).error().with_context(device_name + ": freeing the VSEC gateway semaphore"));
  }
  auto access = open_access(pci, root);
  if (!access) return make_error(std::move(access).error().with_context(device_name));
  auto transport = std::make_unique<PciTransport>(std::move(*access), root / "devices" / pci.address.to_string());
  auto info = identify_device(transport->access(), device_name);
  if (!info) return make_error(with_stale_lock_advice(device_name, true, std::move(info).error()));
  // The running firmware (MGIR over ICMD) is read on first use.
  return Device::over(std::move(opening), std::move(device_name), std::move(transport), **info, std::move(held),
                      std::move(reclaimed));
}

}  // namespace openflint
