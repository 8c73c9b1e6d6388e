// DeviceTransport: how an opened Device is reached (simulator, PCI, in-band, bus server) — one class per transport.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"
#include "fwops/registers/RunningFirmware.h"
#include "mtcr/I2cAccess.h"
#include "mtcr/registers/MfrlRegister.h"
#include "mtcr/RegisterAccess.h"
#include "mtcr/RegisterPort.h"

namespace openflint {

class Device;
struct ResetOptions;
struct ResetPlan;
namespace sim {
class SimDevice;
}

// What differs between the ways a device is reached. fwops/Device owns one and asks it; nothing
// above fwops/ sees which one it is. Each transport is one file in fwops/transports/ and one row
// of the opener table (fwops/DeviceOpener.cpp, docs/architecture.md "Transports"). The Device&
// arguments are the device this transport serves (its name, catalog record, register port).
class DeviceTransport {
 public:
  DeviceTransport() = default;
  DeviceTransport(const DeviceTransport&) = delete;
  DeviceTransport& operator=(const DeviceTransport&) = delete;
  virtual ~DeviceTransport() = default;

  // CR-space.
  [[nodiscard]] virtual RegisterAccess& access() = 0;
  // The running firmware's access registers, opened anew (Device::register_port keeps the one it
  // opens); errors name the device.
  [[nodiscard]] virtual Result<std::unique_ptr<RegisterPort>> open_register_port(Device& device) = 0;
  // The I2C bus behind the device where its firmware lives in I2C EEPROMs (InfiniScale-class
  // switches), reached over the same transport; nullptr when none. Default: the access's own (a
  // simulated device); in-band: ExtPortAccess MADs.
  [[nodiscard]] virtual I2cAccess* i2c() { return access().i2c(); }
  // The firmware the device runs, as the device tells it; nullopt when it does not answer.
  [[nodiscard]] virtual std::optional<RunningFirmware> running_firmware(Device& device) = 0;
  // Whether running_firmware() is cheap and always current (a simulator's boot state): Device
  // keeps the answer of the others until a reset.
  [[nodiscard]] virtual bool running_firmware_is_live() const { return false; }
  // Whether the device shows, without asking its firmware, that none runs (fwops/burn/FlashPath).
  [[nodiscard]] virtual bool shows_no_firmware(Device& /*device*/) { return false; }

  // Reboots the device so it runs what its flash holds (Device::reset).
  [[nodiscard]] virtual Result<void> reset(Device& device) = 0;
  // What a reset (fwops/registers/AdapterReset.h) of this device does and what blocks it.
  virtual void plan_reset(Device& device, const ResetOptions& options, ResetPlan& plan) = 0;
  // Runs a plan that resets now; returns the config registers written back (PCI). Default:
  // Device::reset().
  [[nodiscard]] virtual Result<std::vector<std::string>> reset_as_planned(Device& device, const ResetPlan& plan,
                                                                          const ResetOptions& options);
  // The firmware's reset register (MFRL): read, or arm `level` and read back. Default: through
  // Device::register_port().
  [[nodiscard]] virtual Result<MfrlRegister> query_reset_register(Device& device);
  [[nodiscard]] virtual Result<MfrlRegister> arm_reset_register(Device& device, int level);

  // The board's PCI Vital Product Data. Default: NotSupported (read over PCI).
  [[nodiscard]] virtual Result<std::vector<std::uint8_t>> vpd(Device& device);
  // Makes what was written to the device durable (Device::commit). Default: nothing to do.
  [[nodiscard]] virtual Result<void> commit(Device& /*device*/) { return {}; }
  // Power returns and the boot ROM runs. Default: NotSupported.
  [[nodiscard]] virtual Result<void> power_on(Device& device);
  // A command to the running firmware by ICMD opcode (SET_ITRACE 0xF003, ...): `in` goes into the
  // mailbox (the rest zero), the first `out_bytes` of the mailbox come back. PCI: the VSEC's ICMD
  // mailbox; sim: the simulated firmware (sim/FirmwareCommands.h). A status the firmware answers
  // is an error: NotSupported (unknown opcode), InvalidArgument (a malformed command), Io (no
  // firmware answers). Default: NotSupported naming how the device is reached (reached_over()).
  [[nodiscard]] virtual Result<std::vector<std::uint8_t>> firmware_command(Device& device, std::uint16_t opcode,
                                                                           std::span<const std::uint8_t> in,
                                                                           std::size_t out_bytes);

  // Properties a caller may need to tell (Device's accessors of the same names).
  [[nodiscard]] virtual sim::SimDevice* simulator() { return nullptr; }
  [[nodiscard]] virtual const std::filesystem::path& pci_dir() const;
  [[nodiscard]] virtual bool behind_bus_server() const { return false; }
  [[nodiscard]] virtual std::uint64_t mads_sent() const { return 0; }
  // How the device is reached, for messages ("in-band MADs", "a bus server"); "this transport".
  [[nodiscard]] virtual std::string_view reached_over() const { return "this transport"; }
};

}  // namespace openflint
