// ApiVersion literals for the Controller tests: V("22.1.3") is the version a test writes out,
// parsed in one place, so that the version and field catalog tests read as the versions they
// compare.
#ifndef NSXALB_TESTS_CONTROLLER_VERSION_LITERAL_H_
#define NSXALB_TESTS_CONTROLLER_VERSION_LITERAL_H_

#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "plugin/controller/version.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::controller {

// The version `text` ("22.1.3"); a test failure, and the empty version, when it does not parse.
inline ApiVersion V(const char* text) {
  absl::StatusOr<ApiVersion> version = ApiVersion::Parse(text);
  EXPECT_THAT(version, ::nsxalb::testing::IsOk()) << text << ": " << version.status();
  return version.ok() ? *version : ApiVersion();
}

}  // namespace nsxalb::controller

#endif  // NSXALB_TESTS_CONTROLLER_VERSION_LITERAL_H_
