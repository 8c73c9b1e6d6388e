// FlashEdit: bytes to put at a flash address — what a raw write (ww, wb, erase, sg/sv on FS3) asks for.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace openflint {

struct FlashEdit {
  std::uint64_t address = 0;
  std::vector<std::uint8_t> bytes;
  [[nodiscard]] std::uint64_t end() const { return address + bytes.size(); }
};

// `flash` as it reads after `edits`, applied in order (parts past its end are dropped).
inline void apply_edits(std::vector<std::uint8_t>& flash, std::span<const FlashEdit> edits) {
  for (const FlashEdit& e : edits) {
    if (e.address >= flash.size()) continue;
    const std::uint64_t n = std::min<std::uint64_t>(e.bytes.size(), flash.size() - e.address);
    std::copy_n(e.bytes.begin(), n, flash.begin() + static_cast<std::ptrdiff_t>(e.address));
  }
}

}  // namespace openflint
