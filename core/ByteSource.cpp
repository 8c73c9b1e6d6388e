// ByteSource: the shared helpers of every source.
#include "core/ByteSource.h"

#include <string>

#include "core/HexString.h"

namespace openflint {

Result<std::vector<std::uint8_t>> ByteSource::read_range(std::uint64_t offset, std::uint64_t length) const {
  if (offset > size() || length > size() - offset) return out_of_range(offset, length);
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(length));
  OF_TRY(read(offset, bytes));
  return bytes;
}

Unexpected ByteSource::out_of_range(std::uint64_t offset, std::uint64_t length) const {
  return make_error(ErrorCode::InvalidImage, "read of " + std::to_string(length) + " bytes at " +
                                                 hex_string(offset) + " is past the end (" +
                                                 std::to_string(size()) + " bytes)");
}

}  // namespace openflint
