// Md5: incremental MD5 digest (RFC 1321), for checksums compared with mstflint's `checksum`.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "core/ByteReader.h"

namespace openflint {

class Md5 {
 public:
  using Digest = std::array<std::uint8_t, 16>;

  void update(Bytes data);
  // The digest of everything fed so far; the object stays usable for further updates.
  [[nodiscard]] Digest finish() const;

  // 32 lower-case hex digits, as md5sum and mstflint print.
  [[nodiscard]] static std::string to_hex(const Digest& digest);

 private:
  void block(const std::uint8_t* p);

  std::array<std::uint32_t, 4> state_{0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
  std::array<std::uint8_t, 64> pending_{};
  std::size_t pending_size_ = 0;
  std::uint64_t total_ = 0;  // bytes fed
};

}  // namespace openflint
