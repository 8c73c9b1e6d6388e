// The mlx5_fw tracepoint text (what a driver writes to tracefs and mstfwtrace reads) and the trace-mask classes per family.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "devices/FirmwareTracerInfo.h"
#include "image/TraceRecord.h"
#include "tests/support/ResultMatchers.h"

namespace openflint {
namespace {

using test::FailsWith;
using test::IsOk;
using ::testing::HasSubstr;

TEST(TracepointText, TheKernelsFormat) {
  const TraceRecord r{0x2bd64e3a1f, false, 0x2c, "link up"};
  EXPECT_EQ(tracepoint_text("0000:03:00.0", r), "0000:03:00.0 [0x2bd64e3a1f] 0 [0x2c] link up");
  EXPECT_EQ(tracepoint_text("0000:81:00.1", {0, true, 0xff, ""}), "0000:81:00.1 [0x0] 1 [0xff] ");
}

TEST(TracepointText, ParsesBack) {
  const TraceRecord r{0x1fffffffffffff, true, 0x7, "flash erase at 0x10000 [done]"};
  auto back = parse_tracepoint_text(tracepoint_text("0000:03:00.0", r));
  ASSERT_THAT(back, IsOk());
  EXPECT_EQ(back->dbdf, "0000:03:00.0");
  EXPECT_EQ(back->record, r);
  auto empty = parse_tracepoint_text("0000:03:00.0 [0x10] 0 [0x11]");
  ASSERT_THAT(empty, IsOk());
  EXPECT_EQ(empty->record.message, "");
}

TEST(TracepointText, RejectsWhatDoesNotFit) {
  EXPECT_THAT(parse_tracepoint_text("0000:03:00.0 [10] 0 [0x11] m"), FailsWith(ErrorCode::InvalidArgument, HasSubstr("timestamp")));
  EXPECT_THAT(parse_tracepoint_text("0000:03:00.0 [0x] 0 [0x11] m"), FailsWith(ErrorCode::InvalidArgument, HasSubstr("timestamp")));
  EXPECT_THAT(parse_tracepoint_text("0000:03:00.0 [0x20000000000000] 0 [0x11] m"),
              FailsWith(ErrorCode::InvalidArgument, HasSubstr("timestamp")));  // 54 bits
  EXPECT_THAT(parse_tracepoint_text("0000:03:00.0 [0xffffffffffffffffff] 0 [0x11] m"), FailsWith(ErrorCode::InvalidArgument));
  EXPECT_THAT(parse_tracepoint_text("0000:03:00.0 [0x10] 2 [0x11] m"), FailsWith(ErrorCode::InvalidArgument, HasSubstr("lost")));
  EXPECT_THAT(parse_tracepoint_text("0000:03:00.0 [0x10] 0 [0x100] m"), FailsWith(ErrorCode::InvalidArgument, HasSubstr("event id")));
  EXPECT_THAT(parse_tracepoint_text("0000:03:00.0 [0x10] 0 [0xAB] m"), FailsWith(ErrorCode::InvalidArgument));  // the kernel prints lower case
  EXPECT_THAT(parse_tracepoint_text(" [0x10] 0 [0x11] m"), FailsWith(ErrorCode::InvalidArgument, HasSubstr("device")));
  EXPECT_THAT(parse_tracepoint_text(""), FailsWith(ErrorCode::InvalidArgument));
}

TEST(TraceClasses, TablesAreConsistent) {
  for (const FirmwareTracerInfo* t : {&kHcaFirmwareTracer, &kSwitchFirmwareTracer}) {
    std::set<std::string> names;
    std::set<int> bits;
    for (const TraceClass& c : t->classes) {
      EXPECT_TRUE(names.insert(std::string(c.name)).second) << c.name;
      EXPECT_TRUE(bits.insert(c.bit).second) << c.name;
      EXPECT_LT(c.bit, 32);
    }
  }
  EXPECT_EQ(kHcaFirmwareTracer.classes.size(), 31u);
  EXPECT_EQ(kHcaFirmwareTracer.classes[23].name, "FLASH");
  EXPECT_EQ(kHcaFirmwareTracer.classes[23].bit, 23);
  EXPECT_EQ(kSwitchFirmwareTracer.classes.size(), 2u);
  EXPECT_EQ(kHcaFirmwareTracer.driver, "mlx5_core");  // the driver that prints host-memory traces
  EXPECT_TRUE(kSwitchFirmwareTracer.driver.empty());  // FIFO only: no driver reads it
}

TEST(TraceClasses, ParsesNamesAndNumbers) {
  EXPECT_EQ(*parse_trace_mask(kHcaFirmwareTracer, "FLASH+CMD_IF"), (1u << 23) | (1u << 5));
  EXPECT_EQ(*parse_trace_mask(kHcaFirmwareTracer, "flash+virt"), (1u << 23) | (1u << 30));
  EXPECT_EQ(*parse_trace_mask(kHcaFirmwareTracer, "DEBUG_INIT"), 1u);
  EXPECT_EQ(*parse_trace_mask(kHcaFirmwareTracer, "0x800020"), 0x800020u);
  EXPECT_EQ(*parse_trace_mask(kHcaFirmwareTracer, "5"), 5u);
  EXPECT_EQ(*parse_trace_mask(kSwitchFirmwareTracer, "class1+class2"), 3u);
  EXPECT_EQ(*parse_trace_mask(kSwitchFirmwareTracer, "CLASS2"), 2u);
}

TEST(TraceClasses, ErrorsNameTheUnknownClass) {
  EXPECT_THAT(parse_trace_mask(kHcaFirmwareTracer, "FLASH+BOGUS"),
              FailsWith(ErrorCode::InvalidArgument, HasSubstr("unknown class 'BOGUS' (known: DEBUG_INIT, INIT,")));
  EXPECT_THAT(parse_trace_mask(kSwitchFirmwareTracer, "FLASH"),
              FailsWith(ErrorCode::InvalidArgument, HasSubstr("(known: class1, class2)")));
  EXPECT_THAT(parse_trace_mask(kHcaFirmwareTracer, "FLASH++PCI"), FailsWith(ErrorCode::InvalidArgument, HasSubstr("empty")));
  EXPECT_THAT(parse_trace_mask(kHcaFirmwareTracer, "FLASH+"), FailsWith(ErrorCode::InvalidArgument, HasSubstr("empty")));
  EXPECT_THAT(parse_trace_mask(kHcaFirmwareTracer, ""), FailsWith(ErrorCode::InvalidArgument));
  EXPECT_THAT(parse_trace_mask(kHcaFirmwareTracer, "0x100000000"), FailsWith(ErrorCode::InvalidArgument));
  EXPECT_THAT(parse_trace_mask(kHcaFirmwareTracer, "12abc"), FailsWith(ErrorCode::InvalidArgument));
}

TEST(TraceClasses, MaskText) {
  EXPECT_EQ(trace_mask_text(kHcaFirmwareTracer, (1u << 23) | (1u << 5)), "CMD_IF+FLASH");
  EXPECT_EQ(trace_mask_text(kHcaFirmwareTracer, (1u << 23) | (1u << 31)), "FLASH+0x80000000");
  EXPECT_EQ(trace_mask_text(kSwitchFirmwareTracer, 0x7), "class1+class2+0x4");
  EXPECT_EQ(trace_mask_text(kSwitchFirmwareTracer, 0), "0x0");
  EXPECT_EQ(*parse_trace_mask(kHcaFirmwareTracer, trace_mask_text(kHcaFirmwareTracer, 0x7fffffff)), 0x7fffffffu);
}

}  // namespace
}  // namespace openflint
