// I2cMaster: the simulated switch's I2C master with its firmware EEPROMs, behind mtcr/I2cAccess.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/Result.h"
#include "devices/I2cEepromMap.h"
#include "mtcr/I2cAccess.h"
#include "sim/I2cEeprom.h"
#include "sim/SpiNorFlash.h"

namespace openflint::sim {

class SimDevice;

struct I2cCounters {
  std::uint64_t transactions = 0;  // acknowledged reads and writes
  std::uint64_t nacks = 0;         // transactions no device acknowledged (write cycle, absent device)
  std::uint64_t page_writes = 0;   // writes that started a write cycle
};

// The EEPROMs of `map` over consecutive windows of the device's cell array (EEPROM i holds
// cells [i * chip_size, (i + 1) * chip_size)), so flash.bin is the linear image the burner sees.
// Each transaction runs under the device's bus lock: powered off = Io; a page write counts as one
// flash operation towards SimFaults::power_cut_after_ops, and the write the cut falls on reaches
// only the first half of its bytes. A device address nothing answers is a NACK (Busy).
class I2cMaster final : public I2cAccess {
 public:
  static constexpr std::size_t kMaxTransfer = 128;

  I2cMaster(SimDevice& device, const I2cEepromMap& map, SpiNorFlash& cells);

  [[nodiscard]] Result<void> read(std::uint8_t device, std::uint32_t offset, std::span<std::uint8_t> out) override;
  [[nodiscard]] Result<void> write(std::uint8_t device, std::uint32_t offset, std::span<const std::uint8_t> bytes) override;
  [[nodiscard]] std::size_t max_transfer() const override { return kMaxTransfer; }

  [[nodiscard]] const I2cCounters& counters() const { return counters_; }
  void set_counters(const I2cCounters& c) { counters_ = c; }
  // Power loss: every write cycle ends.
  void reset();

 private:
  [[nodiscard]] I2cEeprom* find(std::uint8_t device);
  [[nodiscard]] Result<void> count(Result<void> r);

  SimDevice* device_;
  std::vector<I2cEeprom> eeproms_;
  I2cCounters counters_;
};

}  // namespace openflint::sim
