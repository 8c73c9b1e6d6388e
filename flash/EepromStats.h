// EepromStats: what the EEPROM burner saw of the EEPROMs' write cycles (tests prove it polls).
#pragma once

#include <cstdint>

namespace openflint {

struct EepromStats {
  std::uint64_t transactions = 0;  // I2C reads and writes that were acknowledged
  std::uint64_t busy_polls = 0;    // transactions the device did not acknowledge (write cycle), retried
  std::uint64_t page_writes = 0;
};

}  // namespace openflint
