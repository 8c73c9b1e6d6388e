// MtrcCapRegister: encode/decode of MTRC_CAP's dwords at 0x00-0x08 and its string-DB parameters.
#include "mtcr/registers/MtrcCapRegister.h"

#include <algorithm>
#include <string>

#include "core/BigEndianFields.h"

namespace openflint {
namespace {
constexpr std::size_t kCapStringDbParamAt = 0x10;
}  // namespace

std::vector<std::uint8_t> MtrcCapRegister::encode() const {
  std::vector<std::uint8_t> out(kSize, 0);
  be::put32(out.data(), 0x00,
            std::uint32_t{trace_owner ? 1u : 0u} << 31 | std::uint32_t{trace_to_memory ? 1u : 0u} << 30 |
                std::uint32_t{trc_ver & 0x3u} << 24 | std::uint32_t{num_string_db & 0xfu});
  be::put32(out.data(), 0x04, std::uint32_t{first_string_trace} << 24 | std::uint32_t{num_string_trace} << 16);
  be::put32(out.data(), 0x08,
            std::uint32_t{tracer_capabilities & 0x3u} << 30 | std::uint32_t{log_max_trace_buffer_size});
  for (std::size_t i = 0; i < kMaxStringDbs; ++i) {
    be::put32(out.data(), kCapStringDbParamAt + 8 * i, string_db_param[i].base_address);
    be::put32(out.data(), kCapStringDbParamAt + 8 * i + 4, string_db_param[i].size & kMaxStringDbSize);
  }
  return out;
}

Result<MtrcCapRegister> MtrcCapRegister::decode(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < kMinSize)
    return make_error(ErrorCode::InvalidImage,
                      "mtrc_cap: " + std::to_string(bytes.size()) + " bytes, needs " + std::to_string(kMinSize));
  MtrcCapRegister r;
  const std::uint32_t d0 = be::get32(bytes.data(), 0x00);
  r.trace_owner = (d0 >> 31) != 0;
  r.trace_to_memory = ((d0 >> 30) & 1) != 0;
  r.trc_ver = static_cast<std::uint8_t>((d0 >> 24) & 0x3);
  r.num_string_db = static_cast<std::uint8_t>(d0 & 0xf);
  const std::uint32_t d1 = be::get32(bytes.data(), 0x04);
  r.first_string_trace = static_cast<std::uint8_t>(d1 >> 24);
  r.num_string_trace = static_cast<std::uint8_t>(d1 >> 16);
  const std::uint32_t d2 = be::get32(bytes.data(), 0x08);
  r.tracer_capabilities = static_cast<std::uint8_t>(d2 >> 30);
  r.log_max_trace_buffer_size = static_cast<std::uint8_t>(d2);
  for (std::size_t i = 0; i < kMaxStringDbs; ++i) {
    r.string_db_param[i].base_address = be::get32(bytes.data(), kCapStringDbParamAt + 8 * i);
    r.string_db_param[i].size = be::get32(bytes.data(), kCapStringDbParamAt + 8 * i + 4) & kMaxStringDbSize;
  }
  return r;
}

std::span<const MtrcStringDbParam> MtrcCapRegister::string_dbs() const {
  return std::span(string_db_param).first(std::min<std::size_t>(num_string_db, kMaxStringDbs));
}

}  // namespace openflint
