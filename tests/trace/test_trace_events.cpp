// The tracer's 64-bit event words: bit placement against hand-computed bytes, classification, round trips.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <variant>

#include "image/TraceEvent.h"

namespace openflint {
namespace {

using ::testing::ElementsAre;

TEST(TraceEvent, StringEventBytes) {
  StringTraceEvent e;
  e.lost = true;
  e.timestamp7 = 0x55;
  e.event_id = 0x12;
  e.tmsn = 0x1abc;
  e.tdsn = 5;
  e.string_param = 0xdeadbeef;
  // byte 0: lost | ts7; bytes 2-3: tmsn << 3 | tdsn = 0xd5e5.
  EXPECT_THAT(store_trace_word(e.encode()), ElementsAre(0xd5, 0x12, 0xd5, 0xe5, 0xde, 0xad, 0xbe, 0xef));
  EXPECT_EQ(StringTraceEvent::decode(e.encode()), e);
  e.lost = false;
  EXPECT_EQ(store_trace_word(e.encode())[0], 0x55);
  EXPECT_EQ(StringTraceEvent::decode(e.encode()), e);
}

TEST(TraceEvent, StringEventFieldsAreCutToTheirWidths) {
  StringTraceEvent e;
  e.timestamp7 = 0xff;  // 7 bits
  e.event_id = 0x20;
  e.tmsn = 0xffff;      // 13 bits
  e.tdsn = 0xff;        // 3 bits
  const StringTraceEvent back = StringTraceEvent::decode(e.encode());
  EXPECT_FALSE(back.lost);  // the 8th timestamp bit does not leak into lost
  EXPECT_EQ(back.timestamp7, 0x7f);
  EXPECT_EQ(back.tmsn, 0x1fff);
  EXPECT_EQ(back.tdsn, 7);
  EXPECT_EQ(back.event_id, 0x20);
}

TEST(TraceEvent, TimestampEventBytes) {
  TimestampTraceEvent t;
  t.timestamp = 0x1abcdef0123456;
  t.urts = 4;
  // ts[7:0]=0x56, id 0xff, urts 100b over ts[52:40]=0x1abc → 0x9abc, ts[39:8] low 32 = 0xdef01234.
  EXPECT_THAT(store_trace_word(t.encode()), ElementsAre(0x56, 0xff, 0x9a, 0xbc, 0xde, 0xf0, 0x12, 0x34));
  EXPECT_EQ(TimestampTraceEvent::decode(t.encode()), t);
  t.timestamp = 0xffffffffffffffff;  // cut to 53 bits
  EXPECT_EQ(TimestampTraceEvent::decode(t.encode()).timestamp, (std::uint64_t{1} << 53) - 1);
}

TEST(TraceEvent, UnreliableBitDependsOnTrcVer) {
  TimestampTraceEvent t;
  t.urts = 4;
  EXPECT_TRUE(t.unreliable(0));
  EXPECT_FALSE(t.unreliable(1));
  t.urts = 1;
  EXPECT_FALSE(t.unreliable(0));
  EXPECT_TRUE(t.unreliable(1));
  t.urts = 2;
  EXPECT_FALSE(t.unreliable(0));
  EXPECT_FALSE(t.unreliable(1));
}

TEST(TraceEvent, GenericEventRoundTrip) {
  GenericTraceEvent g;
  g.lost = true;
  g.timestamp7 = 0x01;
  g.event_id = 0x05;
  g.event_data = 0xa1b2c3d4e5f6;
  EXPECT_THAT(store_trace_word(g.encode()), ElementsAre(0x81, 0x05, 0xa1, 0xb2, 0xc3, 0xd4, 0xe5, 0xf6));
  EXPECT_EQ(GenericTraceEvent::decode(g.encode()), g);
}

TEST(TraceEvent, ClassificationHasAnInclusiveUpperBound) {
  const TraceEventIds ids{0x10, 0x10};
  EXPECT_EQ(ids.classify(0x0f), TraceEventKind::Unrecognized);
  EXPECT_EQ(ids.classify(0x10), TraceEventKind::String);
  EXPECT_EQ(ids.classify(0x20), TraceEventKind::String);  // first + num, one past "num" ids
  EXPECT_EQ(ids.classify(0x21), TraceEventKind::Unrecognized);
  EXPECT_EQ(ids.classify(0xff), TraceEventKind::Timestamp);
  const TraceEventIds high{0xf0, 0x20};  // first + num = 0x110: no 8-bit wrap
  EXPECT_EQ(high.classify(0xfe), TraceEventKind::String);
  EXPECT_EQ(high.classify(0x05), TraceEventKind::Unrecognized);
  EXPECT_EQ(high.classify(0xff), TraceEventKind::Timestamp);
}

TEST(TraceEvent, DecodeChoosesTheLayoutByEventId) {
  const TraceEventIds ids{0x10, 0x10};
  StringTraceEvent s;
  s.event_id = 0x11;
  s.tmsn = 9;
  s.string_param = 0x1234;
  const TraceEvent a = decode_trace_event(s.encode(), ids);
  ASSERT_TRUE(std::holds_alternative<StringTraceEvent>(a));
  EXPECT_EQ(std::get<StringTraceEvent>(a), s);
  EXPECT_EQ(encode_trace_event(a), s.encode());
  TimestampTraceEvent t;
  t.timestamp = 0x1234567;
  const TraceEvent b = decode_trace_event(t.encode(), ids);
  ASSERT_TRUE(std::holds_alternative<TimestampTraceEvent>(b));
  EXPECT_EQ(std::get<TimestampTraceEvent>(b).timestamp, 0x1234567u);
  s.event_id = 0x30;
  EXPECT_TRUE(std::holds_alternative<GenericTraceEvent>(decode_trace_event(s.encode(), ids)));
  EXPECT_EQ(trace_event_id(s.encode()), 0x30);
}

}  // namespace
}  // namespace openflint
