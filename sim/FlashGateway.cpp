// FlashGateway: decodes CMD words into SPI transactions on the simulated chip.
#include "sim/FlashGateway.h"

#include <algorithm>
#include <array>

#include "core/HexString.h"
#include "devices/SpiOpcode.h"

namespace openflint::sim {
namespace {

bool bit(std::uint32_t word, std::uint8_t n) { return ((word >> n) & 1u) != 0; }

}  // namespace

FlashGateway::FlashGateway(const FlashGatewayInfo& info, CrSpace& cr, SpiNorFlash& flash)
    : info_(info), cr_(&cr), flash_(&flash) {
  if (info_.is_i2c_eeprom()) return;  // no CR-space gateway: the storage hangs off the I2C master
  cr.add_hook(
      info_.cmd_addr, info_.cmd_addr, [this](std::uint32_t) { return read_cmd(); },
      [this](std::uint32_t, std::uint32_t v) { return write_cmd(v); });
  if (info_.is_parallel_gateway()) install_parallel_hooks();
  if (info_.lock == FlashLockKind::Semaphore) {
    const std::uint32_t sem = info_.semaphore_addr;
    cr.add_hook(
        sem, sem,
        [this, sem](std::uint32_t) -> Result<std::uint32_t> {
          const std::uint32_t old = cr_->peek(sem);
          cr_->poke(sem, 1);  // test-and-set: whoever read 0 now owns it
          return old;
        },
        nullptr);
  }
}

bool FlashGateway::locked() const {
  if (info_.lock == FlashLockKind::Semaphore) return cr_->peek(info_.semaphore_addr) != 0;
  if (info_.lock == FlashLockKind::CmdBit31) return bit(cr_->peek(info_.cmd_addr), info_.layout.lock_bit);
  return false;
}

void FlashGateway::set_locked(bool locked) {
  if (info_.lock == FlashLockKind::Semaphore) {
    cr_->poke(info_.semaphore_addr, locked ? 1 : 0);
  } else if (info_.lock == FlashLockKind::CmdBit31) {
    const std::uint32_t mask = 1u << info_.layout.lock_bit;
    const std::uint32_t cmd = cr_->peek(info_.cmd_addr);
    cr_->poke(info_.cmd_addr, locked ? (cmd | mask) : (cmd & ~mask));
  }
}

void FlashGateway::reset() {
  if (info_.is_i2c_eeprom()) return;
  cr_->poke(info_.cmd_addr, 0);
  if (cfi_) {  // the chip, the bus hand-over and the GPIO pins come up in their reset state
    cfi_->reset();
    const ParallelGatewayLayout& p = info_.parallel;
    for (const std::uint32_t reg : {p.cpumode_addr, p.gpio_data_addr, p.gpio_dir_addr, p.gpio_pol_addr, p.gpio_mod_addr})
      cr_->poke(reg, 0);
  }
  if (info_.lock == FlashLockKind::Semaphore) cr_->poke(info_.semaphore_addr, 0);
  if (info_.chip_select_support_addr != 0) cr_->poke(info_.chip_select_support_addr, 0);
}

Result<std::uint32_t> FlashGateway::read_cmd() {
  const std::uint32_t value = cr_->peek(info_.cmd_addr);
  if (info_.lock == FlashLockKind::CmdBit31) set_locked(true);
  return value;
}

bool FlashGateway::command_word(std::uint32_t value) const {
  if (cfi_) return (value >> info_.parallel.opcode_shift) != 0;
  return ((value >> info_.layout.busy_bit) & 1u) != 0;
}

Result<void> FlashGateway::write_cmd(std::uint32_t value) {
  const std::uint32_t busy = cfi_ ? ~0u << info_.parallel.opcode_shift : 1u << info_.layout.busy_bit;
  if (!command_word(value)) {  // a plain store, e.g. writing 0 to release the lock
    cr_->poke(info_.cmd_addr, value);
    return {};
  }
  ++commands_;
  if (fail_at_ != 0 && commands_ == fail_at_) {
    fail_at_ = 0;
    return make_error(ErrorCode::Io, "simulated flash gateway failure on command " +
                                         std::to_string(commands_) + " (cmd " + hex_string(value) + ")");
  }
  execute(value);
  cr_->poke(info_.cmd_addr, value & ~busy);
  return {};
}

std::uint32_t FlashGateway::data_bytes(std::uint32_t cmd) const {
  const GatewayLayout& l = info_.layout;
  const std::uint32_t field = (cmd >> l.data_size_shift) & ((1u << l.data_size_width) - 1);
  const std::uint32_t bytes = l.data_size_is_log2 ? (1u << field) : field;
  return std::min<std::uint32_t>(bytes, 4 * info_.data_dwords);
}

void FlashGateway::execute(std::uint32_t cmd) {
  if (cfi_) {
    execute_parallel(cmd);
    return;
  }
  if (info_.bank_select_addr != 0 && ((cr_->peek(info_.bank_select_addr) >> info_.bank_select_shift) & 3u) != 0)
    return;  // only bank 0 is populated
  if (info_.layout.style == GatewayCommandStyle::Special) {
    execute_special(cmd);
  } else {
    execute_phased(cmd);
  }
}

void FlashGateway::install_parallel_hooks() {
  cfi_ = std::make_unique<CfiNorFlash>(flash_->chip(), *flash_);
  const ParallelGatewayLayout& p = info_.parallel;
  cr_->add_hook(
      p.gpio_set_addr, p.gpio_set_addr, [](std::uint32_t) -> Result<std::uint32_t> { return 0; },
      [this, p](std::uint32_t, std::uint32_t v) -> Result<void> {
        cr_->poke(p.gpio_data_addr, cr_->peek(p.gpio_data_addr) | v);
        return {};
      });
  cr_->add_hook(
      p.gpio_clear_addr, p.gpio_clear_addr, [](std::uint32_t) -> Result<std::uint32_t> { return 0; },
      [this, p](std::uint32_t, std::uint32_t v) -> Result<void> {
        cr_->poke(p.gpio_data_addr, cr_->peek(p.gpio_data_addr) & ~v);
        return {};
      });
}

void FlashGateway::execute_parallel(std::uint32_t cmd) {
  const ParallelGatewayLayout& p = info_.parallel;
  const std::uint32_t opcode = cmd >> p.opcode_shift;
  const bool bus_ours = ((cr_->peek(p.cpumode_addr) >> p.cpumode_shift) & 3u) == 1u;
  const std::uint32_t driven = cr_->peek(p.gpio_dir_addr) & p.bank_mask();
  const std::uint32_t bank = (cr_->peek(p.gpio_data_addr) & driven) >> p.bank_gpio_shift;
  const std::uint32_t address = (bank << p.log2_bank_size) | (cmd & p.offset_mask());
  if (opcode == p.read4_opcode) {
    cr_->poke(p.data_addr, bus_ours ? cfi_->read4(address) : 0xffffffffu);
  } else if (opcode == p.write1_opcode && bus_ours) {
    cfi_->write_byte(address, static_cast<std::uint8_t>(cr_->peek(p.data_addr) >> 24));
  }
}

void FlashGateway::execute_special(std::uint32_t cmd) {
  const GatewayLayout& l = info_.layout;
  const std::uint32_t addr_word = cr_->peek(info_.addr_addr);
  const std::uint32_t address = addr_word & ((1u << l.addr_opcode_shift) - 1);
  if (bit(cmd, l.special_bit)) {
    flash_->command(static_cast<std::uint8_t>(addr_word >> l.addr_opcode_shift));
    if (!bit(cmd, l.no_addr_bit)) flash_->address(address, 3);
    if (!bit(cmd, l.no_data_bit)) transfer_data(cmd, data_bytes(cmd));
  } else if (bit(cmd, l.read_op_bit)) {  // the gateway's own array read
    flash_->command(spi::kRead);
    flash_->address(address, 3);
    transfer_data(cmd, data_bytes(cmd));
  }
  flash_->deselect();
}

void FlashGateway::execute_phased(std::uint32_t cmd) {
  const GatewayLayout& l = info_.layout;
  if (info_.needs_flash_enable && !bit(cmd, l.flash_enable_bit)) return;
  if (!chip_selected(cmd)) {  // nothing drives the data lines: reads return all ones
    if (bit(cmd, l.data_phase_bit) && bit(cmd, l.read_op_bit))
      for (std::uint32_t d = 0; d < info_.data_dwords; ++d) cr_->poke(info_.data_addr + 4 * d, 0xffffffffu);
    return;
  }
  if (bit(cmd, l.cmd_phase_bit)) {
    flash_->command(static_cast<std::uint8_t>(cmd >> l.opcode_shift));
  }
  if (bit(cmd, l.addr_phase_bit)) {
    const bool four = info_.supports_4byte_address && bit(cmd, l.addr4_bit);
    flash_->address(cr_->peek(info_.addr_addr), four ? 4 : 3);
  }
  if (bit(cmd, l.data_phase_bit)) transfer_data(cmd, data_bytes(cmd));
  if (!bit(cmd, l.cs_hold_bit)) flash_->deselect();
}

// Chip select 0 is the one populated part. With a chip-select support register (SwitchX) a
// chip select also needs its bit in that register's mask, as the tools set it before use.
bool FlashGateway::chip_selected(std::uint32_t cmd) const {
  const std::uint32_t cs = (cmd >> info_.layout.chip_select_bit) & 3u;
  if (cs != 0) return false;
  if (info_.chip_select_support_addr == 0) return true;
  return (cr_->peek(info_.chip_select_support_addr) & 1u) != 0;
}

void FlashGateway::transfer_data(std::uint32_t cmd, std::uint32_t bytes) {
  std::array<std::uint8_t, 64> buffer{};
  bytes = std::min<std::uint32_t>(bytes, buffer.size());
  const std::span<std::uint8_t> data(buffer.data(), bytes);
  if (bit(cmd, info_.layout.read_op_bit)) {
    flash_->read_data(data);
    for (std::uint32_t d = 0; d < info_.data_dwords; ++d) {
      std::uint32_t word = 0;
      for (std::uint32_t b = 0; b < 4; ++b) word = (word << 8) | buffer[4 * d + b];
      cr_->poke(info_.data_addr + 4 * d, word);
    }
    return;
  }
  for (std::uint32_t i = 0; i < bytes; ++i) {
    const std::uint32_t word = cr_->peek(info_.data_addr + 4 * (i / 4));
    buffer[i] = static_cast<std::uint8_t>(word >> (24 - 8 * (i % 4)));
  }
  flash_->write_data(data);
}

}  // namespace openflint::sim
