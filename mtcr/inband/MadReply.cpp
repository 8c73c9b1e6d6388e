// MadReply: classification of received MADs and bounds-checked decoding of their payloads.
#include "mtcr/inband/MadReply.h"

#include <string>

#include "mtcr/inband/MadFormat.h"

namespace openflint {
namespace {

constexpr std::size_t kHeaderBytes = 24;  // common MAD header (IBA 13.4.2)

ErrorCode code_for_status(std::uint16_t status) {
  switch ((status >> 2) & 7u) {
    case 0: return (status & mad::kStatusBusy) != 0 ? ErrorCode::Busy : ErrorCode::Io;
    case 1:
    case 2:
    case 3: return ErrorCode::NotSupported;
    case 7: return ErrorCode::InvalidArgument;
    default: return ErrorCode::Io;
  }
}

Unexpected too_short(std::size_t have, std::size_t need) {
  return make_error(ErrorCode::InvalidImage, "answer of " + std::to_string(have) + " bytes ends before byte " +
                                                 std::to_string(need) + " of its payload");
}

}  // namespace

Result<ReplyKind> classify_reply(std::span<const std::uint8_t> mad, int umad_status, std::uint32_t tid,
                                 std::uint8_t mgmt_class) {
  if (mad.size() < kHeaderBytes) return ReplyKind::NotOurs;
  if (static_cast<std::uint32_t>(mad::get64(mad.data(), mad::kOffTid)) != tid || mad[mad::kOffClass] != mgmt_class)
    return ReplyKind::NotOurs;  // a stale answer to an earlier attempt
  // The fabric bounced our own request back: nobody on that port handles it.
  if (umad_status != 0) return ReplyKind::Bounced;
  if ((mad[mad::kOffMethod] & mad::kResponseBit) == 0) return ReplyKind::NotOurs;
  std::uint16_t status = mad::get16(mad.data(), mad::kOffStatus);
  if (mgmt_class == mad::kClassSmpDirected) status &= 0x7fff;  // bit 15 is the D bit
  if (status != 0) return make_error(code_for_status(status), "mad status " + mad::describe_status(status));
  return ReplyKind::Answer;
}

Result<void> decode_cr_reply(std::span<const std::uint8_t> mad, std::uint8_t mgmt_class, bool mode2,
                             std::span<std::uint32_t> out) {
  const std::size_t base =
      (mgmt_class == mad::kClassVendorA ? mad::kOffVendorData : mad::kOffSmpData) + mad::kCrKeySize;
  const std::size_t stride = mode2 ? mad::kMode2RecordSize : 4;
  const std::size_t data_at = mode2 ? 4 : 0;  // the data field of a mode-2 record
  if (!out.empty()) {
    const std::size_t end = base + (out.size() - 1) * stride + data_at + 4;
    if (end > mad.size()) return too_short(mad.size(), end);
  }
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = mad::get32(mad.data(), base + i * stride + data_at);
  return {};
}

Result<std::vector<std::uint8_t>> reply_payload(std::span<const std::uint8_t> mad, std::size_t offset,
                                                std::size_t size) {
  if (offset > mad.size() || size > mad.size() - offset) return too_short(mad.size(), offset + size);
  const auto first = mad.begin() + static_cast<std::ptrdiff_t>(offset);
  return std::vector<std::uint8_t>(first, first + static_cast<std::ptrdiff_t>(size));
}

}  // namespace openflint
