// CrSpaceBackend: what a MAD responder serves CR-space reads and writes from.
#pragma once

#include <cstdint>

#include "core/Result.h"

namespace openflint {

// A device's CR-space as seen by the responder. Errors become MAD status 0x1c (invalid value).
class CrSpaceBackend {
 public:
  virtual ~CrSpaceBackend() = default;
  [[nodiscard]] virtual Result<std::uint32_t> read32(std::uint32_t address) = 0;
  [[nodiscard]] virtual Result<void> write32(std::uint32_t address, std::uint32_t value) = 0;
};

}  // namespace openflint
