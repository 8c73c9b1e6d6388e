// SimDevice: composition of the simulated parts, power state and fault accounting.
#include "sim/SimDevice.h"

#include <algorithm>
#include <string>

#include "devices/DeviceCatalog.h"
#include "core/HexString.h"
#include "image/FirmwareTraceStrings.h"
#include "sim/BootRom.h"
#include "sim/FirmwareFlashPort.h"

namespace openflint::sim {

SimDevice::SimDevice(const DeviceInfo& info, const FlashChip& chip)
    : info_(&info), flash_(chip), gateway_(info.flash_gateway, cr_, flash_) {
  const std::uint32_t hw_word =
      info.hw_id | (static_cast<std::uint32_t>(info.hw_revision.value_or(0)) << 16);
  // Read-only; a write only makes the firmware finish a pending cache replacement (the guard's
  // trigger, devices/CacheReplacementGuard.h).
  cr_.add_hook(
      info.hw_id_addr, info.hw_id_addr, [hw_word](std::uint32_t) -> Result<std::uint32_t> { return hw_word; },
      [this](std::uint32_t, std::uint32_t) -> Result<void> {
        set_cache_replacement_locked(false);
        return {};
      });
  if (info.running_fw_version_addr != 0) {
    const std::uint32_t at = info.running_fw_version_addr;
    cr_.add_hook(
        at, at + 4,
        [this, at](std::uint32_t address) -> Result<std::uint32_t> {
          if (boot_.recovery || !boot_.running || !boot_.running->fw_version) return 0;
          const FwVersion& v = *boot_.running->fw_version;
          return address == at ? (std::uint32_t{v.major} << 16 | v.minor) : std::uint32_t{v.subminor} << 16;
        },
        [](std::uint32_t, std::uint32_t) -> Result<void> { return {}; });  // read-only
  }
  if (info.tracer != nullptr) tracer_ = std::make_unique<FirmwareTracer>(*info.tracer);
  if (info.tools_hcr != nullptr) tools_hcr_ = std::make_unique<ToolsHcr>(*this, *info.tools_hcr);
  if (info.flash_gateway.is_i2c_eeprom()) {
    auto master = std::make_unique<I2cMaster>(*this, info.flash_gateway.eeprom, flash_);
    i2c_master_ = master.get();
    i2c_ = std::move(master);
  }
  run_boot_rom();  // power-on
}

void SimDevice::run_boot_rom() {
  std::optional<std::uint64_t> hint;
  const BootAddressRegister& reg = info_->boot_address;
  if (reg.address != 0) hint = std::uint64_t{cr_.peek(reg.address)} >> reg.shift;
  boot_ = sim::run_boot_rom(*info_, flash_.contents(), hint);
  boot_tracer(true);
}

void SimDevice::boot_tracer(bool trace_boot) {
  if (!tracer_) return;
  std::optional<std::vector<std::string>> formats;
  if (!boot_.recovery && boot_.running) {
    auto section = find_trace_strings_section(flash_.contents(), boot_.running->format, boot_.booted_address);
    if (section && *section) {
      auto decoded = decode_trace_strings(**section);
      if (decoded) formats = std::move(*decoded);  // a hostile section: no string DB
    }
  }
  tracer_->load_strings(formats);
  if (!trace_boot) return;
  if (boot_.recovery || !boot_.running) {
    tracer_->trace(FirmwareTraceMessage::BootRecovery, {boot_.pci_device_id});
  } else {
    const FwVersion v = boot_.running->fw_version.value_or(FwVersion{});
    tracer_->trace(FirmwareTraceMessage::Boot,
                   {v.major, v.minor, v.subminor, static_cast<std::uint32_t>(boot_.booted_address)});
  }
  tracer_->end_burst();
}

void SimDevice::set_temperature_c(std::uint32_t celsius) {
  std::lock_guard guard(bus_);
  constexpr std::uint32_t kWarnHigh = 105;  // MTMP's thresholds (sim/FirmwareRegisters)
  constexpr std::uint32_t kWarnLow = 100;
  temperature_c_ = celsius;
  ++other_changes_;
  if (!tracer_ || !powered_) return;
  // Hysteresis: up across 105, then back below 100; in between the warning stands.
  if (!temperature_warned_ && celsius >= kWarnHigh) {
    temperature_warned_ = true;
    tracer_->trace(FirmwareTraceMessage::TemperatureHigh, {celsius, kWarnHigh});
  } else if (temperature_warned_ && celsius < kWarnLow) {
    temperature_warned_ = false;
    tracer_->trace(FirmwareTraceMessage::TemperatureNormal, {celsius, kWarnLow});
  }
  tracer_->end_burst();
}

Result<void> SimDevice::read_trace_block(std::size_t index, std::span<std::uint8_t, kTraceBlockBytes> out) const {
  std::lock_guard guard(bus_);
  if (!tracer_) return make_error(ErrorCode::NotSupported, std::string(info_->name) + " has no firmware tracer");
  return tracer_->read_block(index, out);
}

const BootState& SimDevice::reset() {
  std::lock_guard guard(bus_);
  if (!powered_) return boot_;
  if (tracer_) tracer_->trace(FirmwareTraceMessage::ResetRun, {armed_reset_});
  flash_.reset();
  gateway_.reset();
  if (i2c_master_ != nullptr) i2c_master_->reset();
  update_.reset();
  if (tools_hcr_) tools_hcr_->reset();
  armed_reset_ = 0;
  nv_config_.boot();
  run_boot_rom();
  ++other_changes_;
  return boot_;
}

FirmwareResetSupport SimDevice::reset_register() const {
  std::lock_guard guard(bus_);
  return no_reset_register_ ? FirmwareResetSupport{} : info_->firmware_reset;
}

std::uint8_t SimDevice::armed_reset() const {
  std::lock_guard guard(bus_);
  return armed_reset_;
}

void SimDevice::arm_reset(std::uint8_t levels) {
  std::lock_guard guard(bus_);
  if (!powered_) return;
  armed_reset_ = levels;
  if (tracer_) tracer_->trace(FirmwareTraceMessage::ResetArmed, {levels});
}

bool SimDevice::link_reset() {
  {
    std::lock_guard guard(bus_);
    if (!powered_) return false;
    const bool firmware_runs = !boot_.recovery && boot_.running.has_value();
    const bool has_register = !no_reset_register_ && info_->firmware_reset.levels != 0;
    // With firmware that can refuse, an unarmed reset only retrains the link; the firmware runs on.
    if (firmware_runs && has_register && armed_reset_ == 0) return false;
  }
  (void)reset();
  return true;
}

Result<std::unique_ptr<SimDevice>> SimDevice::create(const DeviceInfo& info, const FlashChip* chip) {
  if (!info.flash_gateway.is_driven()) {
    return make_error(ErrorCode::NotSupported,
                      "simulating " + std::string(info.name) + ": flash gateway generation '" +
                          std::string(to_string(info.flash_gateway.generation)) + "' is not simulated");
  }
  if (chip == nullptr && info.default_flash_chip.empty()) {  // e.g. InfiniScale: its flash part is unknown
    return make_error(ErrorCode::NotSupported, "simulating " + std::string(info.name) +
                                                   ": no flash part is known for it, so it is not simulated");
  }
  if (chip == nullptr) {
    OF_ASSIGN_CTX(chip, find_flash_chip_by_name(info.default_flash_chip), "simulating " + std::string(info.name));
  }
  const FlashInterface wanted = info.flash_gateway.is_parallel_gateway() ? FlashInterface::ParallelCfi
                                : info.flash_gateway.is_i2c_eeprom()     ? FlashInterface::I2cEeprom
                                                                         : FlashInterface::Spi;
  if (chip->bus != wanted) {
    const char* kind = chip->bus == FlashInterface::ParallelCfi ? "a parallel"
                       : chip->bus == FlashInterface::I2cEeprom ? "an I2C EEPROM"
                                                                : "an SPI";
    return make_error(ErrorCode::InvalidArgument, "simulating " + std::string(info.name) + ": flash " +
                                                      std::string(chip->name) + " is " + kind +
                                                      " part, which this device's flash gateway does not drive");
  }
  if (wanted == FlashInterface::I2cEeprom && chip->size != info.flash_gateway.eeprom.total_size()) {
    return make_error(ErrorCode::InvalidArgument, "simulating " + std::string(info.name) + ": " +
                                                      std::string(chip->name) + " is not the EEPROM set of its I2C bus");
  }
  return std::unique_ptr<SimDevice>(new SimDevice(info, *chip));
}

Result<std::unique_ptr<SimDevice>> SimDevice::create(std::string_view sim_model) {
  OF_ASSIGN(const DeviceInfo* info, find_device_by_sim_model(sim_model));
  return create(*info);
}

Result<void> SimDevice::check_powered() const {
  if (powered_) return {};
  return make_error(ErrorCode::Io, "simulated " + std::string(info_->name) + " is powered off");
}

std::uint64_t SimDevice::flash_ops() const {
  return flash_.counters().erases + flash_.counters().programs;
}

void SimDevice::account_flash_ops(std::uint64_t ops_before) {
  if (ops_until_power_cut_ == 0) return;
  const std::uint64_t done = flash_ops() - ops_before;
  if (done == 0) return;
  if (done >= ops_until_power_cut_) {
    ops_until_power_cut_ = 0;
    powered_ = false;
    flash_.reset();
    return;
  }
  ops_until_power_cut_ -= done;
}

Result<std::uint32_t> SimDevice::read32_locked(std::uint32_t address) {
  OF_TRY(check_powered());
  ++register_reads_;
  return cr_.read32(address);
}

Result<void> SimDevice::write32_locked(std::uint32_t address, std::uint32_t value) {
  OF_TRY(check_powered());
  ++register_writes_;
  const std::uint64_t before = flash_ops();
  // firmware_owns_flash(), under the lock; a firmware that tolerates gateway writes is not hung by them.
  const bool owned = component_update_offered_locked() && !info_->firmware_flash.tolerates_gateway_writes;
  auto result = cr_.write32(address, value);
  if (owned && flash_ops() != before) {  // a gateway erase/program under the firmware
    firmware_counters_.gateway_conflicts += flash_ops() - before;
    boot_.firmware_hung = true;
  }
  account_flash_ops(before);
  return result;
}

Result<std::uint32_t> SimDevice::read32(std::uint32_t address) {
  std::lock_guard guard(bus_);
  return read32_locked(address);
}

Result<void> SimDevice::write32(std::uint32_t address, std::uint32_t value) {
  std::lock_guard guard(bus_);
  return write32_locked(address, value);
}

Result<void> SimDevice::read_block(std::uint32_t address, std::span<std::uint32_t> out) {
  std::lock_guard guard(bus_);
  for (std::size_t i = 0; i < out.size(); ++i) {
    OF_ASSIGN(out[i], read32_locked(address + static_cast<std::uint32_t>(4 * i)));
  }
  return {};
}

Result<void> SimDevice::write_block(std::uint32_t address, std::span<const std::uint32_t> values) {
  std::lock_guard guard(bus_);
  for (std::size_t i = 0; i < values.size(); ++i) {
    OF_TRY(write32_locked(address + static_cast<std::uint32_t>(4 * i), values[i]));
  }
  return {};
}

void SimDevice::set_faults(const SimFaults& faults) {
  std::lock_guard guard(bus_);
  ops_until_power_cut_ = faults.power_cut_after_ops;
  gateway_.fail_command_at(faults.fail_gateway_command);
  flash_.set_busy_polls(faults.flash_busy_polls);
  flash_.set_stuck_busy(faults.flash_stuck_busy);
  flash_.set_write_protected(faults.flash_write_protected);
  no_reset_register_ = faults.no_reset_register;
  set_cache_replacement_locked(faults.cache_replacement_pending);
  ++other_changes_;
}

// A replacement in progress: a cache line offset and a command byte, both non-zero (our values).
void SimDevice::set_cache_replacement_locked(bool pending) {
  const CacheReplacementGuard& g = info_->flash_gateway.cache_guard;
  if (!g.present()) return;
  cr_.poke(g.offset_addr, pending ? (0x1000u & g.offset_mask) : 0);
  cr_.poke(g.cmd_addr, pending ? (0x0b0000u & g.cmd_mask) : 0);
}

bool SimDevice::cache_replacement_pending_locked() const {
  const CacheReplacementGuard& g = info_->flash_gateway.cache_guard;
  return g.present() && ((cr_.peek(g.offset_addr) & g.offset_mask) != 0 || (cr_.peek(g.cmd_addr) & g.cmd_mask) != 0);
}

SimFaults SimDevice::faults() const {
  SimFaults f;
  f.power_cut_after_ops = ops_until_power_cut_;
  f.fail_gateway_command = gateway_.pending_failure();
  f.flash_busy_polls = flash_.busy_polls_per_op();
  f.flash_stuck_busy = flash_.stuck_busy();
  f.flash_write_protected = flash_.write_protected();
  f.no_reset_register = no_reset_register_;
  f.cache_replacement_pending = cache_replacement_pending_locked();
  return f;
}

void SimDevice::power_cycle() {
  std::lock_guard guard(bus_);
  flash_.reset();
  gateway_.reset();
  if (i2c_master_ != nullptr) i2c_master_->reset();
  if (info_->boot_address.address != 0) cr_.poke(info_->boot_address.address, 0);
  powered_ = true;
  if (tracer_) tracer_->power_on();
  update_.reset();
  if (tools_hcr_) tools_hcr_->reset();
  armed_reset_ = 0;
  nv_config_.boot();
  run_boot_rom();
  ++other_changes_;
}

std::uint32_t SimDevice::peek32(std::uint32_t address) const {
  std::lock_guard guard(bus_);
  return cr_.peek(address);
}

SimCounters SimDevice::counters() const {
  SimCounters c;
  c.register_reads = register_reads_;
  c.register_writes = register_writes_;
  c.gateway_commands = gateway_.commands();
  c.flash = flash_.counters();
  c.firmware = firmware_counters_;
  if (i2c_master_ != nullptr) c.i2c = i2c_master_->counters();
  return c;
}

std::uint64_t SimDevice::changes() const {
  std::lock_guard guard(bus_);
  return register_writes_ + flash_ops() + other_changes_;
}

Result<void> SimDevice::firmware_erase(std::uint32_t address, std::uint32_t size) {
  std::lock_guard guard(bus_);
  const std::uint32_t unit = flash_.chip().min_erase_size();
  FirmwareFlashPort port(flash_);
  for (std::uint64_t at = address / unit * unit; at < std::uint64_t{address} + size; at += unit) {
    OF_TRY(check_powered());
    const std::uint64_t before = flash_ops();
    auto erased = port.erase(static_cast<std::uint32_t>(at), unit);
    account_flash_ops(before);
    if (erased) ++firmware_counters_.flash_erases;
    OF_TRY(erased);
    if (tracer_) tracer_->trace(FirmwareTraceMessage::FlashEraseUnit, {static_cast<std::uint32_t>(at)});
  }
  if (tracer_) tracer_->trace(FirmwareTraceMessage::FlashErase, {address, size});
  return {};
}

Result<void> SimDevice::firmware_read(std::uint32_t address, std::span<std::uint8_t> out) {
  std::lock_guard guard(bus_);
  OF_TRY(check_powered());
  FirmwareFlashPort port(flash_);
  return port.read(address, out);
}

Result<void> SimDevice::firmware_program(std::uint32_t address, std::span<const std::uint8_t> bytes) {
  std::lock_guard guard(bus_);
  const std::uint32_t page = flash_.chip().page_size;
  FirmwareFlashPort port(flash_);
  std::size_t done = 0;
  while (done < bytes.size()) {
    OF_TRY(check_powered());
    const std::uint32_t at = address + static_cast<std::uint32_t>(done);
    const std::size_t n = std::min<std::size_t>(bytes.size() - done, page - at % page);
    const std::uint64_t before = flash_ops();
    auto programmed = port.program(at, bytes.subspan(done, n));
    account_flash_ops(before);
    if (programmed) ++firmware_counters_.flash_programs;
    OF_TRY(programmed);
    done += n;
  }
  if (tracer_) tracer_->trace(FirmwareTraceMessage::FlashProgram, {address, static_cast<std::uint32_t>(bytes.size())});
  return {};
}

bool SimDevice::component_update_offered_locked() const {
  return info_->firmware_flash.component_update && powered_ && !boot_.recovery && boot_.running &&
         boot_.running->mcc_enabled;
}

bool SimDevice::component_update_offered() const {
  std::lock_guard guard(bus_);
  return component_update_offered_locked();
}

bool SimDevice::firmware_owns_flash() const {
  std::lock_guard guard(bus_);
  return component_update_offered_locked();
}

void SimDevice::set_boot_address(std::uint64_t address) {
  std::lock_guard guard(bus_);
  const BootAddressRegister& reg = info_->boot_address;
  if (reg.address != 0) cr_.poke(reg.address, static_cast<std::uint32_t>(address << reg.shift));
  ++other_changes_;
}

}  // namespace openflint::sim
