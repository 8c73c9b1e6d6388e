// Message reassembly as the Linux driver does it: parameters, %llx, raw fallback, timestamps and their wrap, lost events, hostile input.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "image/TraceParser.h"
#include "image/TraceStringDbBuilder.h"
#include "tests/support/ResultMatchers.h"

namespace openflint {
namespace {

using test::FailsWith;

enum Fmt : std::size_t { kBoot, kPort, kSeven, kEight, kGuid, kState };
const std::vector<std::string_view> kFormats{
    "boot done", "port %d up", "seven %d %d %d %d %d %d %d", "eight %x %x %x %x %x %x %x %x", "guid %llx", "state %u -> %u"};
constexpr TraceEventIds kIds{0x10, 0x10};

class TraceParserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto b = build_trace_strings(kFormats, {.base_address = 0x4000, .max_section_size = 0x100});
    ASSERT_TRUE(b.has_value());
    built_ = std::move(b).value();
    parser_ = std::make_unique<TraceParser>(built_.to_string_db().value(), TraceParserConfig{.trc_ver = 0, .ids = kIds});
  }
  static std::uint64_t start(Fmt f, const BuiltTraceStrings& b, std::uint16_t tmsn, std::uint8_t ts7, bool lost = false,
                             std::uint8_t id = 0x11) {
    return StringTraceEvent{lost, ts7, id, tmsn, 0, b.pointers[f]}.encode();
  }
  static std::uint64_t param(std::uint32_t value, std::uint16_t tmsn, std::uint8_t tdsn = 1, std::uint8_t id = 0x11) {
    return StringTraceEvent{false, 0, id, tmsn, tdsn, value}.encode();
  }
  static std::uint64_t stamp(std::uint64_t t, std::uint8_t urts = 0) { return TimestampTraceEvent{t, urts}.encode(); }
  std::vector<TraceRecord> feed(std::initializer_list<std::uint64_t> words) {
    std::vector<TraceRecord> out;
    for (const std::uint64_t w : words) parser_->feed(w, out);
    return out;
  }

  BuiltTraceStrings built_;
  std::unique_ptr<TraceParser> parser_;
};

TEST_F(TraceParserTest, NoParameterMessageWaitsForTheNextTimestamp) {
  EXPECT_TRUE(feed({start(kBoot, built_, 1, 0x20)}).empty());
  EXPECT_EQ(parser_->ready(), 1u);
  const auto out = feed({stamp(0x12345650)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (TraceRecord{0x12345620, false, 0x11, "boot done"}));
  EXPECT_EQ(parser_->ready(), 0u);
  EXPECT_TRUE(feed({stamp(0x12345700)}).empty());  // printed once
}

TEST_F(TraceParserTest, OneParameterAndTheLostFlag) {
  EXPECT_TRUE(feed({start(kPort, built_, 7, 0x01, true), stamp(0x1000)}).empty());  // still waiting
  EXPECT_EQ(parser_->pending(), 1u);
  const auto out = feed({param(3, 7), stamp(0x1010)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].message, "port 3 up");
  EXPECT_TRUE(out[0].lost);
  EXPECT_EQ(out[0].timestamp, 0x1001u);
}

TEST_F(TraceParserTest, SevenParameters) {
  feed({start(kSeven, built_, 2, 5)});
  for (std::uint8_t i = 1; i <= 6; ++i) feed({param(i, 2, i)});
  EXPECT_EQ(parser_->ready(), 0u);
  feed({param(7, 2, 7)});
  const auto out = feed({stamp(0x2000 + 0x10)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].message, "seven 1 2 3 4 5 6 7");
  EXPECT_TRUE(parser_->stats().format_problems == 0);
}

TEST_F(TraceParserTest, EightParametersStopAtTheDriversSevenWithAMarker) {
  feed({start(kEight, built_, 3, 5)});
  for (std::uint32_t i = 1; i <= 7; ++i) feed({param(0xa0 + i, 3, static_cast<std::uint8_t>(i & 7))});
  EXPECT_EQ(parser_->ready(), 0u);  // expects 8
  feed({param(0xa8, 3)});           // the 8th: past the driver's 7, ready anyway
  EXPECT_EQ(parser_->ready(), 1u);
  feed({param(0xa9, 3)});           // a 9th before the timestamp is absorbed
  const auto out = feed({stamp(0x3010)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].message, "eight a1 a2 a3 a4 a5 a6 a7 %!x(MISSING)");
  EXPECT_EQ(parser_->stats().excess_params, 2u);
  EXPECT_EQ(parser_->stats().format_problems, 1u);
  EXPECT_EQ(parser_->stats().raw_messages, 0u);
}

TEST_F(TraceParserTest, SixtyFourBitParameterTakesTwoEvents) {
  const auto out = feed({start(kGuid, built_, 4, 9), param(0x0002c903, 4), param(0x00a04000, 4, 2), stamp(0x100)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].message, "guid 2c903a04000");
}

TEST_F(TraceParserTest, RawFallbackWithoutDbMatchOrPendingMessage) {
  // Pointer 0x10 is in no section: bytes 11 12 00 18 00 00 00 10 print reversed, as a
  // little-endian host loads them.
  const std::uint64_t word = StringTraceEvent{false, 0x11, 0x12, 3, 0, 0x10}.encode();
  const auto no_match = feed({word, stamp(0x180)});
  ASSERT_EQ(no_match.size(), 1u);
  EXPECT_EQ(no_match[0].message, "0x1000000018001211");
  EXPECT_EQ(no_match[0].event_id, 0x12);
  EXPECT_EQ(no_match[0].timestamp, 0x111u);
  // A parameter event nobody waits for: raw too.
  const auto orphan = feed({param(0xcafe, 99), stamp(0x200)});
  ASSERT_EQ(orphan.size(), 1u);
  EXPECT_EQ(orphan[0].message.substr(0, 10), "0xfeca0000");
  EXPECT_EQ(parser_->stats().raw_messages, 2u);
  TraceParser be(built_.to_string_db().value(), {.trc_ver = 0, .ids = kIds, .raw_as_little_endian_host = false});
  std::vector<TraceRecord> out;
  be.feed(word, out);
  be.feed(stamp(0x180), out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].message, "0x1112001800000010");
}

TEST_F(TraceParserTest, PointersAtTheSectionBoundsAreRaw) {
  const TraceStringSection s = built_.sections[0];
  const auto out = feed({StringTraceEvent{false, 1, 0x11, 1, 0, s.base_address}.encode(),
                         StringTraceEvent{false, 1, 0x11, 2, 0, s.base_address + s.size}.encode(),
                         StringTraceEvent{false, 1, 0x11, 3, 0, 0xffffffff}.encode(), stamp(0x80)});
  ASSERT_EQ(out.size(), 3u);
  for (const TraceRecord& r : out) EXPECT_EQ(r.message.substr(0, 2), "0x");
  EXPECT_EQ(parser_->stats().raw_messages, 3u);
}

TEST_F(TraceParserTest, TimestampReconstructionAndWrap) {
  // ts7 below T's low 7 bits: T's upper bits.
  auto out = feed({start(kBoot, built_, 1, 0x20), stamp(0x1050)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].timestamp, 0x1020u);
  // ts7 at or above them: the message came before T's 128-tick period began — (T - 1)'s upper bits.
  out = feed({start(kBoot, built_, 1, 0x7e), stamp(0x1080)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].timestamp, 0x107eu);  // (0x107f & ~0x7f) | 0x7e
  out = feed({start(kBoot, built_, 1, 0x00), stamp(0x1080)});  // equal (both 0): the previous period
  EXPECT_EQ(out.at(0).timestamp, 0x1000u);
  // As the driver computes it, T - 1 only changes the upper bits when T's low bits are 0: here
  // the result lies after T (the driver's rule, kept as is).
  out = feed({start(kBoot, built_, 1, 0x7e), stamp(0x1005)});
  EXPECT_EQ(out.at(0).timestamp, 0x107eu);
  out = feed({start(kBoot, built_, 1, 0x05), stamp(0)});  // T = 0: T - 1 wraps to all ones
  EXPECT_EQ(out.at(0).timestamp, 0x1fffffffffff85u);
}

TEST_F(TraceParserTest, UnreliableTimestampsReleaseNothing) {
  feed({start(kBoot, built_, 1, 0x20)});
  EXPECT_TRUE(feed({stamp(0x1050, 4)}).empty());  // trc_ver 0: urts bit 2
  EXPECT_EQ(parser_->stats().unreliable_timestamps, 1u);
  EXPECT_EQ(feed({stamp(0x1050, 1)}).size(), 1u);  // bit 0 means nothing on trc_ver 0
  TraceParser v1(built_.to_string_db().value(), {.trc_ver = 1, .ids = kIds});
  std::vector<TraceRecord> out;
  v1.feed(start(kBoot, built_, 1, 0x20), out);
  v1.feed(stamp(0x1050, 1), out);
  EXPECT_TRUE(out.empty());
  v1.feed(stamp(0x1050, 4), out);
  EXPECT_EQ(out.size(), 1u);
}

TEST_F(TraceParserTest, MessagesLeaveInTheOrderTheyBecameReady) {
  const auto out = feed({start(kState, built_, 10, 1), start(kPort, built_, 11, 2), param(5, 11), param(1, 10),
                         param(2, 10, 2), stamp(0x80 + 0x10)});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].message, "port 5 up");
  EXPECT_EQ(out[1].message, "state 1 -> 2");
}

TEST_F(TraceParserTest, KeysAreEventIdAndTmsn) {
  const auto out = feed({start(kPort, built_, 5, 1, false, 0x11), start(kPort, built_, 5, 2, false, 0x12),
                         param(20, 5, 1, 0x12), param(10, 5, 1, 0x11), stamp(0x90)});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], (TraceRecord{0x82, false, 0x12, "port 20 up"}));
  EXPECT_EQ(out[1], (TraceRecord{0x81, false, 0x11, "port 10 up"}));
}

TEST_F(TraceParserTest, ARestartReplacesAnIncompleteMessage) {
  const auto out = feed({start(kState, built_, 6, 1), param(1, 6), start(kPort, built_, 6, 2), param(9, 6), stamp(0x90)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].message, "port 9 up");
  EXPECT_EQ(parser_->pending(), 0u);
}

TEST_F(TraceParserTest, HostileStringDbFallsBackToRaw) {
  TraceStringSection s{0x100, 64};
  auto db = TraceStringDb::create(std::span(&s, 1)).value();
  const std::vector<std::uint8_t> no_nul(64, '%');
  ASSERT_TRUE(db.store(0, 0, no_nul).has_value());
  TraceParser p(std::move(db), {.trc_ver = 0, .ids = kIds});
  std::vector<TraceRecord> out;
  p.feed(StringTraceEvent{false, 1, 0x11, 1, 0, 0x13f}.encode(), out);  // the last byte, no NUL after it
  p.feed(stamp(0x80), out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].message.substr(0, 2), "0x");
  EXPECT_EQ(p.stats().unterminated_strings, 1u);
}

TEST_F(TraceParserTest, UnrecognizedEventsAndBadBlocks) {
  EXPECT_TRUE(feed({GenericTraceEvent{false, 1, 0x05, 0x1234}.encode(), stamp(0x80)}).empty());
  EXPECT_EQ(parser_->stats().unrecognized, 1u);
  EXPECT_THAT(parser_->feed_bytes(std::vector<std::uint8_t>(7, 0)), FailsWith(ErrorCode::InvalidArgument, ::testing::HasSubstr("7 bytes")));
  std::vector<std::uint8_t> block;
  for (const std::uint64_t w : {start(kPort, built_, 1, 3), param(8, 1), stamp(0x100)}) {
    const auto b = store_trace_word(w);
    block.insert(block.end(), b.begin(), b.end());
  }
  const auto out = parser_->feed_bytes(block);
  ASSERT_TRUE(out.has_value());
  ASSERT_EQ(out->size(), 1u);
  EXPECT_EQ(out->at(0).message, "port 8 up");
}

TEST_F(TraceParserTest, PendingMessagesAreBounded) {
  for (std::uint32_t i = 0; i < TraceParser::kMaxPending + 10; ++i)
    feed({start(kPort, built_, static_cast<std::uint16_t>(i & 0x1fff), 1, false, static_cast<std::uint8_t>(0x10 + (i >> 13)))});
  EXPECT_EQ(parser_->pending(), TraceParser::kMaxPending);
  EXPECT_EQ(parser_->stats().dropped, 10u);
  parser_->reset();
  EXPECT_EQ(parser_->pending(), 0u);
}

}  // namespace
}  // namespace openflint
