// The firmware string DB: the chunked read plan, strict pointer bounds, hostile sections, and the builder read back through MTRC_STDB.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "image/TraceStringDb.h"
#include "image/TraceStringDbBuilder.h"
#include "mtcr/registers/MtrcStdbRegister.h"
#include "tests/support/ResultMatchers.h"

namespace openflint {
namespace {

using test::FailsWith;
using test::IsOk;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(TraceStringReadPlan, ChunksOf256ThenLeftoversOf64) {
  EXPECT_TRUE(trace_string_read_plan(0).empty());
  EXPECT_THAT(trace_string_read_plan(64), ElementsAre(TraceStringChunk{0, 64}));
  // 300 = 256 + 44: the 44 bytes are less than a 64-byte chunk and the driver never reads them.
  EXPECT_THAT(trace_string_read_plan(300), ElementsAre(TraceStringChunk{0, 256}));
  EXPECT_THAT(trace_string_read_plan(320), ElementsAre(TraceStringChunk{0, 256}, TraceStringChunk{256, 64}));
  const auto plan4096 = trace_string_read_plan(4096);
  ASSERT_EQ(plan4096.size(), 16u);
  EXPECT_EQ(plan4096.back(), (TraceStringChunk{3840, 256}));
  const auto plan = trace_string_read_plan(0xfc0);  // 15 x 256 + 3 x 64
  ASSERT_EQ(plan.size(), 18u);
  EXPECT_EQ(plan[14], (TraceStringChunk{0xe00, 256}));
  EXPECT_EQ(plan[15], (TraceStringChunk{0xf00, 64}));
  EXPECT_EQ(plan[17], (TraceStringChunk{0xf80, 64}));
}

TraceStringDb db_with(std::uint32_t base, std::string_view bytes) {
  const TraceStringSection s{base, static_cast<std::uint32_t>(bytes.size())};
  auto db = TraceStringDb::create(std::span(&s, 1));
  EXPECT_THAT(db, IsOk());
  EXPECT_THAT(db->store(0, 0, std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size())), IsOk());
  return std::move(db).value();
}

TEST(TraceStringDb, BoundsAreStrictAtBothEnds) {
  using namespace std::string_literals;
  const TraceStringDb db = db_with(0x1000, "\0one\0two\0"s);  // 9 bytes: 0x1000..0x1008
  EXPECT_THAT(db.lookup(0x1000), FailsWith(ErrorCode::NotFound, HasSubstr("0x1000")));  // base itself: never
  EXPECT_EQ(*db.lookup(0x1001), "one");
  EXPECT_EQ(*db.lookup(0x1002), "ne");
  EXPECT_EQ(*db.lookup(0x1005), "two");
  EXPECT_EQ(*db.lookup(0x1008), "");  // the last byte: inside
  EXPECT_THAT(db.lookup(0x1009), FailsWith(ErrorCode::NotFound));  // base + size: outside
  EXPECT_THAT(db.lookup(0x0fff), FailsWith(ErrorCode::NotFound));
  EXPECT_THAT(db.lookup(0), FailsWith(ErrorCode::NotFound));
}

TEST(TraceStringDb, HostileSectionsGiveCleanErrors) {
  const TraceStringDb no_nul = db_with(0x100, std::string(64, 'A'));
  EXPECT_THAT(no_nul.lookup(0x101), FailsWith(ErrorCode::InvalidImage, HasSubstr("no terminating NUL")));
  EXPECT_THAT(no_nul.lookup(0x13f), FailsWith(ErrorCode::InvalidImage));
  // A section whose end wraps past 2^32 matches nothing, as in the driver's 32-bit sum.
  const TraceStringDb wrapping = db_with(0xffffffc0, std::string(128, '\0'));
  EXPECT_THAT(wrapping.lookup(0xffffffd0), FailsWith(ErrorCode::NotFound));
  const std::vector<TraceStringSection> nine(9, TraceStringSection{0, 64});
  EXPECT_THAT(TraceStringDb::create(nine), FailsWith(ErrorCode::InvalidArgument, HasSubstr("at most 8")));
  const TraceStringSection huge{0, 0x1000000};
  EXPECT_THAT(TraceStringDb::create(std::span(&huge, 1)), FailsWith(ErrorCode::InvalidArgument, HasSubstr("24 bits")));
  TraceStringDb db = db_with(0x100, std::string(64, '\0'));
  const std::vector<std::uint8_t> chunk(64, 'x');
  EXPECT_THAT(db.store(0, 64, chunk), FailsWith(ErrorCode::InvalidArgument, HasSubstr("do not fit")));
  EXPECT_THAT(db.store(0, 0xffffffc0, chunk), FailsWith(ErrorCode::InvalidArgument));
  EXPECT_THAT(db.store(1, 0, chunk), FailsWith(ErrorCode::InvalidArgument, HasSubstr("no section 1")));
  // An empty section never matches.
  const TraceStringSection empty{0x100, 0};
  auto e = TraceStringDb::create(std::span(&empty, 1));
  ASSERT_THAT(e, IsOk());
  EXPECT_THAT(e->lookup(0x100), FailsWith(ErrorCode::NotFound));
}

TEST(TraceStringDbBuilder, LaysOutAlignedSectionsWithReachableStrings) {
  const std::vector<std::string_view> formats{"boot done", "port %d up", "boot done", "flash erase at %x"};
  auto built = build_trace_strings(formats, {.base_address = 0x2000, .max_section_size = 0x40});
  ASSERT_THAT(built, IsOk());
  ASSERT_EQ(built->pointers.size(), 4u);
  EXPECT_EQ(built->pointers[0], 0x2001u);  // offset 0 is the leading NUL
  EXPECT_EQ(built->pointers[2], built->pointers[0]);  // equal formats share a string
  // 1 + 10 + 11 = 22 bytes fit the first 64; "flash erase at %x" (18) does too.
  ASSERT_EQ(built->sections.size(), 1u);
  EXPECT_EQ(built->sections[0].size % 64, 0u);
  EXPECT_EQ(built->section_bytes[0][0], 0);
  auto db = built->to_string_db();
  ASSERT_THAT(db, IsOk());
  for (std::size_t i = 0; i < formats.size(); ++i) EXPECT_EQ(*db->lookup(built->pointers[i]), formats[i]) << i;
}

TEST(TraceStringDbBuilder, SectionsFollowEachOtherAndAreBounded) {
  const std::string a(40, 'a'), b(40, 'b'), c(40, 'c');
  const std::vector<std::string_view> formats{a, b, c};
  auto built = build_trace_strings(formats, {.base_address = 0x1000, .max_section_size = 64});
  ASSERT_THAT(built, IsOk());
  ASSERT_EQ(built->sections.size(), 3u);
  EXPECT_EQ(built->sections[1].base_address, 0x1040u);
  EXPECT_EQ(built->sections[2].base_address, 0x1080u);
  EXPECT_EQ(built->pointers[2], 0x1081u);
  const std::string nul("a\0b", 3);
  const std::vector<std::string_view> bad{nul};
  EXPECT_THAT(build_trace_strings(bad), FailsWith(ErrorCode::InvalidArgument, HasSubstr("NUL")));
  const std::string big(63, 'x');  // with the leading and the trailing NUL: 65 > 64
  const std::vector<std::string_view> too_big{big};
  EXPECT_THAT(build_trace_strings(too_big, {.base_address = 0, .max_section_size = 64}),
              FailsWith(ErrorCode::InvalidArgument, HasSubstr("does not fit")));
  std::vector<std::string> distinct;
  for (int i = 0; i < 9; ++i) distinct.push_back(std::string(60, static_cast<char>('a' + i)));
  const std::vector<std::string_view> views(distinct.begin(), distinct.end());
  EXPECT_THAT(build_trace_strings(views, {.base_address = 0, .max_section_size = 64}),
              FailsWith(ErrorCode::InvalidArgument, HasSubstr("more than 8")));
  EXPECT_THAT(build_trace_strings(formats, {.base_address = 0, .max_section_size = 100}), FailsWith(ErrorCode::InvalidArgument));
  EXPECT_THAT(build_trace_strings(formats, {.base_address = 0xffffffc0, .max_section_size = 64}),
              FailsWith(ErrorCode::InvalidArgument, HasSubstr("32-bit")));
}

// The host's side end to end: MTRC_STDB requests by the read plan, answered from the built
// sections, stored into a DB created from what MTRC_CAP would report.
TEST(TraceStringDbBuilder, ReadBackThroughMtrcStdbAsTheDriverReadsIt) {
  std::vector<std::string> texts;
  for (int i = 0; i < 40; ++i) texts.push_back("message " + std::to_string(i) + " value %u");
  const std::vector<std::string_view> formats(texts.begin(), texts.end());
  auto built = build_trace_strings(formats, {.base_address = 0x10000, .max_section_size = 0x180});
  ASSERT_THAT(built, IsOk());
  ASSERT_GT(built->sections.size(), 1u);
  auto host = TraceStringDb::create(built->sections);
  ASSERT_THAT(host, IsOk());
  std::size_t reads = 0;
  for (std::size_t i = 0; i < built->sections.size(); ++i) {
    for (const TraceStringChunk& c : trace_string_read_plan(built->sections[i].size)) {
      const MtrcStdbRegister req = MtrcStdbRegister::request(static_cast<std::uint8_t>(i), c.offset, c.size);
      ASSERT_THAT(req.check_request(built->sections[i].size, 256), IsOk());
      MtrcStdbRegister answer = req;  // the firmware fills the data
      const auto& src = built->section_bytes[i];
      answer.data.assign(src.begin() + c.offset, src.begin() + c.offset + c.size);
      auto got = MtrcStdbRegister::decode(answer.encode());
      ASSERT_THAT(got, IsOk());
      ASSERT_THAT(host->store(got->string_db_index, got->start_offset, got->data), IsOk());
      ++reads;
    }
  }
  EXPECT_GT(reads, built->sections.size());
  for (std::size_t i = 0; i < formats.size(); ++i) EXPECT_EQ(*host->lookup(built->pointers[i]), formats[i]) << i;
}

}  // namespace
}  // namespace openflint
