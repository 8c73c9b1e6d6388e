// I2cEeprom: a simulated 24Cxx-class I2C EEPROM (page writes, internal write cycle, write-protect pin).
#pragma once

#include <cstdint>
#include <span>

#include "core/Result.h"
#include "sim/SpiNorFlash.h"

namespace openflint::sim {

// One EEPROM at a 7-bit device address whose bytes are cells [base, base + size) of `cells` (the
// device's storage array, saved as flash.bin with the rest). Our model of a 24C512-class part:
//   - a read sets the address pointer and streams bytes, crossing pages; at the end of the
//     memory it rolls over to offset 0;
//   - a write sends the offset and up to one page: the address counter wraps inside the page
//     (bytes past its end land at the page's start, as on real parts); then the internal write
//     cycle runs and the device acknowledges nothing (ErrorCode::Busy, a NACK) for
//     kWriteCycleTransactions transactions (plus the cells' busy_polls fault; stuck_busy: forever);
//   - with the write-protect pin asserted (the cells' write_protected fault) a write is
//     acknowledged and ignored, and no write cycle starts;
//   - a write may be cut short (power lost mid-cycle): only its first `keep` bytes take effect,
//     the rest of the page keeps its old bytes.
class I2cEeprom {
 public:
  static constexpr std::uint32_t kWriteCycleTransactions = 3;

  I2cEeprom(std::uint8_t device, std::uint32_t base, std::uint32_t size, std::uint32_t page_size, SpiNorFlash& cells)
      : device_(device), base_(base), size_(size), page_size_(page_size), cells_(&cells) {}

  [[nodiscard]] std::uint8_t device() const { return device_; }
  [[nodiscard]] Result<void> read(std::uint32_t offset, std::span<std::uint8_t> out);
  // `keep`: how many of the bytes reach the cells (all of them unless power is cut meanwhile).
  [[nodiscard]] Result<void> write(std::uint32_t offset, std::span<const std::uint8_t> bytes, std::size_t keep);
  // Whether the device would acknowledge now (no write cycle running); does not count as a poll.
  [[nodiscard]] bool ready() const { return !cells_->stuck_busy() && cycle_left_ == 0; }
  // Power loss: the write cycle (and the page it was writing, as far as it got) ends.
  void reset() { cycle_left_ = 0; }

 private:
  // A transaction while the write cycle runs: not acknowledged, counts down the cycle.
  [[nodiscard]] bool refuse();

  std::uint8_t device_;
  std::uint32_t base_;
  std::uint32_t size_;
  std::uint32_t page_size_;
  SpiNorFlash* cells_;
  std::uint32_t cycle_left_ = 0;
};

}  // namespace openflint::sim
