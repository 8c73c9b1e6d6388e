// FlashTimeouts: how long the flash driver waits for the lock, the gateway and the chip.
#pragma once

#include <chrono>
#include <cstdint>

namespace openflint {

struct FlashTimeouts {
  std::chrono::milliseconds lock{5000};            // mstflint also gives up after ~5 s
  std::chrono::milliseconds write_in_progress{20000};  // a 64 KiB erase can take seconds
  // BUSY must clear within this many reads of CMD (about 5 ms at a PCIe read each) ...
  std::uint32_t gateway_busy_polls = 5000;
  // ... and the wait also lasts at least this long: a BAR served from shared memory (sim's
  // BarServer) reads in ~5 ns, so 5000 polls alone give up after 25 us, before a descheduled
  // server thread runs again (on a loaded 2-core machine, 100 ms was seen to be too short).
  // A real gateway answers in microseconds, so this only delays noticing a dead device.
  // Slower transports use up their polls first.
  std::chrono::milliseconds gateway_busy{2000};
  // An I2C EEPROM does not acknowledge during its internal write cycle (24Cxx: 5-10 ms); the
  // driver polls by retrying the next transaction until this has passed. Generous for in-band
  // transports, where one poll is a MAD round trip.
  std::chrono::milliseconds eeprom_write_cycle{500};
};

}  // namespace openflint
