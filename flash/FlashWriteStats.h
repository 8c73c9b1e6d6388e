// FlashWriteStats: what a differential flash write actually did.
#pragma once

#include <cstdint>

namespace openflint {

struct FlashWriteStats {
  std::uint64_t sectors_total = 0;      // erase units overlapping the written range
  std::uint64_t sectors_unchanged = 0;  // already held the data: not touched
  std::uint64_t sectors_erased = 0;
  std::uint64_t sectors_program_only = 0;  // changed by clearing bits only: no erase needed
  std::uint64_t sectors_probed = 0;  // remote transports: erased on a 16-byte probe, not read whole
  std::uint64_t pages_programmed = 0;       // page-program commands issued
  std::uint64_t bytes_programmed = 0;
};

}  // namespace openflint
