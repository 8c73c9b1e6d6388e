// DeviceOpener: turns a device name into an opened Device (sim:PATH, remote, PCI or an in-band route).
#include <system_error>

#include "devices/DeviceCatalog.h"
#include "core/EchoedName.h"
#include "core/HexString.h"
#include "fwops/Device.h"
#include "fwops/MgirQuery.h"
#include "fwops/StaleLocks.h"
#include "mtcr/IcmdRegisterPort.h"
#include "mtcr/InbandDeviceName.h"
#include "mtcr/InbandI2cAccess.h"
#include "mtcr/InbandRegisterPort.h"
#include "mtcr/MgirRegister.h"
#include "mtcr/PciAddress.h"
#include "mtcr/PciConfigAccess.h"
#include "mtcr/PciConfigFile.h"
#include "mtcr/PciDeviceName.h"
#include "mtcr/PciFunctionReset.h"
#include "mtcr/RemoteDeviceName.h"
#include "mtcr/RemoteRegisterPort.h"
#include "mtcr/ToolsHcrRegisterPort.h"
#include "sim/SimRegisterPort.h"

namespace openflint {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kSimPrefix = "sim:";
// No name of any form is longer than a path (PATH_MAX) with a prefix ("sim:", "HOST:PORT,"): a
// longer one is refused before any message repeats it whole.
constexpr std::size_t kMaxDeviceNameBytes = 4096 + 256;
constexpr std::string_view kForms =
    "sim:PATH (a simulated device made with 'hcasim create'), a PCI device (DDDD:BB:DD.F, BB:DD.F, "
    "pciconf-BDF, pcicr-BDF, mtNNNN_pciconfK, mtNNNN_pci_crK, mlx5_N), lid-N[,ca[,port]], iblid-N, ibdr-a.b.c, "
    "HOST:PORT,DEVICE (a device served by mstmtserver, '/' in DEVICE written as '@'), ssh:[USER@]HOST[:PORT]/DEVICE";

Result<fs::path> sim_dir_of(std::string_view name) {
  const std::string_view path = name.substr(kSimPrefix.size());
  if (path.empty()) return make_error(ErrorCode::InvalidArgument, "device name 'sim:' lacks a PATH");
  return fs::path(path);
}

Result<void> check_sim_exists(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return make_error(ErrorCode::NotFound, "no simulated device at " + dir.string() +
                                               ": not a directory (create one with 'hcasim create --model MODEL " +
                                               dir.string() + "')");
  }
  if (!fs::exists(dir / "state.json", ec)) {
    return make_error(ErrorCode::NotFound, "no simulated device at " + dir.string() +
                                               ": state.json missing (create one with 'hcasim create')");
  }
  return {};
}

}  // namespace

std::string_view accepted_device_forms() { return kForms; }

Result<Device> create_sim_device(const fs::path& dir, std::string_view model, std::string_view chip_name,
                                 const DeviceOpenOptions& options) {
  std::error_code ec;
  if (fs::exists(dir / "state.json", ec)) {
    return make_error(ErrorCode::InvalidArgument, dir.string() + " already holds a simulated device");
  }
  fs::create_directories(dir, ec);
  if (ec) return make_error(ErrorCode::Io, "cannot create " + dir.string() + ": " + ec.message());
  OF_ASSIGN(const DeviceInfo* info, find_device_by_sim_model(model));
  const FlashChip* chip = nullptr;
  if (!chip_name.empty()) {
    OF_ASSIGN(chip, find_flash_chip_by_name(chip_name));
  }
  Device device;
  device.name_ = std::string(kSimPrefix) + dir.string();
  OF_ASSIGN(DeviceLockFile lock, DeviceLockFile::acquire(dir / "lock", options.lock_timeout, device.name_));
  // Asked again under the lock, which a creator holds until its state.json is saved: of two
  // creates racing on one path, the later one finds the earlier one's device and fails.
  if (fs::exists(dir / "state.json", ec)) {
    return make_error(ErrorCode::InvalidArgument, dir.string() + " already holds a simulated device");
  }
  device.lock_ = std::move(lock);
  OF_ASSIGN(device.sim_, sim::SimDevice::create(*info, chip));
  device.info_ = info;
  device.access_ = device.sim_.get();
  device.sim_dir_ = dir;
  return device;
}

Result<Device> open_device(std::string_view name, const DeviceOpenOptions& options) {
  if (name.size() > kMaxDeviceNameBytes)
    return make_error(ErrorCode::InvalidArgument, "device name " + echoed_name(name) + " is too long (at most " +
                                                      std::to_string(kMaxDeviceNameBytes) + " bytes)");
  Device device;
  device.name_ = std::string(name);
  if (name.starts_with(kSimPrefix)) {
    OF_ASSIGN(fs::path dir, sim_dir_of(name));
    OF_TRY(check_sim_exists(dir));
    OF_ASSIGN(DeviceLockFile lock, DeviceLockFile::acquire(dir / "lock", options.lock_timeout, device.name_));
    device.lock_ = std::move(lock);
    OF_ASSIGN(device.sim_, sim::SimDevice::load_state(dir));
    device.info_ = &device.sim_->info();
    device.access_ = device.sim_.get();
    device.sim_dir_ = dir;
    return device;
  }
  // Remote names before PCI ones: "host:23108,@dev@mst@mt4115_pciconf0" ends in an MST name.
  OF_ASSIGN(const std::optional<RemoteDeviceName> remote, parse_remote_device_name(name));
  if (remote) return open_remote_device(name, *remote, options);
  if (is_pci_device_name(name, options.sysfs_root.empty() ? default_sysfs_root() : options.sysfs_root))
    return open_pci_device(name, options);
  if (is_inband_device_name(name)) {
    auto opened = options.channel ? InbandAccess::open(name, InbandAccess::Options{}, options.channel)
                                  : InbandAccess::open(name);
    if (!opened) return make_error(std::move(opened).error());
    InbandAccess inband = std::move(*opened);
    device.inband_ = std::make_unique<InbandRegisterAccess>(std::move(inband));
    device.access_ = device.inband_.get();
    OF_ASSIGN(const DeviceInfo* info, identify_device(*device.access_, device.name_));
    device.info_ = info;  // the running firmware (MGIR) is read on first use
    return device;
  }
  // An RDMA name that is not there (no driver loaded, a typo in the number): absent, not unknown.
  if (looks_like_rdma_device_name(name)) return open_pci_device(name, options);
  return make_error(ErrorCode::InvalidArgument,
                    "unknown device name " + echoed_name(name) + ": accepted forms are " + std::string(kForms));
}

Result<const DeviceInfo*> identify_device(RegisterAccess& access, const std::string& device_name) {
  auto hw = access.read32(kHwIdAddr);
  if (!hw) return make_error(std::move(hw).error().with_context(device_name + ": reading the hw id"));
  auto info = find_device_by_hw_id(static_cast<std::uint16_t>(*hw & 0xffff), static_cast<std::uint8_t>((*hw >> 16) & 0xff));
  if (info && (*info)->hw_id_addr == kHwIdAddr) return *info;
  // Parts whose hw id register sits elsewhere (InfiniScale III: 0x60014): ask each such address
  // the catalog names, and take a record only where its own register answers with its id.
  for (const DeviceInfo& d : all_devices()) {
    if (d.hw_id_addr == kHwIdAddr) continue;
    auto word = access.read32(d.hw_id_addr);
    if (word && (*word & 0xffff) == d.hw_id) return &d;
  }
  if (!info) return make_error(std::move(info).error().with_context(device_name));
  return make_error(ErrorCode::NotFound, device_name + ": unknown hw device id " + hex_string(*hw & 0xffff));
}

Result<void> Device::reset() {
  if (sim_) {
    if (!sim_->powered()) return make_error(ErrorCode::Io, name_ + " is powered off: run 'hcasim power-on'");
    (void)sim_->reset();
    return {};
  }
  if (pci_) {
    if (auto r = reset_pci_function(pci_dir_); !r) return make_error(std::move(r).error().with_context(name_));
    invalidate_running_firmware();  // read again when asked: after the caller restored config space
    return {};
  }
  if (remote_) {
    return make_error(ErrorCode::NotSupported,
                      "resetting " + name_ + ": not over the bus-server protocol (reset the device on its host)");
  }
  if (info_->kind == DeviceKind::Switch) {
    OF_TRY(inband_->inband().sw_reset());
    invalidate_running_firmware();
    return {};
  }
  return make_error(ErrorCode::NotSupported,
                    "resetting " + std::string(info_->name) + " at " + name_ +
                        ": in-band reset exists for switches only (adapters need a PCI-level reset)");
}

Result<void> Device::power_on() {
  if (!sim_) return make_error(ErrorCode::NotSupported, name_ + ": power control exists for simulated devices only");
  sim_->power_cycle();  // runs the boot ROM
  return {};
}

Result<RegisterPort*> Device::register_port() {
  if (!port_) {
    if (auto opened = open_register_port(); !opened)
      return make_error(with_stale_lock_advice(*this, std::move(opened).error()));
  }
  return port_.get();
}

Result<void> Device::open_register_port() {
  if (sim_) {
    port_ = std::make_unique<sim::SimRegisterPort>(*sim_);
  } else if (inband_) {
    port_ = std::make_unique<InbandRegisterPort>(inband_->inband());
  } else if (remote_) {
    auto remote = RemoteRegisterPort::open(*remote_);
    if (!remote) return make_error(std::move(remote).error().with_context(name_));
    port_ = std::move(*remote);
  } else if (info_->tools_hcr != nullptr && info_->pci_config_gateway != PciConfigGateway::Vsec) {
    // A pre-VSEC part has no ICMD; its firmware's tools HCR sits in CR-space. Like mstflint
    // (mpci_change), commands go through the config-space window even when the device was
    // opened through its BAR: the HCR's semaphore is taken by a read, which the window carries.
    auto address = parse_pci_address(pci_dir_.filename().string());
    if (!address) return make_error(ErrorCode::InvalidArgument, name_ + ": no PCI address for the tools HCR");
    auto config = PciConfigAccess::open(*address, pci_dir_.parent_path().parent_path());
    if (!config) return make_error(std::move(config).error().with_context(name_ + ": config space for the tools HCR"));
    command_access_ = std::move(*config);
    auto hcr = ToolsHcrRegisterPort::open(*command_access_, *info_->tools_hcr);
    if (!hcr) return make_error(std::move(hcr).error().with_context(name_));
    port_ = std::move(*hcr);
  } else {
    auto icmd = IcmdRegisterPort::open(pci_dir_);
    if (!icmd) return make_error(std::move(icmd).error().with_context(name_));
    port_ = std::move(*icmd);
  }
  return {};
}

Result<I2cAccess*> Device::i2c() {
  // The simulator's I2C master; in-band, ExtPortAccess MADs (fwops/InbandRegisterAccess.h): the
  // same bus the flash driver reaches through the device's RegisterAccess.
  if (access_ != nullptr && access_->i2c() != nullptr) return access_->i2c();
  return make_error(ErrorCode::NotSupported, name_ + ": no I2C bus is reachable through this device name");
}

std::optional<RunningFirmware> Device::running_firmware() {
  if (!sim_) {
    if (!mgir_read_) {
      if (remote_) {
        auto port = register_port();  // NotSupported from a legacy server: the running firmware stays unknown
        mgir_running_ = port ? query_running(**port, *info_) : std::nullopt;
      } else {
        mgir_running_ = pci_ ? query_running_pci(pci_dir_, *info_) : query_running_inband(inband_->inband(), *info_);
      }
      mgir_read_ = true;
    }
    return mgir_running_;
  }
  const sim::BootState& boot = sim_->boot_state();
  RunningFirmware running;
  running.recovery = boot.recovery;
  if (!boot.recovery) running.booted_copy = boot.booted_address;
  running.image = boot.running;
  return running;
}

Result<void> Device::commit() {
  if (!sim_) {
    if (pci_dir_.empty()) return {};
    auto synced = sync_pci_config(pci_dir_);  // a served tree's save point; nothing on the kernel's sysfs
    if (!synced) return make_error(std::move(synced).error().with_context(name_));
    return {};
  }
  if (auto saved = sim_->save_state(sim_dir_); !saved) return make_error(std::move(saved).error().with_context("saving " + name_));
  return {};
}

}  // namespace openflint
