// Tests for Result<T> and the bounds-checked big-endian ByteReader.
#include <gtest/gtest.h>

#include <vector>

#include "core/ByteReader.h"
#include "core/Result.h"
#include "tests/support/ResultMatchers.h"

namespace openflint {
namespace {

Result<int> half(int v) {
  if (v % 2 != 0) return make_error(ErrorCode::InvalidArgument, "odd value");
  return v / 2;
}

Result<int> quarter(int v) {
  OF_ASSIGN(int h, half(v));
  OF_ASSIGN(int q, half(h));
  return q;
}

TEST(Result, CarriesValueOrError) {
  auto ok = quarter(8);
  ASSERT_TRUE(ok.has_value());
  EXPECT_EQ(*ok, 2);
  auto bad = quarter(6);
  ASSERT_THAT(bad, test::FailsWith(ErrorCode::InvalidArgument));
  EXPECT_EQ(bad.error().with_context("dividing 6").message(), "dividing 6: odd value");
}

TEST(ByteReader, ReadsBigEndian) {
  std::vector<std::uint8_t> buf{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0};
  ByteReader r(buf);
  EXPECT_EQ(*r.u8(0), 0x12);
  EXPECT_EQ(*r.be16(1), 0x3456);
  EXPECT_EQ(*r.be32(0), 0x12345678u);
  EXPECT_EQ(*r.be64(0), 0x123456789abcdef0ull);
}

TEST(ByteReader, RefusesEveryReadPastTheEnd) {
  std::vector<std::uint8_t> buf(16, 0xab);
  ByteReader r(buf);
  EXPECT_TRUE(r.be32(12).has_value());
  EXPECT_FALSE(r.be32(13).has_value());
  EXPECT_FALSE(r.be64(9).has_value());
  EXPECT_FALSE(r.u8(16).has_value());
  EXPECT_FALSE(r.slice(8, 9).has_value());
  EXPECT_FALSE(r.slice(0xffffffffffffffffull, 2).has_value());  // no overflow wrap-around
  EXPECT_FALSE(r.slice(2, 0xffffffffffffffffull).has_value());
  auto err = r.be32(14);
  ASSERT_THAT(err, test::FailsWith(ErrorCode::InvalidImage));
  EXPECT_NE(err.error().message().find("0xe"), std::string::npos);
}

TEST(ByteReader, FixedStringStopsAtNul) {
  std::vector<std::uint8_t> buf{'M', 'T', '_', '1', 0, 'x', 'y', 'z'};
  ByteReader r(buf);
  EXPECT_EQ(*r.fixed_string(0, 8), "MT_1");
  EXPECT_EQ(*r.fixed_string(5, 3), "xyz");
  EXPECT_FALSE(r.fixed_string(5, 4).has_value());
}

}  // namespace
}  // namespace openflint
