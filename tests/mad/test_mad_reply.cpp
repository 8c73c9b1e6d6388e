// MadReply: classifying received MADs and decoding their payloads, bounds-checked, without a fabric.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "mtcr/inband/MadFormat.h"
#include "mtcr/inband/MadReply.h"

namespace openflint {
namespace {

std::vector<std::uint8_t> answer(std::uint8_t cls, std::uint32_t tid, std::uint16_t status = 0) {
  std::vector<std::uint8_t> m(mad::kMadSize, 0);
  m[mad::kOffClass] = cls;
  m[mad::kOffMethod] = mad::kMethodGet | mad::kResponseBit;
  mad::put16(m.data(), mad::kOffStatus, status);
  mad::put64(m.data(), mad::kOffTid, (std::uint64_t{0xabcd} << 32) | tid);  // upper bits: the fabric's
  return m;
}

TEST(MadReply, ClassifiesOursStaleAndBounced) {
  const auto m = answer(mad::kClassVendorA, 7);
  EXPECT_EQ(classify_reply(m, 0, 7, mad::kClassVendorA).value(), ReplyKind::Answer);
  EXPECT_EQ(classify_reply(m, 0, 8, mad::kClassVendorA).value(), ReplyKind::NotOurs);   // other TID
  EXPECT_EQ(classify_reply(m, 0, 7, mad::kClassSmpLid).value(), ReplyKind::NotOurs);    // other class
  EXPECT_EQ(classify_reply(m, 110, 7, mad::kClassVendorA).value(), ReplyKind::Bounced);
  auto request = m;
  request[mad::kOffMethod] = mad::kMethodGet;  // no response bit: a request, not an answer
  EXPECT_EQ(classify_reply(request, 0, 7, mad::kClassVendorA).value(), ReplyKind::NotOurs);
  for (std::size_t n : {0u, 1u, 12u, 23u})  // too short to carry a header
    EXPECT_EQ(classify_reply(std::span(m).first(n), 0, 7, mad::kClassVendorA).value(), ReplyKind::NotOurs) << n;
}

TEST(MadReply, StatusBecomesTheMatchingError) {
  auto busy = classify_reply(answer(mad::kClassVendorA, 1, mad::kStatusBusy), 0, 1, mad::kClassVendorA);
  ASSERT_FALSE(busy.has_value());
  EXPECT_EQ(busy.error().code(), ErrorCode::Busy);
  auto unsupported = classify_reply(answer(mad::kClassSmpLid, 1, mad::kStatusAttrUnsupported), 0, 1, mad::kClassSmpLid);
  ASSERT_FALSE(unsupported.has_value());
  EXPECT_EQ(unsupported.error().code(), ErrorCode::NotSupported);
  EXPECT_NE(unsupported.error().message().find("0x000c"), std::string::npos) << unsupported.error().message();
  // Directed route: bit 15 is the direction, not a status.
  EXPECT_EQ(classify_reply(answer(mad::kClassSmpDirected, 1, 0x8000), 0, 1, mad::kClassSmpDirected).value(),
            ReplyKind::Answer);
}

TEST(MadReply, DecodesCrDwordsOfBothModes) {
  auto m = answer(mad::kClassVendorA, 1);
  for (std::uint32_t i = 0; i < 3; ++i) mad::put32(m.data(), 32 + i * 4, 0x100 + i);
  std::array<std::uint32_t, 3> out{};
  ASSERT_TRUE(decode_cr_reply(m, mad::kClassVendorA, false, out).has_value());
  EXPECT_EQ(out, (std::array<std::uint32_t, 3>{0x100, 0x101, 0x102}));
  auto smp = answer(mad::kClassSmpLid, 1);
  for (std::uint32_t i = 0; i < 2; ++i) mad::put32(smp.data(), 72 + i * 12 + 4, 0x200 + i);  // record data
  std::array<std::uint32_t, 2> records{};
  ASSERT_TRUE(decode_cr_reply(smp, mad::kClassSmpLid, true, records).has_value());
  EXPECT_EQ(records, (std::array<std::uint32_t, 2>{0x200, 0x201}));
}

TEST(MadReply, NeverReadsPastTheAnswer) {
  const auto m = answer(mad::kClassVendorA, 1);
  std::array<std::uint32_t, mad::kGmpCrDwords> full{};
  EXPECT_TRUE(decode_cr_reply(m, mad::kClassVendorA, false, full).has_value());  // 32 + 56 * 4 = 256
  std::array<std::uint32_t, mad::kGmpCrDwords + 1> over{};
  auto past = decode_cr_reply(m, mad::kClassVendorA, false, over);
  ASSERT_FALSE(past.has_value());
  EXPECT_EQ(past.error().code(), ErrorCode::InvalidImage);
  std::array<std::uint32_t, 1> one{};
  EXPECT_FALSE(decode_cr_reply(std::span(m).first(35), mad::kClassVendorA, false, one).has_value());
  EXPECT_FALSE(decode_cr_reply(std::span(m).first(200), mad::kClassSmpLid, true, full).has_value());
  EXPECT_TRUE(reply_payload(m, mad::kOffSmpData, mad::kSmpDataSize).has_value());
  EXPECT_FALSE(reply_payload(m, mad::kOffVendorData, mad::kVendorDataSize + 1).has_value());
  EXPECT_FALSE(reply_payload(std::span(m).first(100), mad::kOffSmpData, mad::kSmpDataSize).has_value());
  EXPECT_FALSE(reply_payload(m, SIZE_MAX, 2).has_value());  // no offset + size overflow
}

}  // namespace
}  // namespace openflint
