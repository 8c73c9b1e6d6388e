// DeviceOpener: turns a device name into an opened Device through the transport table (fwops/transports/).
#include <span>

#include "devices/DeviceCatalog.h"
#include "core/EchoedName.h"
#include "core/HexString.h"
#include "fwops/Device.h"
#include "fwops/access/StaleLocks.h"
#include "fwops/transports/Transports.h"

namespace openflint {
namespace {

// No name of any form is longer than a path (PATH_MAX) with a prefix ("sim:", "HOST:PORT,"): a
// longer one is refused before any message repeats it whole.
constexpr std::size_t kMaxDeviceNameBytes = 4096 + 256;

// One row per transport (flashrom's programmer table): whether a name is of its forms, how to
// open it, and its forms as help and error messages list them. Tried in this order: sim:PATH
// first; name:NODE before the remote names; remote names before PCI ones ("host:23108,@dev@mst@mt4115_pciconf0" ends in an MST name).
struct TransportRow {
  bool (*matches)(std::string_view name, const DeviceOpenOptions& options);
  Result<Device> (*open)(std::string_view name, const DeviceOpenOptions& options);
  std::string_view form;
};

constexpr TransportRow kTransports[] = {
    {transports::sim_matches, transports::open_sim, "sim:PATH (a simulated device made with 'hcasim create')"},
    {transports::replay_matches, transports::open_replay, "replay:FILE (a session recorded with --record FILE)"},
    {transports::name_matches, transports::open_name,
     "name:NODE (a system name the ibadm name server resolves, docs/ibadm.md)"},
    {transports::remote_matches, transports::open_remote,
     "HOST:PORT,DEVICE (a device served by mstmtserver, '/' in DEVICE written as '@'), ssh:[USER@]HOST[:PORT]/DEVICE"},
    {transports::pci_matches, open_pci_device,
     "a PCI device (DDDD:BB:DD.F, BB:DD.F, pciconf-BDF, pcicr-BDF, mtNNNN_pciconfK, mtNNNN_pci_crK, mlx5_N)"},
    {transports::inband_matches, transports::open_inband, "lid-N[,ca[,port]], iblid-N, ibdr-a.b.c"},
};

std::string join_forms(std::span<const TransportRow> rows) {
  std::string out;
  for (const TransportRow& row : rows) out += (out.empty() ? "" : ", ") + std::string(row.form);
  return out;
}

}  // namespace

std::string_view accepted_device_forms() {
  static const std::string forms = join_forms(kTransports);
  return forms;
}

Result<Device> open_device(std::string_view name, const DeviceOpenOptions& options) {
  if (name.size() > kMaxDeviceNameBytes)
    return make_error(ErrorCode::InvalidArgument, "device name " + echoed_name(name) + " is too long (at most " +
                                                      std::to_string(kMaxDeviceNameBytes) + " bytes)");
  for (const TransportRow& row : kTransports) {
    if (!row.matches(name, options)) continue;
    // OPENFLINT_RECORD or --record: every opened device is recorded (fwops/recording/SessionRecording.h).
    OF_ASSIGN(SessionLog* log, active_session_log());
    OF_ASSIGN(Device device, row.open(name, options));
    // name:NODE opened its resolved name through this function, which recorded it already.
    if (log != nullptr && row.open != transports::open_name) OF_TRY(transports::record_session(device, *log));
    return device;
  }
  return make_error(ErrorCode::InvalidArgument, "unknown device name " + echoed_name(name) + ": accepted forms are " +
                                                    std::string(accepted_device_forms()));
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

Device Device::over(SignalDeferral opening, std::string name, std::unique_ptr<DeviceTransport> transport,
                    const DeviceInfo& info, std::optional<DeviceLockFile> lock, std::vector<ReclaimedLock> reclaimed_at_open) {
  Device device;
  device.defer_signals_ = std::move(opening);
  device.name_ = std::move(name);
  device.info_ = &info;
  device.transport_ = std::move(transport);
  device.lock_ = std::move(lock);
  device.reclaimed_at_open_ = std::move(reclaimed_at_open);
  return device;
}

Result<RegisterPort*> Device::register_port() {
  if (!port_) {
    auto opened = transport_->open_register_port(*this);
    if (!opened) return make_error(with_stale_lock_advice(*this, std::move(opened).error()));
    port_ = std::move(*opened);
  }
  return port_.get();
}

Result<I2cAccess*> Device::i2c() {
  // The simulator's I2C master; in-band, ExtPortAccess MADs (fwops/transports/InbandTransport.cpp):
  // the same bus the flash driver is given for EEPROM flash (fwops/DeviceFlash.cpp).
  if (I2cAccess* bus = transport_->i2c()) return bus;
  return make_error(ErrorCode::NotSupported, name_ + ": no I2C bus is reachable through this device name");
}

std::optional<RunningFirmware> Device::running_firmware() {
  if (transport_->running_firmware_is_live()) return transport_->running_firmware(*this);
  if (!mgir_read_) {
    mgir_running_ = transport_->running_firmware(*this);
    mgir_read_ = true;
  }
  return mgir_running_;
}

}  // namespace openflint
