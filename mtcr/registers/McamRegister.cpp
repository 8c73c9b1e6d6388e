// McamRegister: encode/decode of MCAM's group selector and its 128-bit access-register mask.
#include "mtcr/registers/McamRegister.h"

#include <algorithm>
#include <string>

namespace openflint {
namespace {

constexpr std::uint16_t kMcamFirstId = 0x9000;
constexpr std::uint16_t kMcamGroupSpan = 0x80;
constexpr std::uint16_t kMcamTracerFirst = 0x9040;

}  // namespace

bool McamRegister::lists(std::uint16_t id) const {
  const std::uint32_t first = kMcamFirstId + std::uint32_t{kMcamGroupSpan} * access_reg_group;
  if (id < first || id >= first + kMcamGroupSpan) return false;
  const unsigned n = id - first;
  return (mng_access_reg_cap_mask[15 - n / 8] >> (n % 8) & 1) != 0;
}

void McamRegister::set_listed(std::uint16_t id, bool listed) {
  const std::uint32_t first = kMcamFirstId + std::uint32_t{kMcamGroupSpan} * access_reg_group;
  if (id < first || id >= first + kMcamGroupSpan) return;
  const unsigned n = id - first;
  const auto bit = static_cast<std::uint8_t>(1u << (n % 8));
  std::uint8_t& byte = mng_access_reg_cap_mask[15 - n / 8];
  byte = static_cast<std::uint8_t>(listed ? (byte | bit) : (byte & ~bit));
}

std::uint8_t McamRegister::tracer_registers() const {
  std::uint8_t bits = 0;
  for (unsigned i = 0; i < 4; ++i)
    if (lists(static_cast<std::uint16_t>(kMcamTracerFirst + i))) bits = static_cast<std::uint8_t>(bits | 1u << i);
  return bits;
}

std::vector<std::uint8_t> McamRegister::encode() const {
  std::vector<std::uint8_t> out(kSize, 0);
  out[1] = feature_group;
  out[3] = access_reg_group;
  std::copy(mng_access_reg_cap_mask.begin(), mng_access_reg_cap_mask.end(), out.begin() + kMaskAt);
  return out;
}

Result<McamRegister> McamRegister::decode(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < kMinSize)
    return make_error(ErrorCode::InvalidImage,
                      "mcam: " + std::to_string(bytes.size()) + " bytes, needs " + std::to_string(kMinSize));
  McamRegister r;
  r.feature_group = bytes[1];
  r.access_reg_group = bytes[3];
  std::copy_n(bytes.begin() + kMaskAt, r.mng_access_reg_cap_mask.size(), r.mng_access_reg_cap_mask.begin());
  return r;
}

}  // namespace openflint
