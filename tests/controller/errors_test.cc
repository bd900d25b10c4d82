// Tests for plugin/controller/errors.h.
#include "plugin/controller/errors.h"

#include "gtest/gtest.h"

namespace nsxalb::controller {
namespace {

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
  EXPECT_EQ(st.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(st.message(),
            "controller: POST /api/serviceenginegroup: HTTP 409: Service Engine Group with this "
            "Name already exists.");
  EXPECT_EQ(HttpStatusOf(st), 409);
  EXPECT_FALSE(HttpStatusOf(absl::InternalError("x")).has_value());
  absl::Status renamed = WithMessage(st, "other");
  EXPECT_EQ(renamed.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(HttpStatusOf(renamed), 409);
}

}  // namespace
}  // namespace nsxalb::controller
