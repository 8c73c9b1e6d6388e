// Fuzz target: what our in-band tools do with a MAD a (hostile) device sends back — classify, decode, TLVs, MGIR.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "mtcr/registers/AccessRegisterTlv.h"
#include "mtcr/inband/MadFormat.h"
#include "mtcr/inband/MadReply.h"
#include "mtcr/registers/MgirRegister.h"

namespace {

namespace mad = openflint::mad;

constexpr std::array<std::uint8_t, 4> kClasses{mad::kClassVendorA, mad::kClassSmpLid, mad::kClassSmpDirected,
                                               mad::kClassVendor9};

}  // namespace

// Input: one control byte (class, umad status, mode 2, whether the TID matches), one dword
// count, then the received MAD (any length: the transport may deliver fewer bytes than 256).
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::uint8_t control = data[0];
  const std::size_t count = data[1] % (mad::kGmpCrDwords + 8);  // some past what a MAD holds
  const std::span<const std::uint8_t> received(data + 2, size - 2);
  const std::uint8_t cls = kClasses[control & 3];
  const int umad_status = (control & 4) != 0 ? 110 : 0;
  const bool mode2 = (control & 8) != 0;
  std::uint32_t tid = 0x1234;
  if ((control & 16) != 0 && received.size() >= 16) tid = mad::get32(received.data(), mad::kOffTid + 4);

  auto kind = openflint::classify_reply(received, umad_status, tid, cls);
  if (kind && *kind != openflint::ReplyKind::Answer) return 0;
  std::array<std::uint32_t, mad::kGmpCrDwords + 8> dwords{};
  (void)openflint::decode_cr_reply(received, cls, mode2, std::span(dwords).first(count));
  const bool vendor = cls == mad::kClassVendorA;
  const std::size_t offset = vendor ? mad::kOffVendorData : mad::kOffSmpData;
  const std::size_t length = vendor ? mad::kVendorDataSize - (control >> 5) * 4 : mad::kSmpDataSize;
  auto payload = openflint::reply_payload(received, offset, length);
  if (!payload) return 0;
  auto tlv = openflint::AccessRegisterTlv::decode(*payload);
  if (!tlv) return 0;
  (void)openflint::MgirRegister::decode(tlv->data);
  return 0;
}
