// Reading the Controller's responses: JSON bodies (with a nesting bound), SE group and Service
// Engine objects, collection pages and their `next` links, and the login response's cookies and
// version.
//
// Every function here is pure: no network, no session, no clock. They are what the client
// (client.cc) applies to each response, public so that they are unit tested and fuzzed
// (tests/fuzz/controller_response) without a Controller. Whatever the bytes, they return a value
// or a status and never crash; error messages start with "controller: <what>" and never echo
// the body, which may hold secrets.
#ifndef NSXALB_PLUGIN_CONTROLLER_RESPONSE_H_
#define NSXALB_PLUGIN_CONTROLLER_RESPONSE_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "plugin/controller/transport.h"

namespace nsxalb::controller {

// Parses one JSON document. InvalidArgument when `text` is not JSON ("not JSON") or nests arrays
// and objects deeper than limits::kMaxNestingDepth ("JSON nested deeper than 64 levels"); the
// message never quotes the text. Used for every JSON the provider reads from outside: Controller
// bodies and `extra_fields`.
absl::StatusOr<nlohmann::json> ParseJsonLimited(std::string_view text);

// The body of a successful response as JSON. Internal, naming `what` and the HTTP status, when
// it is not JSON or nests too deeply.
absl::StatusOr<nlohmann::json> ParseBody(const HttpResponse& response, absl::string_view what);

// The string member `key` of object `j`; "" when `j` is not an object, lacks it, or it is not a
// string.
std::string StringMember(const nlohmann::json& j, const char* key);

// An SE group object as SeGroup. Internal when `j` is not an object or has no string uuid.
absl::StatusOr<SeGroup> ToSeGroup(nlohmann::json j, absl::string_view what);

// A Service Engine object as ServiceEngine (sizes from `resources`, 0 when absent). Internal when
// `j` is not an object, has no string uuid, or has a size that is not an integer.
absl::StatusOr<ServiceEngine> ToServiceEngine(nlohmann::json j, absl::string_view what);

// The `results` array of a collection page (an empty array when absent). Internal when the page
// is not an object or `results` is not an array.
absl::StatusOr<nlohmann::json> Results(const nlohmann::json& page, absl::string_view what);

// The path and query ("/api/...") of the page after `page`, from its `next` link; "" on the last
// page. Internal, naming `listing`, when `next` is not a Controller API URL.
absl::StatusOr<std::string> NextPagePath(const nlohmann::json& page, absl::string_view listing);

// Cookies from the Set-Cookie headers, name -> value, in arrival order (a repeated name keeps
// its position and takes the later value).
std::vector<std::pair<std::string, std::string>> ParseSetCookies(const HttpResponse& response);

// What a successful POST /login answer gives the client.
struct LoginAnswer {
  // "Cookie: name=value; ..." to send with every call.
  std::string cookie_header;
  // The csrftoken cookie, sent back as X-CSRFToken; "" when the Controller set none.
  std::string csrf_token;
  // The Controller's version as the login response states it (body version.Version, else the
  // avi_api_version header); "" when it does not say. Not yet parsed (ApiVersion::Parse).
  std::string version_text;
};

// Reads a POST /login response. Unauthenticated, naming `what`, when it sets no cookie.
absl::StatusOr<LoginAnswer> ParseLoginResponse(const HttpResponse& response,
                                               absl::string_view what);

}  // namespace nsxalb::controller

#endif  // NSXALB_PLUGIN_CONTROLLER_RESPONSE_H_
