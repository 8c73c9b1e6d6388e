// SimDevice: a simulated adapter/switch (CR-space + SPI flash + gateway) behind RegisterAccess.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string_view>

#include "core/Result.h"
#include "devices/DeviceInfo.h"
#include "devices/FlashChip.h"
#include "mtcr/I2cAccess.h"
#include "mtcr/RegisterAccess.h"
#include "sim/CrSpace.h"
#include "sim/BootState.h"
#include "sim/ComponentUpdate.h"
#include "sim/FirmwareFlashCounters.h"
#include "sim/FirmwareTracer.h"
#include "sim/FlashGateway.h"
#include "sim/I2cMaster.h"
#include "sim/NvConfigStore.h"
#include "sim/SimFaults.h"
#include "sim/SpiNorFlash.h"
#include "sim/ToolsHcr.h"

namespace openflint::sim {

struct SimCounters {
  std::uint64_t register_reads = 0;
  std::uint64_t register_writes = 0;
  std::uint64_t gateway_commands = 0;
  SpiNorCounters flash;
  FirmwareFlashCounters firmware;  // flash work the running firmware did on request
  I2cCounters i2c;                 // the I2C master's transactions (parts with firmware EEPROMs)
};

// Built from a catalog record: CR-space with the hw id at the record's hw_id_addr (0xf0014 but on
// InfiniScale-era switches), a SpiNorFlash made from the
// record's default chip (or a given one) and the record's gateway generation. SPI gateway
// generations (InfiniHost III Lx, ConnectX, Gen5, Gen6) and the InfiniHost parallel gateway are
// simulated (a parallel part's SpiNorFlash holds the cells, faults and counters; sim/CfiNorFlash
// interprets its bus cycles), and so are I2C EEPROM parts (InfiniScale: the SpiNorFlash's cells
// are the EEPROMs' bytes end to end, reached through i2c(), sim/I2cMaster); others give
// ErrorCode::NotSupported.
// Powered-off behaviour: every access returns ErrorCode::Io ("device is powered off"), which is
// what a transport reports when a device drops off the bus; contents survive for the next power-on.
// Boot: creation, power_cycle() and reset() run the boot ROM (sim/BootRom.h) over the flash
// array; the running firmware (boot_state()) changes only then, never when the flash is written.
// Register accesses are serialized (one at a time, like a bus), so several threads may drive
// one device; the flash lock decides who may use the gateway. Parts whose record has a tools
// HCR answer it in CR-space (sim/ToolsHcr.h); like the gateway's latches it is volatile.
class SimDevice final : public RegisterAccess {
 public:
  [[nodiscard]] static Result<std::unique_ptr<SimDevice>> create(const DeviceInfo& info,
                                                                 const FlashChip* chip = nullptr);
  [[nodiscard]] static Result<std::unique_ptr<SimDevice>> create(std::string_view sim_model);

  SimDevice(const SimDevice&) = delete;
  SimDevice& operator=(const SimDevice&) = delete;
  ~SimDevice() override = default;

  [[nodiscard]] Result<std::uint32_t> read32(std::uint32_t address) override;
  [[nodiscard]] Result<void> write32(std::uint32_t address, std::uint32_t value) override;
  [[nodiscard]] Result<void> read_block(std::uint32_t address, std::span<std::uint32_t> out) override;
  [[nodiscard]] Result<void> write_block(std::uint32_t address, std::span<const std::uint32_t> values) override;
  [[nodiscard]] std::size_t max_block_dwords() const override { return 64; }

  [[nodiscard]] const DeviceInfo& info() const { return *info_; }
  [[nodiscard]] SpiNorFlash& flash() { return flash_; }
  [[nodiscard]] const SpiNorFlash& flash() const { return flash_; }
  [[nodiscard]] CrSpace& cr_space() { return cr_; }
  [[nodiscard]] FlashGateway& gateway() { return gateway_; }
  // The tools command interface in CR-space (ConnectX-3: info().tools_hcr); null on other parts.
  [[nodiscard]] const ToolsHcr* tools_hcr() const { return tools_hcr_.get(); }
  // The switch's I2C master and the EEPROMs on it (InfiniScale-class parts keep their firmware
  // there); null on parts without one. Its accesses power-cut like the gateway's.
  [[nodiscard]] I2cAccess* i2c() override { return i2c_.get(); }

  void set_faults(const SimFaults& faults);
  [[nodiscard]] SimFaults faults() const;
  [[nodiscard]] bool powered() const { return powered_; }
  // The ASIC temperature sensor (MTMP sensor 0), whole degrees Celsius; a test raises it to make
  // a health monitor see a hot device. Saved in state.json ("temperature_c").
  [[nodiscard]] std::uint32_t temperature_c() const { return temperature_c_; }
  // The firmware traces a crossing of the 105 C warning threshold upwards, and the way back below 100 C.
  void set_temperature_c(std::uint32_t celsius);
  // Power comes back: latches, locks, any half-done SPI command and the (volatile) boot-address
  // register are gone; the array stays; the boot ROM runs (the boot-address register being
  // clear, it scans the candidate starts).
  void power_cycle();
  // Warm reset (what a firmware reset / mstfwreset does): the boot ROM runs again with the
  // boot-address register as the burner left it. No effect while powered off. Returns the
  // new boot state.
  const BootState& reset();
  // The firmware's reset register (MFRL) as this device's firmware has it: the catalog's record,
  // or none with the no_reset_register fault.
  [[nodiscard]] FirmwareResetSupport reset_register() const;
  // The reset levels armed through MFRL for the next PCI link reset (0: none). A reset or power
  // cycle disarms.
  [[nodiscard]] std::uint8_t armed_reset() const;
  void arm_reset(std::uint8_t levels);
  // A PCI link reset reached the device (secondary bus reset, link disable, PERST): a part with a
  // reset register reloads its firmware (reset()) only when a reset is armed — otherwise the link
  // retrains and the old firmware runs on; a part without one, or one where no firmware runs
  // (flash recovery), always reloads. True: it reloaded.
  // A function-level reset (FLR) never reaches here: it does not reload firmware.
  bool link_reset();
  // What the boot ROM chose at the last power-on/reset: recovery mode, the booted copy's
  // address and its query (FW version, PSID, GUIDs of the firmware that runs).
  [[nodiscard]] const BootState& boot_state() const { return boot_; }
  // The PCI device id the device shows now (the recovery id in recovery mode).
  [[nodiscard]] std::uint16_t pci_device_id() const { return boot_.pci_device_id; }
  [[nodiscard]] SimCounters counters() const;
  // Grows with everything a save would write differently: register writes, flash erases and
  // programs (through the gateway, the firmware or the I2C master), resets, power cycles, faults,
  // the boot-address register. Reads do not count: their side effects (counters, a semaphore
  // taken) are not worth a save on their own. A server that keeps devices in memory saves when
  // this moved (hcasim pci-serve).
  [[nodiscard]] std::uint64_t changes() const;

  // The running firmware's side of firmware-mediated flash access (sim/FirmwareRegisters).
  // Its component-update state machine (volatile: a reset or power cycle returns it to IDLE).
  [[nodiscard]] ComponentUpdate& component_update() { return update_; }
  [[nodiscard]] const ComponentUpdate& component_update() const { return update_; }
  [[nodiscard]] FirmwareFlashCounters& firmware_counters() { return firmware_counters_; }
  // The firmware's non-volatile configuration (sim/NvConfigRegisters): stored items survive
  // power cycles; a reset or power cycle makes them the current ones.
  [[nodiscard]] NvConfigStore& nv_config() { return nv_config_; }
  [[nodiscard]] const NvConfigStore& nv_config() const { return nv_config_; }
  // Whether the running firmware offers the component update (MCC): its family has it in the
  // catalog and the running image was built with it (IMAGE_INFO mcc_en), as on real parts.
  [[nodiscard]] bool component_update_offered() const;
  // Whether the running firmware uses the flash itself and takes tools' flash work through its
  // registers: it runs and offers the component update (a firmware of such a family built
  // without MCC is modelled as leaving the flash to tools). An erase or program through the
  // CR-space gateway then conflicts with it: the firmware hangs (boot_state().firmware_hung,
  // counted in counters().firmware.gateway_conflicts) and answers no register until the next
  // reset or power cycle; the flash itself takes the write. mstflint's --ocr warns of this.
  [[nodiscard]] bool firmware_owns_flash() const;
  // The firmware's own SPI access to the flash (sim/FirmwareFlashPort), under the bus lock:
  // Io when powered off or the chip refused; erases and programs count towards
  // power_cut_after_ops one erase unit or page program at a time, like the gateway's.
  [[nodiscard]] Result<void> firmware_erase(std::uint32_t address, std::uint32_t size);
  [[nodiscard]] Result<void> firmware_program(std::uint32_t address, std::span<const std::uint8_t> bytes);
  // The firmware reads the flash through its port (MFBA): Io when powered off.
  [[nodiscard]] Result<void> firmware_read(std::uint32_t address, std::span<std::uint8_t> out);
  // The firmware points the boot-address register at `address` (no effect on parts without one).
  void set_boot_address(std::uint64_t address);
  // A register's stored value without read side effects (reading CMD here takes no lock),
  // under the bus lock: what a device-side mirror such as sim/BarServer copies out.
  [[nodiscard]] std::uint32_t peek32(std::uint32_t address) const;
  // The bus lock, held while the firmware answers a register or command (sim/FirmwareRegisters,
  // sim/FirmwareCommands): the VSEC's mailbox, a directly opened device and a simulated driver's
  // thread (pcisim/Mlx5TracerDriver) may all ask at once. Recursive: what the firmware does
  // under it locks again.
  [[nodiscard]] std::unique_lock<std::recursive_mutex> hold_bus() const { return std::unique_lock(bus_); }

  // The running firmware's tracer (sim/FirmwareTracer), on families whose catalog record has one
  // (DeviceInfo::tracer); null otherwise. Its string DB comes from the image that booted.
  [[nodiscard]] FirmwareTracer* tracer() { return tracer_.get(); }
  [[nodiscard]] const FirmwareTracer* tracer() const { return tracer_.get(); }
  // Simulated DMA, for a simulated driver: block `index` of the host trace buffer as the device
  // last wrote it (zeros when never written), under the bus lock. InvalidArgument past
  // kTraceBlocks; NotSupported on a device without a tracer.
  [[nodiscard]] Result<void> read_trace_block(std::size_t index, std::span<std::uint8_t, kTraceBlockBytes> out) const;

  // PATH/state.json (model, chip, power, faults, counters, lock, boot state) + PATH/flash.bin
  // (the array). A loaded device keeps the saved boot state until its next reset/power cycle.
  // flash.bin is written only when the array changed since it was loaded from or saved to PATH
  // (a query's save rewrites the small state.json, not 16-32 MiB of unchanged flash).
  [[nodiscard]] Result<void> save_state(const std::filesystem::path& dir) const;
  [[nodiscard]] static Result<std::unique_ptr<SimDevice>> load_state(const std::filesystem::path& dir);

 private:
  friend class I2cMaster;  // runs its transactions under bus_, with the power and power-cut rules
  SimDevice(const DeviceInfo& info, const FlashChip& chip);
  // load_state without its guard: may throw nlohmann::json::exception on a mistyped value.
  [[nodiscard]] static Result<std::unique_ptr<SimDevice>> load_state_json(const std::filesystem::path& dir);
  [[nodiscard]] Result<void> check_powered() const;
  void run_boot_rom();
  // The tracer's string DB from the running image, and the boot traced (boot_ is set).
  void boot_tracer(bool trace_boot);
  [[nodiscard]] Result<std::uint32_t> read32_locked(std::uint32_t address);
  [[nodiscard]] bool component_update_offered_locked() const;
  [[nodiscard]] Result<void> write32_locked(std::uint32_t address, std::uint32_t value);
  void account_flash_ops(std::uint64_t ops_before);
  void set_cache_replacement_locked(bool pending);
  [[nodiscard]] bool cache_replacement_pending_locked() const;
  [[nodiscard]] std::uint64_t flash_ops() const;

  const DeviceInfo* info_;
  CrSpace cr_;
  SpiNorFlash flash_;
  FlashGateway gateway_;
  bool powered_ = true;
  std::uint32_t temperature_c_ = 45;
  bool temperature_warned_ = false;  // above 105 C, not yet back below 100 C (volatile)
  BootState boot_;
  std::uint8_t armed_reset_ = 0;  // MFRL reset_trigger armed (volatile: lost on reset/power)
  bool no_reset_register_ = false;
  // One register access at a time. Recursive: CR-space hooks run under it and some (the tools
  // HCR's register access, sim/ToolsHcr) call back into locking members (reset_register(), ...).
  mutable std::recursive_mutex bus_;
  std::uint64_t ops_until_power_cut_ = 0;  // 0 = not armed
  std::uint64_t register_reads_ = 0;
  std::uint64_t register_writes_ = 0;
  std::uint64_t other_changes_ = 0;  // changes() beyond register writes and flash operations
  // The flash.bin on disk this array matches: where, and the array's generation then.
  mutable std::filesystem::path flash_file_dir_;
  mutable std::uint64_t flash_file_generation_ = 0;
  ComponentUpdate update_;
  NvConfigStore nv_config_;
  FirmwareFlashCounters firmware_counters_;
  std::unique_ptr<FirmwareTracer> tracer_;  // on parts whose catalog record has a tracer
  std::unique_ptr<ToolsHcr> tools_hcr_;  // the firmware's tools HCR, on parts whose catalog record has one
  std::unique_ptr<I2cAccess> i2c_;       // the I2C master, on parts whose firmware lives in EEPROMs
  I2cMaster* i2c_master_ = nullptr;      // the same, as the simulator's type (reset, counters)
};

}  // namespace openflint::sim
