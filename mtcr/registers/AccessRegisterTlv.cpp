// AccessRegisterTlv: encoding and bounds-checked decoding of the register-access TLVs.
#include "mtcr/registers/AccessRegisterTlv.h"

#include <algorithm>
#include <string>

#include "core/BigEndianFields.h"

namespace openflint {
namespace {
constexpr std::uint32_t kOperationType = 1;
constexpr std::uint32_t kRegisterType = 3;
constexpr std::uint32_t kOperationDwords = 4;
constexpr std::uint8_t kClassRegister = 1;
}  // namespace

Result<std::vector<std::uint8_t>> AccessRegisterTlv::encode(std::size_t capacity) const {
  if (data.size() % 4 != 0)
    return make_error(ErrorCode::InvalidArgument, "access register: data of " + std::to_string(data.size()) +
                                                      " bytes is not whole dwords");
  if (kHeaderBytes + data.size() > capacity)
    return make_error(ErrorCode::InvalidArgument, "access register: " + std::to_string(data.size()) +
                                                      " register bytes do not fit a " + std::to_string(capacity) +
                                                      "-byte payload");
  std::vector<std::uint8_t> out(kHeaderBytes + data.size(), 0);
  be::put32(out.data(), 0, (kOperationType << 27) | (kOperationDwords << 16) | (std::uint32_t{status & 0x7fu} << 8));
  be::put32(out.data(), 4, (std::uint32_t{register_id} << 16) | (std::uint32_t{method & 0x7fu} << 8) | kClassRegister);
  be::put32(out.data(), 8, static_cast<std::uint32_t>(tid >> 32));
  be::put32(out.data(), 12, static_cast<std::uint32_t>(tid));
  const auto reg_dwords = static_cast<std::uint32_t>(1 + data.size() / 4);
  be::put32(out.data(), 16, (kRegisterType << 27) | (reg_dwords << 16));
  std::copy(data.begin(), data.end(), out.begin() + kHeaderBytes);
  return out;
}

Result<AccessRegisterTlv> AccessRegisterTlv::decode(std::span<const std::uint8_t> payload) {
  if (payload.size() < kHeaderBytes)
    return make_error(ErrorCode::InvalidImage, "access register: payload of " + std::to_string(payload.size()) +
                                                   " bytes is shorter than the 20-byte tlv headers");
  const std::uint32_t op = be::get32(payload.data(), 0);
  if ((op >> 27) != kOperationType || ((op >> 16) & 0x7ff) != kOperationDwords)
    return make_error(ErrorCode::InvalidImage, "access register: bad operation tlv header at offset 0");
  AccessRegisterTlv t;
  t.status = static_cast<std::uint8_t>((op >> 8) & 0x7f);
  const std::uint32_t reg = be::get32(payload.data(), 4);
  t.register_id = static_cast<std::uint16_t>(reg >> 16);
  t.method = static_cast<std::uint8_t>((reg >> 8) & 0x7f);
  t.tid = (std::uint64_t{be::get32(payload.data(), 8)} << 32) | be::get32(payload.data(), 12);
  const std::uint32_t rh = be::get32(payload.data(), 16);
  if ((rh >> 27) != kRegisterType)
    return make_error(ErrorCode::InvalidImage, "access register: bad register tlv header at offset 16");
  const std::size_t dwords = (rh >> 16) & 0x7ff;
  if (dwords == 0 || kHeaderBytes - 4 + dwords * 4 > payload.size())
    return make_error(ErrorCode::InvalidImage, "access register: register tlv of " + std::to_string(dwords) +
                                                   " dwords runs past the " + std::to_string(payload.size()) +
                                                   "-byte payload");
  t.data.assign(payload.begin() + kHeaderBytes, payload.begin() + kHeaderBytes + (dwords - 1) * 4);
  return t;
}

}  // namespace openflint
