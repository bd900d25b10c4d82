// Tests for plugin/controller/errors.h.
#include "plugin/controller/errors.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::controller {
namespace {

using ::nsxalb::testing::StatusIs;

TEST(ErrorsTest, CodesSayWhatToDo) {
  EXPECT_EQ(CodeForHttpStatus(400), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CodeForHttpStatus(401), absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(CodeForHttpStatus(419), absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(CodeForHttpStatus(403), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(CodeForHttpStatus(404), absl::StatusCode::kNotFound);
  EXPECT_EQ(CodeForHttpStatus(409), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(CodeForHttpStatus(412), absl::StatusCode::kAborted);
  EXPECT_EQ(CodeForHttpStatus(429), absl::StatusCode::kUnavailable);
  EXPECT_EQ(CodeForHttpStatus(502), absl::StatusCode::kUnavailable);
  EXPECT_EQ(CodeForHttpStatus(503), absl::StatusCode::kUnavailable);
  EXPECT_EQ(CodeForHttpStatus(504), absl::StatusCode::kUnavailable);
  EXPECT_EQ(CodeForHttpStatus(500), absl::StatusCode::kInternal);
  EXPECT_EQ(CodeForHttpStatus(405), absl::StatusCode::kFailedPrecondition);
}

TEST(ErrorsTest, ControllerErrorText) {
  EXPECT_EQ(ControllerErrorText(R"({"error": "Cannot delete system default object"})"),
            "Cannot delete system default object");
  EXPECT_EQ(ControllerErrorText("CSRF token missing or incorrect.\n"),
            "CSRF token missing or incorrect.");
  EXPECT_EQ(ControllerErrorText(""), "");
  EXPECT_EQ(ControllerErrorText(R"({"detail": "x"})"), "x");
  EXPECT_LE(ControllerErrorText(std::string(5000, 'x')).size(), 510u);
}

TEST(ErrorsTest, HttpErrorCarriesStatusAndText) {
  absl::Status st = HttpError(409, "POST /api/serviceenginegroup",
                              R"({"error":"Service Engine Group with this Name already exists."})");
  EXPECT_THAT(st, StatusIs(absl::StatusCode::kAlreadyExists));
  EXPECT_EQ(st.message(),
            "controller: POST /api/serviceenginegroup: HTTP 409: Service Engine Group with this "
            "Name already exists.");
  EXPECT_EQ(HttpStatusOf(st), 409);
  EXPECT_FALSE(HttpStatusOf(absl::InternalError("x")).has_value());
  absl::Status renamed = WithMessage(st, "other");
  EXPECT_THAT(renamed, StatusIs(absl::StatusCode::kAlreadyExists));
  EXPECT_EQ(HttpStatusOf(renamed), 409);
}

}  // namespace
}  // namespace nsxalb::controller

namespace nsxalb::controller {
namespace {

using ::testing::HasSubstr;

TEST(SetupProblemTest, MarkSurvivesNewMessagesAndUnmarkedIsNone) {
  EXPECT_EQ(SetupProblemOf(absl::UnavailableError("x")), SetupProblem::kNone);
  absl::Status s = WithSetupProblem(absl::UnavailableError("refused"), SetupProblem::kUnreachable);
  EXPECT_EQ(SetupProblemOf(s), SetupProblem::kUnreachable);
  EXPECT_EQ(SetupProblemOf(WithMessage(s, "refused (gave up after 6 attempts)")),
            SetupProblem::kUnreachable);
  EXPECT_THAT(s, StatusIs(absl::StatusCode::kUnavailable));
  EXPECT_EQ(s.message(), "refused");
}

TEST(SetupProblemTest, EachProblemHasASummaryAndARemedyThatNamesTheSettings) {
  Endpoint endpoint;
  endpoint.host = "avi.example.com";
  endpoint.port = 8443;
  endpoint.base_url = "https://avi.example.com:8443";
  EXPECT_EQ(std::string(SetupProblemSummary(SetupProblem::kNone)), "");
  EXPECT_EQ(SetupRemedy(SetupProblem::kNone, endpoint, "admin"), "");

  EXPECT_EQ(std::string(SetupProblemSummary(SetupProblem::kUnreachable)),
            "Cannot connect to the Controller");
  const std::string unreachable = SetupRemedy(SetupProblem::kUnreachable, endpoint, "admin");
  EXPECT_THAT(unreachable, HasSubstr("nothing answered at https://avi.example.com:8443"));
  EXPECT_THAT(unreachable, HasSubstr("NSXALB_CONTROLLER"));

  const std::string tls = SetupRemedy(SetupProblem::kUntrustedCertificate, endpoint, "admin");
  EXPECT_THAT(tls, HasSubstr("openssl s_client -connect avi.example.com:8443 -showcerts"));
  EXPECT_THAT(tls, HasSubstr("ca_file (or NSXALB_CA_FILE)"));
  EXPECT_THAT(tls, HasSubstr("insecure = true"));
  endpoint.host = "fd00::10";
  endpoint.ipv6 = true;
  EXPECT_THAT(SetupRemedy(SetupProblem::kUntrustedCertificate, endpoint, "admin"),
              HasSubstr("-connect [fd00::10]:8443 "));

  const std::string login = SetupRemedy(SetupProblem::kLoginRejected, endpoint, "ops");
  EXPECT_THAT(login, HasSubstr("user \"ops\""));
  EXPECT_THAT(login, HasSubstr("NSXALB_USERNAME and NSXALB_PASSWORD"));
}

TEST(SetupProblemTest, RemedyTravelsAsAPayload) {
  absl::Status s = WithRemedy(absl::UnauthenticatedError("HTTP 401"), "check the password");
  EXPECT_EQ(RemedyOf(s), "check the password");
  EXPECT_EQ(RemedyOf(absl::UnauthenticatedError("HTTP 401")), "");
}

}  // namespace
}  // namespace nsxalb::controller
