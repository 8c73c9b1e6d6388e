// SoftwareCrc16: bitwise implementation of the firmware-section CRC16.
#include "image/SoftwareCrc16.h"

namespace openflint {

void SoftwareCrc16::add(std::uint32_t dword) {
  std::uint32_t crc = crc_;
  for (int i = 0; i < 32; ++i) {
    const bool top = (crc & 0x8000) != 0;
    crc = ((crc << 1) | (dword >> 31)) & 0xffff;
    if (top) crc ^= 0x100b;
    dword <<= 1;
  }
  crc_ = static_cast<std::uint16_t>(crc);
}

void SoftwareCrc16::add_be(Bytes data) {
  for (std::size_t i = 0; i + 4 <= data.size(); i += 4) add(ByteReader::load_be32(data.data() + i));
}

void SoftwareCrc16::finish() {
  std::uint32_t crc = crc_;
  for (int i = 0; i < 16; ++i) {
    const bool top = (crc & 0x8000) != 0;
    crc = (crc << 1) & 0xffff;
    if (top) crc ^= 0x100b;
  }
  crc_ = static_cast<std::uint16_t>(crc ^ 0xffff);
}

std::uint16_t software_crc16(Bytes data) {
  SoftwareCrc16 crc;
  crc.add_be(data);
  crc.finish();
  return crc.get();
}

}  // namespace openflint
