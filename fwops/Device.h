// Device: an opened device over its transport (fwops/DeviceTransport.h) — register access, catalog record, reset, commit.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/Result.h"
#include "core/SignalDeferral.h"
#include "devices/DeviceInfo.h"
#include "flash/CacheReplacement.h"
#include "fwops/access/DeviceLockFile.h"
#include "fwops/DeviceTransport.h"
#include "fwops/access/ReclaimedLock.h"
#include "fwops/registers/RunningFirmware.h"
#include "mtcr/I2cAccess.h"
#include "mtcr/inband/MadChannel.h"
#include "mtcr/RegisterAccess.h"
#include "mtcr/RegisterPort.h"
#include "mtcr/remote/RemoteDeviceName.h"

namespace openflint {

struct DeviceOpenOptions {
  // How long to wait for another process to release the device before ErrorCode::Busy.
  std::chrono::milliseconds lock_timeout{5000};
  // PCI names: the sysfs PCI root (empty: default_sysfs_root(), i.e. OPENFLINT_SYSFS_ROOT or
  // /sys/bus/pci).
  std::filesystem::path sysfs_root;
  // In-band only: share this umad port (one per process; threads each open their own Device on
  // it). Null: the device opens its own.
  std::shared_ptr<MadChannel> channel;
  // Remote names (HOST:PORT,DEVICE): the bound on connecting and on each reply of the server.
  std::chrono::milliseconds remote_timeout{10000};
  // clear_semaphore only (fwops/access/StaleLocks.h): a PCI device's VSEC gateway semaphore is freed
  // (written 0 in config space, never taken) once the device lock is held and before the hw id
  // is read through the gateway, which a semaphore left held by a killed tool would block.
  // What was freed: Device::reclaimed_at_open().
  bool clear_gateway_semaphore = false;
};

// Move-only; owns the transport and (for sim:PATH and PCI names) the exclusive lock on the device.
// Destroying a Device releases it WITHOUT saving: a simulated device persists only through
// commit(), which saves atomically (see commit()).
// From the start of its opening to the end of its release, a stop signal (core/Interrupt.h) is
// deferred to the next safe point of whatever works on the device, so locks, semaphores, a
// firmware update and a remote session are released in order before the tool exits.
class Device {
 public:
  // A device reached through `transport`, identified as `info` (the catalog's record), held with
  // `lock` when its transport takes one. For the transports' openers (fwops/transports/).
  // `opening` is the signal deferral the opener took first (see above).
  [[nodiscard]] static Device over(SignalDeferral opening, std::string name, std::unique_ptr<DeviceTransport> transport, const DeviceInfo& info,
                                   std::optional<DeviceLockFile> lock = std::nullopt,
                                   std::vector<ReclaimedLock> reclaimed_at_open = {});

  Device(Device&&) noexcept = default;
  Device& operator=(Device&&) noexcept = default;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
  ~Device() = default;

  [[nodiscard]] RegisterAccess& access() { return transport_->access(); }
  [[nodiscard]] const DeviceInfo& info() const { return *info_; }
  [[nodiscard]] const std::string& name() const { return name_; }
  // How the device is reached (fwops/DeviceTransport.h).
  [[nodiscard]] DeviceTransport& transport() { return *transport_; }
  // Puts wrap(transport) in place of the transport: a decorator that sees every operation (the
  // session recorder, fwops/recording/SessionRecording.h). For the opener.
  template <typename Wrap>
  void wrap_transport(Wrap&& wrap) {
    transport_ = std::forward<Wrap>(wrap)(std::move(transport_));
  }
  // The simulator behind a sim:PATH device (fault injection, power); nullptr for real devices.
  [[nodiscard]] sim::SimDevice* simulator() { return transport_->simulator(); }
  // PCI names: the function's sysfs folder, <sysfs root>/devices/<BDF>; empty for other devices.
  // Remote devices have none either: what needs sysfs (PCI reset, VPD, ICMD) is not done remotely.
  [[nodiscard]] const std::filesystem::path& pci_dir() const { return transport_->pci_dir(); }
  // HOST:PORT,DEVICE or ssh:...: reached through a bus server, so nothing that needs the
  // device's host (sysfs, a PCI reset) can be done from here.
  [[nodiscard]] bool remote() const { return transport_->behind_bus_server(); }
  // Whether this process holds the device's lock file (sim:PATH and PCI names): then no other
  // openflint process on this host is using the device, and a hardware lock or semaphore found
  // held belongs to someone else (mstflint, the driver, another host) or to a tool that died.
  [[nodiscard]] bool holds_device_lock() const { return lock_.has_value(); }
  // What DeviceOpenOptions::clear_gateway_semaphore freed while opening (empty otherwise).
  [[nodiscard]] const std::vector<ReclaimedLock>& reclaimed_at_open() const { return reclaimed_at_open_; }

  // Reboots the device so it runs what its flash now holds. Sims: the boot ROM runs (fails
  // with Io when powered off). In-band switches: software reset. In-band adapters: NotSupported.
  [[nodiscard]] Result<void> reset() { return transport_->reset(*this); }
  // In-band: MADs this device's transport has sent (every attempt); 0 for simulated devices.
  [[nodiscard]] std::uint64_t mads_sent() const { return transport_->mads_sent(); }
  // A command to the running firmware by ICMD opcode, `in` in the mailbox, the first `out_bytes`
  // of the answer back (DeviceTransport::firmware_command): PCI (ICMD mailbox) and sim:PATH;
  // NotSupported over other transports, and on PCI parts without ICMD (ConnectX-3).
  [[nodiscard]] Result<std::vector<std::uint8_t>> firmware_command(std::uint16_t opcode, std::span<const std::uint8_t> in,
                                                                   std::size_t out_bytes) {
    return transport_->firmware_command(*this, opcode, in, out_bytes);
  }
  // Sims: power returns and the boot ROM runs.
  [[nodiscard]] Result<void> power_on() { return transport_->power_on(*this); }
  // The firmware the device runs. Sims: the boot state. In-band and PCI: the MGIR register read
  // through MADs or the ICMD mailbox on the first call, not at open (a burn or a register read
  // never needs it), and kept until reset() or invalidate_running_firmware(): FW version and
  // PSID, no copy address; nullopt when the device does not answer MGIR (PCI: no ICMD, e.g.
  // ConnectX-3). Remote devices: MGIR through the server's register channel (our `mst server`);
  // nullopt from a legacy server (mstmtserver carries CR-space only).
  [[nodiscard]] std::optional<RunningFirmware> running_firmware();
  // Forgets the kept MGIR answer: the next running_firmware() reads it again. reset() does this
  // itself; a caller that resets the device some other way calls it.
  void invalidate_running_firmware() { mgir_read_ = false; }

  // The running firmware's access registers: the ICMD mailbox (PCI), or on a pre-VSEC part whose
  // catalog record has a tools HCR (ConnectX-3) the tools HCR in CR-space; vendor MADs (in-band);
  // the simulated firmware (sim:PATH). Opened on the first call and kept; NotSupported when the
  // device has no such channel (a PCI part without ICMD or tools HCR, or firmware too old). Remote
  // devices: the server's register channel (mtcr/remote/RemoteRegisterPort.h), NotSupported from a
  // legacy server that has none.
  [[nodiscard]] Result<RegisterPort*> register_port();

  // The I2C bus behind the device where its firmware lives in I2C EEPROMs (InfiniScale-class
  // switches): the simulator's I2C master (sim:PATH), vendor MADs (in-band ExtPortAccess).
  // NotSupported when the device or its transport has none.
  [[nodiscard]] Result<I2cAccess*> i2c();

  // The board's PCI Vital Product Data: read over PCI (sysfs `vpd`), or the simulated board's.
  // NotSupported through other transports, and for a simulated switch.
  [[nodiscard]] Result<std::vector<std::uint8_t>> vpd() { return transport_->vpd(*this); }

  // Sims: saves flash, registers, counters, faults and the boot state into PATH. Every
  // file is first written in full next to its old copy (a new temp file, never through a
  // link) and only then renamed into place, so an error (disk full, ...) leaves the previous
  // state untouched. PCI devices: the function's config file is fsynced (mtcr/pci/PciConfigFile.h
  // sync_pci_config: nothing on the kernel's sysfs; a served simulator saves the device before
  // answering). Other devices: nothing to do.
  [[nodiscard]] Result<void> commit() { return transport_->commit(*this); }
  // Whether opening this device's flash (fwops/DeviceFlash.h) overrides the cache-replacement
  // guard: flint --ocr sets it (flash/CacheReplacement.h). Refuse until set.
  void set_cache_replacement(CacheReplacement policy) { cache_replacement_ = policy; }
  [[nodiscard]] CacheReplacement cache_replacement() const { return cache_replacement_; }

 private:
  Device() = default;

  SignalDeferral defer_signals_;  // first: released last, after everything below
  std::string name_;
  const DeviceInfo* info_ = nullptr;
  std::unique_ptr<DeviceTransport> transport_;   // sim, PCI, in-band or bus server (fwops/transports/)
  std::optional<RunningFirmware> mgir_running_;  // valid when mgir_read_ (transports whose answer is not live)
  bool mgir_read_ = false;                        // running_firmware() asked since the open or reset
  std::unique_ptr<RegisterPort> port_;            // register_port(), once asked; released before the transport
  std::optional<DeviceLockFile> lock_;
  std::vector<ReclaimedLock> reclaimed_at_open_;
  CacheReplacement cache_replacement_ = CacheReplacement::Refuse;
};

// Opens a device by name through the first transport whose forms it has (fwops/DeviceOpener.cpp
// kTransports, in order: "sim:PATH" (a simulated device persisted in directory PATH, locked while
// open); a remote device "HOST:PORT,DEVICE" or "ssh:[USER@]HOST[:PORT]/DEVICE"
// (mtcr/remote/RemoteDeviceName.h); a PCI device (mtcr/pci/PciDeviceName.h: BDF, pciconf-BDF, pcicr-BDF,
// mtNNNN_pciconfK, mtNNNN_pci_crK, RDMA names; locked while open, see open_pci_device); an in-band
// device "lid-N[,ca[,port]]", "iblid-N", "ibdr-a.b.c". PCI, in-band and remote devices are
// identified through the hw id register 0xf0014 and the catalog. Other names: InvalidArgument
// listing the forms; a malformed remote name: InvalidArgument saying why.
[[nodiscard]] Result<Device> open_device(std::string_view name, const DeviceOpenOptions& options = {});

// The catalog record of the device behind `access`: its hw id (CR-space 0xf0014, id [15:0] and
// revision [23:16]) looked up in the catalog; errors name `device_name`. Every opener that
// reaches CR-space (PCI, in-band, remote) identifies the part this way.
[[nodiscard]] Result<const DeviceInfo*> identify_device(RegisterAccess& access, const std::string& device_name);

// Creates a new simulated device of catalog sim model `model` in directory `dir` (which must not
// hold one yet), with flash chip `chip` (empty = the model's default). Not saved until commit().
[[nodiscard]] Result<Device> create_sim_device(const std::filesystem::path& dir, std::string_view model,
                                               std::string_view chip, const DeviceOpenOptions& options = {});

// A PCI device by name: the mapped BAR0 for pcicr-/_pci_cr names, config space for pciconf-/
// _pciconf names, else BAR0 with config space as the fall back when the BAR is unusable.
// Locked with a lock file under OPENFLINT_RUN_DIR (default /run/openflint), one per device and
// sysfs root, waited for up to options.lock_timeout.
[[nodiscard]] Result<Device> open_pci_device(std::string_view name, const DeviceOpenOptions& options);

// A device served by an mstmtserver at remote.server (host:port) (legacy bus protocol 1.4), named
// `name` as given. Connects and waits for each reply up to options.remote_timeout. Takes no
// local lock: the server opens (and locks) the device on its own host.
[[nodiscard]] Result<Device> open_remote_device(std::string_view name, const RemoteDeviceName& remote,
                                                const DeviceOpenOptions& options);

// Every transport's name forms, in the table's order ("sim:PATH (...), HOST:PORT,DEVICE (...), ...,
// a PCI device (...), lid-N[,ca[,port]], ..."), for messages and --help (cli/DeviceForms.h).
[[nodiscard]] std::string_view accepted_device_forms();

}  // namespace openflint
