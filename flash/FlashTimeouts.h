// FlashTimeouts: how long the flash driver waits for the lock, the gateway and the chip.
#pragma once

#include <chrono>
#include <cstdint>

namespace openflint {

struct FlashTimeouts {
  std::chrono::milliseconds lock{5000};            // mstflint also gives up after ~5 s
  std::chrono::milliseconds write_in_progress{20000};  // a 64 KiB erase can take seconds
  std::uint32_t gateway_busy_polls = 5000;          // reads of CMD before BUSY must have cleared
};

}  // namespace openflint
