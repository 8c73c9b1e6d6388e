// MtrcConfRegister: encode/decode of MTRC_CONF's three dwords.
#include "mtcr/registers/MtrcConfRegister.h"

#include <string>

#include "core/BigEndianFields.h"

namespace openflint {

std::vector<std::uint8_t> MtrcConfRegister::encode() const {
  std::vector<std::uint8_t> out(kSize, 0);
  be::put32(out.data(), 0x00, trace_mode & 0xfu);
  be::put32(out.data(), 0x04, log_trace_buffer_size);
  be::put32(out.data(), 0x08, trace_mkey);
  return out;
}

Result<MtrcConfRegister> MtrcConfRegister::decode(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < kMinSize)
    return make_error(ErrorCode::InvalidImage,
                      "mtrc_conf: " + std::to_string(bytes.size()) + " bytes, needs " + std::to_string(kMinSize));
  MtrcConfRegister r;
  r.trace_mode = static_cast<std::uint8_t>(be::get32(bytes.data(), 0x00) & 0xf);
  r.log_trace_buffer_size = static_cast<std::uint8_t>(be::get32(bytes.data(), 0x04));
  r.trace_mkey = be::get32(bytes.data(), 0x08);
  return r;
}

}  // namespace openflint
