// Crc32: thin wrapper over zlib's crc32, fed in chunks zlib's uInt length can hold.
#include "image/Crc32.h"

#include <zlib.h>

#include <algorithm>

namespace openflint {

void Crc32::update(Bytes data) {
  constexpr std::size_t kChunk = 1u << 30;
  while (!data.empty()) {
    const std::size_t n = std::min(data.size(), kChunk);
    value_ = static_cast<std::uint32_t>(::crc32(value_, data.data(), static_cast<uInt>(n)));
    data = data.subspan(n);
  }
}

std::uint32_t crc32(Bytes data) {
  Crc32 crc;
  crc.update(data);
  return crc.value();
}

}  // namespace openflint
