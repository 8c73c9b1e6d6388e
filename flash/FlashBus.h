// FlashBus: the primitive operations of one kind of flash (SPI gateway, parallel CFI, I2C EEPROMs, the running firmware).
#pragma once

#include <cstdint>
#include <span>

#include "core/Result.h"
#include "devices/FlashChip.h"

namespace openflint {

// What FlashDriver needs of a flash beyond the lock, range checks, differential writes and
// verification, which it keeps for every kind: flash/SpiGatewayBus, flash/ParallelFlash,
// flash/EepromFlash and flash/FirmwareFlashBus implement it.
class FlashBus {
 public:
  virtual ~FlashBus() = default;
  FlashBus(const FlashBus&) = delete;
  FlashBus& operator=(const FlashBus&) = delete;

  [[nodiscard]] virtual const FlashChip& chip() const = 0;
  // The id the part answered; default: the catalog's (EEPROMs: none, 0).
  [[nodiscard]] virtual std::uint32_t jedec_id() const { return chip().jedec_id; }
  [[nodiscard]] virtual Result<void> read(std::uint32_t address, std::span<std::uint8_t> out) = 0;
  // Erases the chip().min_erase_size() unit at `address` (aligned); returns when it is done.
  [[nodiscard]] virtual Result<void> erase(std::uint32_t address) = 0;
  // Programs bytes (NOR: clears bits); returns when the part is done.
  [[nodiscard]] virtual Result<void> program(std::uint32_t address, std::span<const std::uint8_t> bytes) = 0;
  // The part's status byte as its command set reports it.
  [[nodiscard]] virtual Result<std::uint8_t> read_status() = 0;

 protected:
  FlashBus() = default;
};

}  // namespace openflint
