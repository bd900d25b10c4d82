// GoogleMock matchers for absl::Status and absl::StatusOr<T>, so that a failed assertion prints
// the status it got (code and message) instead of "Value of: x.ok() Actual: false". Debian's
// Abseil predates absl/status/status_matchers.h; these are the same three ideas:
//   EXPECT_THAT(status_or, IsOk());
//   EXPECT_THAT(status, StatusIs(absl::StatusCode::kNotFound));
//   EXPECT_THAT(status_or, StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("vcpus")));
//   EXPECT_THAT(status_or, IsOkAndHolds(Eq(3)));
// Header only; test targets include it as "tests/support/status_matchers.h".
#ifndef NSXALB_TESTS_SUPPORT_STATUS_MATCHERS_H_
#define NSXALB_TESTS_SUPPORT_STATUS_MATCHERS_H_

#include <ostream>
#include <string>
#include <type_traits>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"

namespace nsxalb::testing {
namespace status_internal {

// The status of a Status (itself) or of a StatusOr (its status()).
inline const absl::Status& StatusOf(const absl::Status& status) { return status; }
template <typename T>
const absl::Status& StatusOf(const absl::StatusOr<T>& status_or) {
  return status_or.status();
}

// Whether S is a status type with error_code() and error_message() (grpc::Status, which some
// wire tests assert) rather than an Abseil one.
template <typename S, typename = void>
struct HasErrorMessage : std::false_type {};
template <typename S>
struct HasErrorMessage<S, std::void_t<decltype(std::declval<const S&>().error_message())>>
    : std::true_type {};

// What a failed status says: its code and message.
template <typename StatusType>
void ExplainFailure(const StatusType& actual, ::testing::MatchResultListener* listener) {
  if constexpr (HasErrorMessage<StatusType>::value) {
    *listener << "which is code " << static_cast<int>(actual.error_code()) << ": "
              << actual.error_message();
  } else {
    *listener << "which is " << StatusOf(actual);
  }
}

// IsOk(): matches an OK Status or StatusOr, whatever it holds, or any status type with ok().
class IsOkMatcher {
 public:
  template <typename StatusType>
  bool MatchAndExplain(const StatusType& actual, ::testing::MatchResultListener* listener) const {
    if (actual.ok()) return true;
    ExplainFailure(actual, listener);
    return false;
  }
  void DescribeTo(std::ostream* os) const { *os << "is OK"; }
  void DescribeNegationTo(std::ostream* os) const { *os << "is not OK"; }
};

// StatusIs(code, message): matches a Status or StatusOr whose code is `code` and whose message
// matches `message`.
class StatusIsMatcher {
 public:
  StatusIsMatcher(absl::StatusCode code, ::testing::Matcher<const std::string&> message)
      : code_(code), message_(std::move(message)) {}

  template <typename StatusType>
  bool MatchAndExplain(const StatusType& actual, ::testing::MatchResultListener* listener) const {
    const absl::Status& status = StatusOf(actual);
    *listener << "which is " << status;
    return status.code() == code_ && message_.Matches(std::string(status.message()));
  }
  void DescribeTo(std::ostream* os) const {
    *os << "has code " << absl::StatusCodeToString(code_) << " and a message that ";
    message_.DescribeTo(os);
  }
  void DescribeNegationTo(std::ostream* os) const {
    *os << "does not have code " << absl::StatusCodeToString(code_) << " or has a message that ";
    message_.DescribeNegationTo(os);
  }

 private:
  absl::StatusCode code_;
  ::testing::Matcher<const std::string&> message_;
};

// IsOkAndHolds(m): matches an OK StatusOr<T> whose value matches `m`.
template <typename InnerMatcher>
class IsOkAndHoldsMatcher {
 public:
  explicit IsOkAndHoldsMatcher(InnerMatcher inner) : inner_(std::move(inner)) {}

  template <typename T>
  bool MatchAndExplain(const absl::StatusOr<T>& actual,
                       ::testing::MatchResultListener* listener) const {
    if (!actual.ok()) {
      *listener << "which is " << actual.status();
      return false;
    }
    return ::testing::SafeMatcherCast<const T&>(inner_).MatchAndExplain(*actual, listener);
  }
  void DescribeTo(std::ostream* os) const { *os << "is OK and holds a value that matches"; }
  void DescribeNegationTo(std::ostream* os) const {
    *os << "is not OK, or holds a value that does not match";
  }

 private:
  InnerMatcher inner_;
};

}  // namespace status_internal

// Matches an OK absl::Status or absl::StatusOr<T>.
inline ::testing::PolymorphicMatcher<status_internal::IsOkMatcher> IsOk() {
  return ::testing::MakePolymorphicMatcher(status_internal::IsOkMatcher());
}

// Matches a Status or StatusOr with the given code (any message).
inline ::testing::PolymorphicMatcher<status_internal::StatusIsMatcher> StatusIs(
    absl::StatusCode code) {
  return ::testing::MakePolymorphicMatcher(status_internal::StatusIsMatcher(code, ::testing::_));
}

// Matches a Status or StatusOr with the given code and a message matching `message` (a string
// matcher such as HasSubstr("..."), or a string for equality).
template <typename MessageMatcher>
::testing::PolymorphicMatcher<status_internal::StatusIsMatcher> StatusIs(absl::StatusCode code,
                                                                         MessageMatcher message) {
  return ::testing::MakePolymorphicMatcher(status_internal::StatusIsMatcher(
      code, ::testing::MatcherCast<const std::string&>(std::move(message))));
}

// Matches an OK StatusOr<T> whose value matches `inner`.
template <typename InnerMatcher>
::testing::PolymorphicMatcher<status_internal::IsOkAndHoldsMatcher<InnerMatcher>> IsOkAndHolds(
    InnerMatcher inner) {
  return ::testing::MakePolymorphicMatcher(
      status_internal::IsOkAndHoldsMatcher<InnerMatcher>(std::move(inner)));
}

}  // namespace nsxalb::testing

#endif  // NSXALB_TESTS_SUPPORT_STATUS_MATCHERS_H_
