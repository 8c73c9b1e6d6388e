// Tests for tests/support/ResultMatchers.h: IsOk and FailsWith accept what they name and explain what they refuse.
#include <gtest/gtest.h>

#include "core/Result.h"
#include "tests/support/ResultMatchers.h"

namespace openflint::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

Result<int> value() { return 7; }
Result<int> failure() { return make_error(ErrorCode::Io, "reading sector 3: short read"); }
Result<void> done() { return {}; }

TEST(ResultMatchers, AcceptWhatTheyNameAndRefuseTheRest) {
  EXPECT_THAT(value(), IsOk());
  EXPECT_THAT(done(), IsOk());
  EXPECT_THAT(failure(), Not(IsOk()));
  EXPECT_THAT(failure(), FailsWith(ErrorCode::Io));
  EXPECT_THAT(failure(), Not(FailsWith(ErrorCode::Timeout)));
  EXPECT_THAT(value(), Not(FailsWith(ErrorCode::Io)));
  EXPECT_THAT(failure(), FailsWith(ErrorCode::Io, HasSubstr("sector 3")));
  EXPECT_THAT(failure(), Not(FailsWith(ErrorCode::Io, HasSubstr("sector 4"))));
}

TEST(ResultMatchers, AFailureShowsTheErrorItGot) {
  ::testing::StringMatchResultListener listener;
  EXPECT_FALSE(::testing::ExplainMatchResult(IsOk(), failure(), &listener));
  EXPECT_EQ(listener.str(), "failed with i/o error: reading sector 3: short read");
  ::testing::StringMatchResultListener other;
  EXPECT_FALSE(::testing::ExplainMatchResult(FailsWith(ErrorCode::Timeout), failure(), &other));
  EXPECT_EQ(other.str(), "failed with i/o error: reading sector 3: short read");
  EXPECT_EQ(::testing::DescribeMatcher<Result<int>>(FailsWith(ErrorCode::Busy)), "fails with busy");
}

}  // namespace
}  // namespace openflint::test
