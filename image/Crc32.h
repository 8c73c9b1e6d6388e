// Crc32: the zlib CRC32 (MFA archive trailer), incremental.
#pragma once

#include <cstdint>

#include "core/ByteReader.h"

namespace openflint {

class Crc32 {
 public:
  void update(Bytes data);
  [[nodiscard]] std::uint32_t value() const { return value_; }

 private:
  std::uint32_t value_ = 0;
};

[[nodiscard]] std::uint32_t crc32(Bytes data);

}  // namespace openflint
