// MemoryCrSpace: a plain in-memory CR-space array (a CrSpaceBackend for tests and the demo responder).
#pragma once

#include <cstdint>
#include <vector>

#include "fabricsim/CrSpaceBackend.h"

namespace openflint {

class MemoryCrSpace final : public CrSpaceBackend {
 public:
  static constexpr std::uint32_t kHwIdAddress = 0xf0014;

  // `bytes` of CR-space (rounded down to dwords) filled with pattern_value(), hw id at 0xf0014.
  MemoryCrSpace(std::uint32_t bytes, std::uint32_t hw_id);

  [[nodiscard]] Result<std::uint32_t> read32(std::uint32_t address) override;
  [[nodiscard]] Result<void> write32(std::uint32_t address, std::uint32_t value) override;

  // The initial content of every dword other than the hw id (tests compute it independently).
  [[nodiscard]] static constexpr std::uint32_t pattern_value(std::uint32_t address) {
    return (address * 2654435761u) ^ 0x5a5a0000u;
  }

 private:
  [[nodiscard]] Result<std::size_t> index_of(std::uint32_t address) const;
  std::vector<std::uint32_t> words_;
};

}  // namespace openflint
