// Tests for plugin/common/status_macros.h: the early return happens exactly on an error, the
// expression is evaluated once, and the value lands in the declared variable.
#include "plugin/common/status_macros.h"

#include <memory>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/status_matchers.h"

namespace nsxalb {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::IsOkAndHolds;
using ::nsxalb::testing::StatusIs;

absl::Status Counted(absl::Status result, int* calls) {
  ++*calls;
  return result;
}

absl::Status TwoSteps(absl::Status first, absl::Status second, int* calls, bool* reached_end) {
  NSXALB_RETURN_IF_ERROR(Counted(first, calls));
  NSXALB_RETURN_IF_ERROR(Counted(second, calls));
  *reached_end = true;
  return absl::OkStatus();
}

TEST(StatusMacrosTest, ReturnIfErrorReturnsTheFirstError) {
  int calls = 0;
  bool reached_end = false;
  EXPECT_THAT(TwoSteps(absl::NotFoundError("first"), absl::OkStatus(), &calls, &reached_end),
              StatusIs(absl::StatusCode::kNotFound, "first"));
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(reached_end);

  calls = 0;
  EXPECT_THAT(TwoSteps(absl::OkStatus(), absl::AbortedError("second"), &calls, &reached_end),
              StatusIs(absl::StatusCode::kAborted, "second"));
  EXPECT_EQ(calls, 2);
  EXPECT_FALSE(reached_end);

  calls = 0;
  EXPECT_THAT(TwoSteps(absl::OkStatus(), absl::OkStatus(), &calls, &reached_end), IsOk());
  EXPECT_EQ(calls, 2);
  EXPECT_TRUE(reached_end);
}

absl::StatusOr<std::unique_ptr<std::string>> MakeText(bool ok, int* calls) {
  ++*calls;
  if (!ok) return absl::InvalidArgumentError("no text");
  return std::make_unique<std::string>("text");
}

// Moves a move-only value out of the StatusOr; returns a StatusOr of another type.
absl::StatusOr<size_t> TextLength(bool ok, int* calls) {
  NSXALB_ASSIGN_OR_RETURN(std::unique_ptr<std::string> text, MakeText(ok, calls));
  return text->size();
}

TEST(StatusMacrosTest, AssignOrReturnAssignsOrReturnsTheStatus) {
  int calls = 0;
  EXPECT_THAT(TextLength(true, &calls), IsOkAndHolds(4u));
  EXPECT_EQ(calls, 1);
  EXPECT_THAT(TextLength(false, &calls),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::HasSubstr("no text")));
  EXPECT_EQ(calls, 2);
}

absl::Status AssignTwiceInOneScope(int* sum) {
  NSXALB_ASSIGN_OR_RETURN(int a, absl::StatusOr<int>(2));
  NSXALB_ASSIGN_OR_RETURN(int b, absl::StatusOr<int>(3));
  NSXALB_ASSIGN_OR_RETURN(*sum, absl::StatusOr<int>(a + b));  // an existing lvalue
  return absl::OkStatus();
}

TEST(StatusMacrosTest, AssignOrReturnTwiceInOneScopeAndIntoAnLvalue) {
  int sum = 0;
  EXPECT_THAT(AssignTwiceInOneScope(&sum), IsOk());
  EXPECT_EQ(sum, 5);
}

}  // namespace
}  // namespace nsxalb
