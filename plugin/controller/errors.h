// How Controller responses and connection failures become absl::Status values.
//
// The code says what the caller should do:
//   400 InvalidArgument (fix the input)        401/419 Unauthenticated (credentials)
//   403 PermissionDenied (rights)              404 NotFound
//   409 AlreadyExists                          412 Aborted (re-read and retry)
//   429, 502, 503, 504, connection errors: Unavailable once retries are exhausted
//   500 and other 5xx Internal (the Controller failed; retrying the same request rarely helps)
//   other 4xx FailedPrecondition.
// Every such status carries the HTTP status as a payload (see HttpStatusOf) and its message
// carries the Controller's {"error": "..."} text. Set-up problems (unreachable, untrusted
// certificate, rejected login) are also marked with a SetupProblem and carry a remedy.
#ifndef NSXALB_PLUGIN_CONTROLLER_ERRORS_H_
#define NSXALB_PLUGIN_CONTROLLER_ERRORS_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "plugin/controller/config.h"

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

// Set-up problems: the first thing a newcomer meets, and nothing a retry fixes. Each needs a
// person to change a setting, so each error says which one and how.
enum class SetupProblem {
  kNone,
  kUnreachable,           // no connection: wrong address or port, DNS, Controller down
  kUntrustedCertificate,  // TLS verification failed (a fresh Controller's self-signed one)
  kLoginRejected,         // the Controller answered the login with 401: wrong credentials
};

// Payload type URL under which a status carries its SetupProblem.
inline constexpr char kSetupProblemPayload[] = "nsxalb.controller/setup-problem";
// Payload type URL under which a status carries what to do about its SetupProblem.
inline constexpr char kRemedyPayload[] = "nsxalb.controller/remedy";

// A copy of `status` marked with `problem` (code, message and other payloads kept).
absl::Status WithSetupProblem(const absl::Status& status, SetupProblem problem);

// The set-up problem `status` is marked with; kNone when unmarked.
SetupProblem SetupProblemOf(const absl::Status& status);

// One line naming the problem, for a diagnostic's summary: "Cannot connect to the Controller",
// "The Controller's certificate is not trusted", "The Controller rejected the login". Empty for
// kNone.
const char* SetupProblemSummary(SetupProblem problem);

// What to do about `problem`, for the Controller at `endpoint` and the user `username`, in the
// provider's argument names with their environment variables (the `controller` command reads the
// same variables). For an untrusted certificate it gives the openssl commands that save the
// Controller's certificate and show its fingerprint. Empty for kNone.
std::string SetupRemedy(SetupProblem problem, const Endpoint& endpoint, absl::string_view username);

// A copy of `status` carrying `remedy` (see RemedyOf).
absl::Status WithRemedy(const absl::Status& status, absl::string_view remedy);

// What to do about `status`, when the client knew (a set-up problem); empty otherwise.
std::string RemedyOf(const absl::Status& status);

}  // namespace nsxalb::controller

#endif  // NSXALB_PLUGIN_CONTROLLER_ERRORS_H_
