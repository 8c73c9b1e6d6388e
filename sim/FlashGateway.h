// FlashGateway: the CR-space flash gateway (CMD/ADDR/DATA, lock, semaphore) in front of a SpiNorFlash.
#pragma once

#include <cstdint>
#include <memory>

#include "core/Result.h"
#include "devices/FlashGatewayInfo.h"
#include "sim/CfiNorFlash.h"
#include "sim/CrSpace.h"
#include "sim/SpiNorFlash.h"

namespace openflint::sim {

// Installs hooks on the gateway registers of `info` inside `cr`. Writing CMD with BUSY set runs
// one transaction: [CMD_PHASE: opcode] [ADDR_PHASE: 3 or 4 address bytes] [DATA_PHASE: up to
// 16 bytes in or out of DATA, big-endian in each dword], then chip select is released unless
// CS_HOLD is set, so a later data-only command continues the same SPI command. BUSY reads back
// clear at once. Lock: CmdBit31 = a CMD read returns the lock bit and sets it, a CMD write stores
// bit 31; Semaphore = a read of the semaphore returns its value and sets it, a write stores it.
// Generations needing the flash-enable bit drop commands that lack it (the chip is not driven:
// BUSY clears, DATA keeps what it held). Chip select (CMD [12:11]): only chip select 0 has a
// part; with a chip-select support register (SwitchX 0xf0420 [3:0]) chip select 0 also needs
// bit 0 there (a power cut clears it). An unselected chip leaves DATA all ones on reads.
// GatewayCommandStyle::Special (InfiniHost III Lx): SPECIAL sends the opcode in ADDR[31:24],
// then the 3 address bytes of ADDR[23:0] unless NO_ADDR, then MSIZE data bytes unless NO_DATA;
// a command without SPECIAL but with READ_OP reads MSIZE bytes of the array at ADDR[23:0];
// every command ends with chip select released. A bank-select register other than bank 0
// (only bank 0 is populated) leaves the chip undriven.
// GatewayGeneration::ParallelFlash (InfiniHost, III Ex): the chip is a CfiNorFlash over the same
// cells. A CMD write with a non-zero opcode in [31:29] runs one bus cycle: READ4 puts 4 bytes in
// DATA, WRITE1 writes DATA[31:24]; the address is (bank << 19) | CMD[18:0], the bank being GPIO
// data [6:4] where GPIO_DIR makes those pins outputs (else 0). GPIO_DATASET / DATACLEAR set and
// clear data bits. Until CPUMODE[31:30] = 01 hands the bus to the gateway, reads return all ones
// and writes do not reach the chip (our model: what that register does is not documented).
class FlashGateway {
 public:
  FlashGateway(const FlashGatewayInfo& info, CrSpace& cr, SpiNorFlash& flash);
  FlashGateway(const FlashGateway&) = delete;
  FlashGateway& operator=(const FlashGateway&) = delete;

  // Fault injection: the nth command from now (1-based) fails with ErrorCode::Io and is not run.
  void fail_command_at(std::uint64_t nth) { fail_at_ = nth == 0 ? 0 : commands_ + nth; }
  [[nodiscard]] std::uint64_t commands() const { return commands_; }
  void set_commands(std::uint64_t n) { commands_ = n; }
  [[nodiscard]] std::uint64_t pending_failure() const { return fail_at_ > commands_ ? fail_at_ - commands_ : 0; }

  [[nodiscard]] bool locked() const;
  void set_locked(bool locked);
  // Power loss: lock and semaphore clear, the command register resets.
  void reset();

 private:
  [[nodiscard]] Result<std::uint32_t> read_cmd();
  [[nodiscard]] Result<void> write_cmd(std::uint32_t value);
  void execute(std::uint32_t cmd);
  void execute_phased(std::uint32_t cmd);
  void execute_special(std::uint32_t cmd);
  void transfer_data(std::uint32_t cmd, std::uint32_t bytes);
  [[nodiscard]] std::uint32_t data_bytes(std::uint32_t cmd) const;
  [[nodiscard]] bool command_word(std::uint32_t value) const;
  [[nodiscard]] bool chip_selected(std::uint32_t cmd) const;
  void install_parallel_hooks();
  void execute_parallel(std::uint32_t cmd);

  FlashGatewayInfo info_;
  CrSpace* cr_;
  SpiNorFlash* flash_;
  std::unique_ptr<CfiNorFlash> cfi_;  // parallel generations only
  std::uint64_t commands_ = 0;
  std::uint64_t fail_at_ = 0;
};

}  // namespace openflint::sim
