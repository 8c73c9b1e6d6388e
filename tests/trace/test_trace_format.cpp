// The trace messages' printf subset: the driver's parameter count, conversions, and hostile formats.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "image/TraceMessageFormat.h"
#include "tests/support/ResultMatchers.h"

namespace openflint {
namespace {

using test::FailsWith;
using test::IsOk;
using ::testing::HasSubstr;

std::string fmt(std::string_view f, std::vector<std::uint32_t> p) { return format_trace_message(f, p).text; }

TEST(TraceFormat, CountsParametersAsTheDriverDoes) {
  EXPECT_EQ(count_trace_params("boot done"), 0u);
  EXPECT_EQ(count_trace_params("port %d"), 1u);
  EXPECT_EQ(count_trace_params("guid %llx"), 2u);
  EXPECT_EQ(count_trace_params("%llx%llx"), 4u);
  EXPECT_EQ(count_trace_params("100%%"), 2u);  // each '%' counts, as in the driver
  EXPECT_EQ(count_trace_params("a %d %llx %%"), 5u);
  EXPECT_EQ(count_trace_params(rewrite_trace_format("a %d %llx %%")), 5u);
  EXPECT_EQ(rewrite_trace_format("%%llx and %llx"), "%%x%x and %x%x");
}

TEST(TraceFormat, IntegerConversionsFlagsWidthPrecision) {
  EXPECT_EQ(fmt("%5d|%-5d|%05d", {42, 42, 42}), "   42|42   |00042");
  EXPECT_EQ(fmt("%+d % d %i", {5, 5, 0xffffffff}), "+5  5 -1");
  EXPECT_EQ(fmt("%u %x %X %o", {0xffffffff, 0xbeef, 0xbeef, 8}), "4294967295 beef BEEF 10");
  EXPECT_EQ(fmt("%#x %#X %#o %#x", {255, 255, 255, 0}), "0xff 0XFF 0377 0");
  EXPECT_EQ(fmt("[%.3d] [%.0d] [%8.3x] [%-6.2u]", {7, 0, 0xa, 5}), "[007] [] [     00a] [05    ]");
  EXPECT_EQ(fmt("%hd %hhu %hx", {0x1ffff, 0x1ff, 0x12345}), "-1 255 2345");
  EXPECT_EQ(fmt("%ld %llu %zx", {0xffffffff, 7, 0x10}), "4294967295 7 10");
  EXPECT_EQ(fmt("%*d|%-*d|%.*d", {4, 7, 3, 1, 2, 5}), "   7|1  |05");
  EXPECT_EQ(fmt("%c%c%3c", {'o', 'k', '!'}), "ok  !");
  EXPECT_EQ(fmt("100%% sure", {}), "100% sure");
}

TEST(TraceFormat, SixtyFourBitValuesPrintAsTwoHexWords) {
  // The driver's rewrite: the low word loses its leading zeros, as the kernel prints it.
  EXPECT_EQ(fmt(rewrite_trace_format("guid %llx"), {0x2c903, 0x00a04000}), "guid 2c903a04000");
}

TEST(TraceFormat, MissingAndUnsupportedConversionsGiveMarkers) {
  TraceMessageText t = format_trace_message("%d and %d", std::vector<std::uint32_t>{1});
  EXPECT_EQ(t.text, "1 and %!d(MISSING)");
  EXPECT_EQ(t.missing, 1u);
  EXPECT_FALSE(t.clean());
  t = format_trace_message("name %s at %p %n%d", std::vector<std::uint32_t>{1, 2, 3, 4});
  EXPECT_EQ(t.text, "name %!s(UNSUPPORTED) at %!p(UNSUPPORTED) %!n(UNSUPPORTED)4");
  EXPECT_EQ(t.unsupported, 3u);
  t = format_trace_message("cut %", {});
  EXPECT_EQ(t.text, "cut %!(NOVERB)");
  t = format_trace_message("cut %-08", {});
  EXPECT_EQ(t.text, "cut %!(NOVERB)");
  EXPECT_EQ(fmt("%d %d %d", {}), "%!d(MISSING) %!d(MISSING) %!d(MISSING)");
}

TEST(TraceFormat, OutputIsBoundedLikeTheDriversBuffer) {
  TraceMessageText t = format_trace_message("%999999999999999999999d", std::vector<std::uint32_t>{1});
  EXPECT_EQ(t.text.size(), kMaxTraceMessage);
  EXPECT_EQ(t.text.back(), '1');
  t = format_trace_message(std::string(600, 'a'), {});
  EXPECT_EQ(t.text.size(), kMaxTraceMessage);
  EXPECT_TRUE(t.truncated);
  t = format_trace_message("%511d%511d%511d", std::vector<std::uint32_t>{1, 2, 3});
  EXPECT_EQ(t.text.size(), kMaxTraceMessage);
  EXPECT_TRUE(t.truncated);
  // A NUL character ends the driver's string.
  EXPECT_EQ(fmt("ab%ccd", {0}), "ab");
}

TEST(TraceFormat, StrictFormNamesTheProblem) {
  EXPECT_THAT(format_trace_message_strict("port %d", std::vector<std::uint32_t>{3}), IsOk());
  EXPECT_EQ(*format_trace_message_strict("port %d", std::vector<std::uint32_t>{3}), "port 3");
  EXPECT_THAT(format_trace_message_strict("%d %d", std::vector<std::uint32_t>{3}),
              FailsWith(ErrorCode::InvalidArgument, HasSubstr("no parameter (1 sent)")));
  EXPECT_THAT(format_trace_message_strict("%s", std::vector<std::uint32_t>{3}),
              FailsWith(ErrorCode::InvalidArgument, HasSubstr("outside")));
}

}  // namespace
}  // namespace openflint
