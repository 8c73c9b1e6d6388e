// Crc16: the two CRC16 flavours of the firmware formats (software dword CRC and HW-pointer CRC).
#pragma once

#include <cstdint>

#include "core/ByteReader.h"

namespace openflint {

// The "software" CRC16 of sections, BOOT2, ITOC/DTOC headers and entries and the tools area:
// init 0xFFFF, polynomial 0x100B, data shifted in MSB first (a big-endian dword stream is the
// same as its bytes in order), finished by 16 zero bits and an XOR with 0xFFFF.
// Incremental and table driven (slicing-by-8); bit-identical to crc16_reference().
class Crc16 {
 public:
  void update(Bytes data);
  void update_dword(std::uint32_t dword);
  // The CRC of everything fed so far; the object stays usable.
  [[nodiscard]] std::uint16_t finish() const { return static_cast<std::uint16_t>(reg_ ^ 0xFFFF); }

  // The direct-form register equivalent to the augmented init 0xFFFF: 0xFFFF pushed through
  // 16 zero bits, so no flush is needed at the end.
  static const std::uint16_t kDirectInit;

 private:
  std::uint16_t reg_ = kDirectInit;
};

// Software CRC16 of a whole buffer (fast path).
[[nodiscard]] std::uint16_t crc16(Bytes data);
// Software CRC16 computed bit by bit exactly as defined (augmented register); for tests.
[[nodiscard]] std::uint16_t crc16_reference(Bytes data);

// The "hardware" CRC16 of FS4 HW pointers (computed over the first 6 bytes of an entry):
// reflected table of the same polynomial (0xD008), init 0xFFFF, the first two data bytes
// inverted, result byte-swapped, no final XOR.
[[nodiscard]] std::uint16_t crc16_hw(Bytes data);
// The same computed bit by bit; for tests.
[[nodiscard]] std::uint16_t crc16_hw_reference(Bytes data);
// Entry `index` of the reflected byte table (exposed so tests can pin known entries).
[[nodiscard]] std::uint16_t crc16_hw_table_entry(std::uint8_t index);

}  // namespace openflint
