// MemoryI2cBus: an I2C bus of plain memory EEPROMs (an I2cAccess for tests and the demo responder).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "mtcr/I2cAccess.h"

namespace openflint {

// Stands in for a switch's EEPROM bus until a simulated device models one: each device is a
// byte array (erased to 0xff). Like a 24Cxx part it ignores transactions while "in its write
// cycle": after every write the device does not acknowledge the next `nacks_after_write`
// transactions (ErrorCode::Busy), and an address with no device never acknowledges. An access
// past a device's end is InvalidArgument.
class MemoryI2cBus final : public I2cAccess {
 public:
  explicit MemoryI2cBus(unsigned nacks_after_write = 0, std::size_t max_transfer = 256)
      : nacks_after_write_(nacks_after_write), max_transfer_(max_transfer) {}

  // Adds (or replaces) a device of `bytes` bytes at 7-bit address `device`.
  void add_device(std::uint8_t device, std::size_t bytes);

  [[nodiscard]] Result<void> read(std::uint8_t device, std::uint32_t offset, std::span<std::uint8_t> out) override;
  [[nodiscard]] Result<void> write(std::uint8_t device, std::uint32_t offset,
                                   std::span<const std::uint8_t> bytes) override;
  [[nodiscard]] std::size_t max_transfer() const override { return max_transfer_; }

  // The device's memory (empty for an absent device).
  [[nodiscard]] std::span<const std::uint8_t> contents(std::uint8_t device) const;
  // Transactions not acknowledged so far (absent devices and write cycles).
  [[nodiscard]] std::uint64_t nacks() const { return nacks_; }

 private:
  struct Eeprom {
    std::vector<std::uint8_t> memory;
    unsigned busy = 0;  // transactions still to refuse
  };
  // The device if it acknowledges now, else the Busy error (counting the refusal).
  [[nodiscard]] Result<Eeprom*> select(std::uint8_t device, std::uint32_t offset, std::size_t size);

  unsigned nacks_after_write_;
  std::size_t max_transfer_;
  std::map<std::uint8_t, Eeprom> devices_;
  std::uint64_t nacks_ = 0;
};

}  // namespace openflint
