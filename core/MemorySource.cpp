// MemorySource: bounds-checked copies out of a memory buffer.
#include "core/MemorySource.h"

#include <algorithm>

namespace openflint {

Result<void> MemorySource::read(std::uint64_t offset, std::span<std::uint8_t> out) const {
  if (offset > view_.size() || out.size() > view_.size() - offset) return out_of_range(offset, out.size());
  std::copy_n(view_.begin() + static_cast<std::ptrdiff_t>(offset), out.size(), out.begin());
  return {};
}

}  // namespace openflint
