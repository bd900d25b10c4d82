// How Controller responses become absl::Status values.
//
// The code says what the caller should do:
//   400 InvalidArgument (fix the input)        401/419 Unauthenticated (credentials)
//   403 PermissionDenied (rights)              404 NotFound
//   409 AlreadyExists                          412 Aborted (re-read and retry)
//   429, 502, 503, 504, connection errors: Unavailable once retries are exhausted
//   500 and other 5xx Internal (the Controller failed; retrying the same request rarely helps)
//   other 4xx FailedPrecondition.
// Every such status carries the HTTP status as a payload (see HttpStatusOf) and its message
// carries the Controller's {"error": "..."} text.
#ifndef NSXALB_PLUGIN_CONTROLLER_ERRORS_H_
#define NSXALB_PLUGIN_CONTROLLER_ERRORS_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace nsxalb::controller {

// Payload type URL under which the HTTP status is attached to a status.
inline constexpr char kHttpStatusPayload[] = "nsxalb.controller/http-status";

// The status code for an HTTP error status (see the table above).
absl::StatusCode CodeForHttpStatus(int http_status);

// The Controller's error text from a response body: the "error" member of a JSON object
// ({"error": "..."}, also "detail" or "msg"), else the body itself as text. Whitespace is
// collapsed, invalid UTF-8 is replaced by U+FFFD, and the result is cut at a character boundary
// after 500 bytes (then "..." follows, at most 507 bytes in all); empty when the body is empty.
std::string ControllerErrorText(absl::string_view body);

// A status for a failed HTTP exchange: code from CodeForHttpStatus, message
// "controller: <what>: HTTP <status>: <error text>", and the HTTP status as payload.
absl::Status HttpError(int http_status, absl::string_view what, absl::string_view body);

// The HTTP status carried by `status`, if it came from a Controller response.
std::optional<int> HttpStatusOf(const absl::Status& status);

// A copy of `status` with a new message (code and payloads kept).
absl::Status WithMessage(const absl::Status& status, absl::string_view message);

}  // namespace nsxalb::controller

#endif  // NSXALB_PLUGIN_CONTROLLER_ERRORS_H_
