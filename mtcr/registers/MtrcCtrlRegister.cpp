// MtrcCtrlRegister: encode/decode of MTRC_CTRL, and the two SETs the Linux driver sends.
#include "mtcr/registers/MtrcCtrlRegister.h"

#include <string>

#include "core/BigEndianFields.h"

namespace openflint {

MtrcCtrlRegister MtrcCtrlRegister::set_status(std::uint8_t status, bool arm) {
  MtrcCtrlRegister r;
  r.trace_status = status;
  r.arm_event = arm;
  r.modify_field_select = kSelectTraceStatus;
  return r;
}

MtrcCtrlRegister MtrcCtrlRegister::arm() {
  MtrcCtrlRegister r;
  r.arm_event = true;
  return r;
}

std::vector<std::uint8_t> MtrcCtrlRegister::encode() const {
  std::vector<std::uint8_t> out(kSize, 0);
  be::put32(out.data(), 0x00,
            std::uint32_t{trace_status & 0x3u} << 30 | std::uint32_t{arm_event ? 1u : 0u} << 27 |
                std::uint32_t{slcg_cmd & 0x3u} << 16 | std::uint32_t{modify_field_select});
  const std::uint64_t ts = current_timestamp & kTimestampMask;
  be::put32(out.data(), 0x08, static_cast<std::uint32_t>(ts >> 32));
  be::put32(out.data(), 0x0c, static_cast<std::uint32_t>(ts));
  return out;
}

Result<MtrcCtrlRegister> MtrcCtrlRegister::decode(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < kMinSize)
    return make_error(ErrorCode::InvalidImage,
                      "mtrc_ctrl: " + std::to_string(bytes.size()) + " bytes, needs " + std::to_string(kMinSize));
  MtrcCtrlRegister r;
  const std::uint32_t d0 = be::get32(bytes.data(), 0x00);
  r.trace_status = static_cast<std::uint8_t>(d0 >> 30);
  r.arm_event = ((d0 >> 27) & 1) != 0;
  r.slcg_cmd = static_cast<std::uint8_t>((d0 >> 16) & 0x3);
  r.modify_field_select = static_cast<std::uint16_t>(d0);
  r.current_timestamp = (std::uint64_t{be::get32(bytes.data(), 0x08) & 0x1fffffu} << 32) | be::get32(bytes.data(), 0x0c);
  return r;
}

}  // namespace openflint
