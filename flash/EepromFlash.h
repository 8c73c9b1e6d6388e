// EepromFlash: the firmware EEPROMs of an InfiniScale-class switch, on its I2C bus, as one linear FlashBus.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "core/Result.h"
#include "devices/FlashChip.h"
#include "devices/I2cEepromMap.h"
#include "flash/EepromStats.h"
#include "flash/FlashBus.h"
#include "flash/FlashTimeouts.h"
#include "mtcr/I2cAccess.h"

namespace openflint {

// Linear address A is EEPROM map.device_of(A) at map.offset_of(A) (devices/I2cEepromMap.h).
// Reads go in max_transfer() chunks; programs in page-aligned page writes (never crossing a page,
// which an EEPROM would wrap). A device busy in its write cycle does not acknowledge (Busy): every
// transaction is retried until FlashTimeouts::eeprom_write_cycle has passed (ack polling), and a
// program waits for the last write cycle before it returns. "Erase" writes 0xFF (EEPROMs have no
// erase; FlashChip::erase_before_program() tells the driver to skip it). The first page written
// after open is read back: a part whose write-protect pin is asserted acknowledges and ignores a
// write, which is reported then, before anything else was attempted.
class EepromFlash final : public FlashBus {
 public:
  // Finds the catalog record of the EEPROM set `map` describes and checks that every device answers.
  [[nodiscard]] static Result<std::unique_ptr<EepromFlash>> open(I2cAccess& bus, const I2cEepromMap& map,
                                                                 FlashTimeouts timeouts);

  [[nodiscard]] const FlashChip& chip() const override { return *chip_; }
  [[nodiscard]] Result<void> read(std::uint32_t address, std::span<std::uint8_t> out) override;
  [[nodiscard]] Result<void> erase(std::uint32_t address) override;
  [[nodiscard]] Result<void> program(std::uint32_t address, std::span<const std::uint8_t> bytes) override;
  // 0x01 while the EEPROM last written is still in its write cycle, else 0.
  [[nodiscard]] Result<std::uint8_t> read_status() override;
  [[nodiscard]] const EepromStats& stats() const { return stats_; }

 private:
  EepromFlash(I2cAccess& bus, const I2cEepromMap& map, const FlashChip& chip, FlashTimeouts timeouts)
      : bus_(&bus), map_(map), chip_(&chip), timeouts_(timeouts) {}
  // One transaction, retried while the device does not acknowledge.
  [[nodiscard]] Result<void> read_polled(std::uint8_t device, std::uint32_t offset, std::span<std::uint8_t> out);
  [[nodiscard]] Result<void> write_polled(std::uint8_t device, std::uint32_t offset, std::span<const std::uint8_t> bytes);
  [[nodiscard]] Result<void> write_page(std::uint32_t address, std::span<const std::uint8_t> bytes);

  I2cAccess* bus_;
  I2cEepromMap map_;
  const FlashChip* chip_;
  FlashTimeouts timeouts_;
  EepromStats stats_;
  bool write_checked_ = false;
  std::int32_t last_written_ = -1;  // device of the last write, -1 = none
};

}  // namespace openflint
