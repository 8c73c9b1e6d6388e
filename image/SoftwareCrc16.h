// SoftwareCrc16: the dword-oriented CRC16 (poly 0x100B) used by FS1/FS2/FS3 sections and BOOT2.
#pragma once

#include <cstdint>

#include "core/ByteReader.h"

namespace openflint {

// Init 0xFFFF; each 32-bit dword is shifted in MSB first; finish() shifts in 16 zero bits
// and inverts. Matches mstflint's mft_utils/crc16 bit for bit (see formats.md "CRCs").
class SoftwareCrc16 {
 public:
  void add(std::uint32_t dword);
  // Adds big-endian dwords; a trailing partial dword is ignored (callers pass aligned data).
  void add_be(Bytes data);
  void finish();
  [[nodiscard]] std::uint16_t get() const { return crc_; }

 private:
  std::uint16_t crc_ = 0xffff;
};

// One-shot: the finished CRC of the big-endian dwords in `data`.
[[nodiscard]] std::uint16_t software_crc16(Bytes data);

}  // namespace openflint
