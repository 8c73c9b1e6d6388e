// MadReply: pure checks and decoding of a MAD received in answer to one of our requests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/Result.h"

namespace openflint {

// Everything here runs on the bytes a device sent, and a device may send anything (a hostile or
// broken one answers our tools too): no function reads outside `mad`, whatever its length, and
// none trusts a count the answer carries. A MAD shorter than its header is never ours.

// What one received MAD is to the request with TID (low 32 bits) `tid` of class `mgmt_class`.
enum class ReplyKind {
  NotOurs,  // another request's (stale) answer, a request, or too short to tell: keep waiting
  Bounced,  // our own request came back from the fabric (umad status set): nobody answered
  Answer,   // our answer, with MAD status 0
};

// An Answer with a non-zero MAD status (IBA 13.4.7; the D bit of directed-route SMPs ignored)
// is an error whose ErrorCode follows the status: busy → Busy, unsupported class/method/
// attribute → NotSupported, invalid value → InvalidArgument, others → Io.
[[nodiscard]] Result<ReplyKind> classify_reply(std::span<const std::uint8_t> mad, int umad_status, std::uint32_t tid,
                                               std::uint8_t mgmt_class);

// The dwords a ConfigSpaceAccess GET answer carries into `out`: a run after the 8-byte key
// (mode 0) or the data field of each (address, data, mask) record (mode 2). The payload starts
// at the vendor data (class 0x0A) or the SMP data. InvalidImage when `mad` ends before them.
[[nodiscard]] Result<void> decode_cr_reply(std::span<const std::uint8_t> mad, std::uint8_t mgmt_class, bool mode2,
                                           std::span<std::uint32_t> out);

// Bytes [offset, offset + size) of the answer; InvalidImage when `mad` ends before them.
[[nodiscard]] Result<std::vector<std::uint8_t>> reply_payload(std::span<const std::uint8_t> mad, std::size_t offset,
                                                              std::size_t size);

}  // namespace openflint
