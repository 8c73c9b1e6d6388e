// ParallelFlash: a parallel CFI NOR part (Intel or AMD command set) through the InfiniHost CR_FLASH gateway.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>

#include "core/Result.h"
#include "devices/FlashGatewayInfo.h"
#include "flash/FlashBus.h"
#include "flash/FlashTimeouts.h"
#include "mtcr/RegisterAccess.h"

namespace openflint {

// Facts: docs/legacy-devices.md. open() saves the GPIO registers, makes the bank pins outputs,
// hands the flash bus to the gateway (CPUMODE), runs the CFI query, finds the part in the flash
// catalog by its command set and geometry, and resets it to array reads. The destructor restores
// the GPIO registers (CPUMODE stays, as the vendor's tools leave it). The caller holds the
// flash lock (the 0xf03fc semaphore) for the whole lifetime.
class ParallelFlash final : public FlashBus {
 public:
  [[nodiscard]] static Result<std::unique_ptr<ParallelFlash>> open(RegisterAccess& access,
                                                                   const FlashGatewayInfo& gateway,
                                                                   FlashTimeouts timeouts);
  ~ParallelFlash() override;

  [[nodiscard]] const FlashChip& chip() const override { return *chip_; }
  [[nodiscard]] Result<void> read(std::uint32_t address, std::span<std::uint8_t> out) override;
  [[nodiscard]] Result<void> erase(std::uint32_t address) override;
  [[nodiscard]] Result<void> program(std::uint32_t address, std::span<const std::uint8_t> bytes) override;
  [[nodiscard]] Result<std::uint8_t> read_status() override;

  // One gateway bus cycle each (the bank is selected first).
  [[nodiscard]] Result<std::uint32_t> read4(std::uint32_t address);
  [[nodiscard]] Result<void> write1(std::uint32_t address, std::uint8_t value);

 private:
  ParallelFlash(RegisterAccess& access, const FlashGatewayInfo& gateway, FlashTimeouts timeouts);
  [[nodiscard]] Result<void> setup_gpios();
  [[nodiscard]] Result<void> query();
  [[nodiscard]] Result<void> select_bank(std::uint32_t address);
  // Polls CMD until the cycle is done; with `data`, also returns DATA (the read cycle's bytes).
  [[nodiscard]] Result<void> wait_idle(std::uint32_t* data);
  [[nodiscard]] std::uint32_t command(std::uint32_t opcode, std::uint32_t address) const;
  [[nodiscard]] Result<void> reset_part();
  // AMD (command set 2)
  [[nodiscard]] Result<void> amd_unlock(std::uint32_t address, std::uint8_t command);
  // `bypass`: the part is in unlock bypass (0xA0 + data), else the full unlock precedes it.
  [[nodiscard]] Result<void> amd_program_byte(std::uint32_t address, std::uint8_t value, bool bypass);
  [[nodiscard]] Result<void> amd_program(std::uint32_t address, std::span<const std::uint8_t> bytes);
  [[nodiscard]] Result<void> amd_wait(std::uint32_t address, std::uint32_t mask, std::uint32_t expected,
                                      std::chrono::milliseconds limit, const char* what);
  [[nodiscard]] Result<void> amd_erase(std::uint32_t address);
  // Intel (command set 1)
  [[nodiscard]] Result<std::uint8_t> intel_wait(std::uint32_t address, std::chrono::milliseconds limit, const char* what);
  [[nodiscard]] Result<void> intel_check(std::uint8_t status, std::uint32_t address, const char* what);
  [[nodiscard]] Result<void> intel_erase(std::uint32_t address);
  [[nodiscard]] Result<void> intel_program_buffer(std::uint32_t address, std::span<const std::uint8_t> bytes);
  [[nodiscard]] Result<void> intel_program_byte(std::uint32_t address, std::uint8_t value);
  [[nodiscard]] bool intel() const { return chip_->cfi.command_set == 1; }

  RegisterAccess* access_;
  ParallelGatewayLayout layout_;
  FlashTimeouts timeouts_;
  const FlashChip* chip_ = nullptr;
  std::uint32_t buffer_size_ = 0;      // Intel write buffer (CFI 0x2A), 0 = byte programs
  std::int64_t bank_ = -1;             // the bank the GPIOs select now, -1 = unknown
  bool gpios_saved_ = false;
  std::array<std::uint32_t, 4> saved_gpio_{};  // data, dir, pol, mod
};

}  // namespace openflint
