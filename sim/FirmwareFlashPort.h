// FirmwareFlashPort: the running firmware's own SPI master on a simulated device's flash chip.
#pragma once

#include <cstdint>
#include <span>

#include "core/Result.h"
#include "sim/SpiNorFlash.h"

namespace openflint::sim {

// Drives the chip with the same SPI commands the gateway would (write enable, the chip's smallest
// erase, page program, read), so the chip's counters, write protection and busy time apply;
// the firmware waits out busy itself. Io when the chip ignored a command (write protected) or
// never got ready.
class FirmwareFlashPort {
 public:
  explicit FirmwareFlashPort(SpiNorFlash& flash) : flash_(&flash) {}

  // Erases every erase unit (FlashChip::min_erase_size) that [address, address + size) touches.
  [[nodiscard]] Result<void> erase(std::uint32_t address, std::uint32_t size);
  // Programs `bytes` at `address` (page programs split at page boundaries; NOR: bits only clear).
  [[nodiscard]] Result<void> program(std::uint32_t address, std::span<const std::uint8_t> bytes);
  [[nodiscard]] Result<void> read(std::uint32_t address, std::span<std::uint8_t> out);

 private:
  void send_address(std::uint32_t address);
  [[nodiscard]] Result<void> write_enable();
  [[nodiscard]] Result<void> wait_ready();
  [[nodiscard]] bool four_byte() const { return flash_->chip().needs_4byte_address(); }

  SpiNorFlash* flash_;
};

}  // namespace openflint::sim
