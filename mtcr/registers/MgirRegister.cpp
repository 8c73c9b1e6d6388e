// MgirRegister: encode/decode of the modelled MGIR fields.
#include "mtcr/registers/MgirRegister.h"

#include <algorithm>

#include "core/BigEndianFields.h"

namespace openflint {
namespace {
constexpr std::size_t kHwInfo1 = 0x04;
constexpr std::size_t kHwDevId = 0x08;
constexpr std::size_t kFwInfo = 0x20;
constexpr std::size_t kExtMajor = 0x44;
constexpr std::size_t kExtMinor = 0x48;
constexpr std::size_t kExtSubminor = 0x4c;
constexpr std::size_t kPsidLength = 16;
constexpr unsigned kSecuredBit = 24;
constexpr unsigned kSignedFwBit = 25;
}  // namespace

std::vector<std::uint8_t> MgirRegister::encode() const {
  std::vector<std::uint8_t> out(kSize, 0);
  be::put32(out.data(), 0, device_id);  // device_hw_revision [31:16] stays 0
  be::put32(out.data(), kHwInfo1, std::uint32_t{num_ports} << 16);
  be::put32(out.data(), kHwDevId, device_id);
  be::put32(out.data(), kFwInfo,
             (std::uint32_t{signed_fw} << kSignedFwBit) | (std::uint32_t{secured} << kSecuredBit) |
                 (std::uint32_t{major & 0xffu} << 16) | (std::uint32_t{minor & 0xffu} << 8) | (subminor & 0xffu));
  for (std::size_t i = 0; i < kPsidLength && i < psid.size(); ++i) out[kPsidOffset + i] = static_cast<std::uint8_t>(psid[i]);
  be::put32(out.data(), kExtMajor, major);
  be::put32(out.data(), kExtMinor, minor);
  be::put32(out.data(), kExtSubminor, subminor);
  return out;
}

Result<MgirRegister> MgirRegister::decode(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < kFwInfo + 4)
    return make_error(ErrorCode::InvalidImage, "mgir: " + std::to_string(bytes.size()) +
                                                   " bytes end before fw_info at 0x20");
  MgirRegister m;
  m.device_id = static_cast<std::uint16_t>(be::get32(bytes.data(), 0) & 0xffff);
  m.num_ports = static_cast<std::uint8_t>(be::get32(bytes.data(), kHwInfo1) >> 16);
  const std::uint32_t v = be::get32(bytes.data(), kFwInfo);
  m.major = (v >> 16) & 0xff;
  m.minor = (v >> 8) & 0xff;
  m.subminor = v & 0xff;
  m.secured = ((v >> kSecuredBit) & 1) != 0;
  m.signed_fw = ((v >> kSignedFwBit) & 1) != 0;
  if (bytes.size() >= kPsidOffset + kPsidLength) {
    const auto* p = bytes.data() + kPsidOffset;
    m.psid.assign(p, std::find(p, p + kPsidLength, std::uint8_t{0}));
  }
  if (bytes.size() >= kExtSubminor + 4) {
    m.major = static_cast<std::uint16_t>(be::get32(bytes.data(), kExtMajor));
    m.minor = static_cast<std::uint16_t>(be::get32(bytes.data(), kExtMinor));
    m.subminor = static_cast<std::uint16_t>(be::get32(bytes.data(), kExtSubminor));
  }
  return m;
}

}  // namespace openflint
