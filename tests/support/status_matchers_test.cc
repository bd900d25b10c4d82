// Tests for tests/support/status_matchers.h: each matcher accepts what it should, refuses what it
// should, and says in its explanation what status it got.
#include "tests/support/status_matchers.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace nsxalb::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(StatusMatchersTest, IsOk) {
  EXPECT_THAT(absl::OkStatus(), IsOk());
  EXPECT_THAT(absl::StatusOr<int>(1), IsOk());
  EXPECT_THAT(absl::NotFoundError("gone"), Not(IsOk()));
  EXPECT_THAT(absl::StatusOr<int>(absl::UnavailableError("later")), Not(IsOk()));
  ::testing::StringMatchResultListener listener;
  EXPECT_FALSE(::testing::ExplainMatchResult(IsOk(), absl::NotFoundError("gone"), &listener));
  EXPECT_THAT(listener.str(), HasSubstr("NOT_FOUND: gone"));
}

TEST(StatusMatchersTest, StatusIs) {
  const absl::Status status = absl::InvalidArgumentError("vcpus_per_se must be 1-64");
  EXPECT_THAT(status, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(status, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("vcpus_per_se")));
  EXPECT_THAT(status, StatusIs(absl::StatusCode::kInvalidArgument, "vcpus_per_se must be 1-64"));
  EXPECT_THAT(status, Not(StatusIs(absl::StatusCode::kNotFound)));
  EXPECT_THAT(status, Not(StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("memory"))));
  EXPECT_THAT(absl::StatusOr<int>(absl::AbortedError("412")),
              StatusIs(absl::StatusCode::kAborted, "412"));
  EXPECT_THAT(absl::StatusOr<int>(7), Not(StatusIs(absl::StatusCode::kAborted)));
  EXPECT_THAT(absl::OkStatus(), StatusIs(absl::StatusCode::kOk));
  ::testing::StringMatchResultListener listener;
  EXPECT_FALSE(
      ::testing::ExplainMatchResult(StatusIs(absl::StatusCode::kNotFound), status, &listener));
  EXPECT_THAT(listener.str(), HasSubstr("INVALID_ARGUMENT: vcpus_per_se must be 1-64"));
}

TEST(StatusMatchersTest, IsOkAndHolds) {
  EXPECT_THAT(absl::StatusOr<int>(3), IsOkAndHolds(3));
  EXPECT_THAT(absl::StatusOr<std::string>("abc"), IsOkAndHolds(HasSubstr("b")));
  EXPECT_THAT(absl::StatusOr<int>(3), Not(IsOkAndHolds(4)));
  EXPECT_THAT(absl::StatusOr<int>(absl::InternalError("x")), Not(IsOkAndHolds(3)));
  ::testing::StringMatchResultListener listener;
  EXPECT_FALSE(::testing::ExplainMatchResult(
      IsOkAndHolds(3), absl::StatusOr<int>(absl::InternalError("boom")), &listener));
  EXPECT_THAT(listener.str(), HasSubstr("INTERNAL: boom"));
}

}  // namespace
}  // namespace nsxalb::testing
