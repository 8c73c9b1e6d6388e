// ResultMatchers: gtest matchers for Result<T> — EXPECT_THAT(r, IsOk()), EXPECT_THAT(r, FailsWith(ErrorCode::Io)).
#pragma once

#include <gmock/gmock.h>

#include <string>

#include "core/Result.h"

namespace openflint::test {

// The result holds a value (or is a successful Result<void>); a failure is shown with its code and message.
MATCHER(IsOk, negation ? "fails" : "succeeds") {
  if (arg) return true;
  *result_listener << "failed with " << to_string(arg.error().code()) << ": " << arg.error().message();
  return false;
}

// The result failed with `code`.
MATCHER_P(FailsWith, code, std::string(negation ? "does not fail" : "fails") + " with " + std::string(to_string(code))) {
  if (arg) {
    *result_listener << "succeeded";
    return false;
  }
  *result_listener << "failed with " << to_string(arg.error().code()) << ": " << arg.error().message();
  return arg.error().code() == code;
}

// The result failed with `code` and a message `message_matcher` accepts (e.g. HasSubstr("offset")).
MATCHER_P2(FailsWith, code, message_matcher,
           std::string(negation ? "does not fail" : "fails") + " with " + std::string(to_string(code)) + " and a message that " +
               ::testing::DescribeMatcher<std::string>(message_matcher, negation)) {
  if (arg) {
    *result_listener << "succeeded";
    return false;
  }
  *result_listener << "failed with " << to_string(arg.error().code()) << ": " << arg.error().message();
  return arg.error().code() == code &&
         ::testing::Matches(::testing::Matcher<std::string>(message_matcher))(arg.error().message());
}

}  // namespace openflint::test
