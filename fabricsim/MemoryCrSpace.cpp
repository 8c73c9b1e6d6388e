// MemoryCrSpace: bounds-checked dword array.
#include "fabricsim/MemoryCrSpace.h"

#include <cstdio>

namespace openflint {

MemoryCrSpace::MemoryCrSpace(std::uint32_t bytes, std::uint32_t hw_id) : words_(bytes / 4) {
  for (std::size_t i = 0; i < words_.size(); ++i) words_[i] = pattern_value(static_cast<std::uint32_t>(i * 4));
  if (kHwIdAddress / 4 < words_.size()) words_[kHwIdAddress / 4] = hw_id;
}

Result<std::size_t> MemoryCrSpace::index_of(std::uint32_t address) const {
  if (address % 4 != 0 || address / 4 >= words_.size()) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "cr-space address 0x%x is unaligned or beyond 0x%zx", address, words_.size() * 4);
    return make_error(ErrorCode::InvalidArgument, buf);
  }
  return static_cast<std::size_t>(address / 4);
}

Result<std::uint32_t> MemoryCrSpace::read32(std::uint32_t address) {
  OF_ASSIGN(const std::size_t i, index_of(address));
  return words_[i];
}

Result<void> MemoryCrSpace::write32(std::uint32_t address, std::uint32_t value) {
  OF_ASSIGN(const std::size_t i, index_of(address));
  words_[i] = value;
  return {};
}

}  // namespace openflint
