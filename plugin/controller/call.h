// Internal to plugin/controller: what the client's parts (session.h, request_loop.h, listing.h,
// client.cc) share: one API call as the retry loop sends it, the logged-in session, and the
// status payloads of a create whose outcome is known only in part. Not for use outside the folder.
#ifndef NSXALB_PLUGIN_CONTROLLER_CALL_H_
#define NSXALB_PLUGIN_CONTROLLER_CALL_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/transport.h"
#include "plugin/controller/version.h"

namespace nsxalb::controller::internal {

// Payload under which a failed create carries the uuid of the group it did create.
inline constexpr char kCreatedUuidPayload[] = "nsxalb.controller/created-uuid";
// Payload marking a failed write whose effect on the Controller is unknown.
inline constexpr char kMayHaveTakenEffectPayload[] = "nsxalb.controller/may-have-taken-effect";

// The API path of the Service Engine collection (listing, reads and operations).
inline constexpr char kServiceEnginePath[] = "/api/serviceengine";

// `status` marked with kMayHaveTakenEffectPayload.
absl::Status MarkMayHaveTakenEffect(absl::Status status);

// Compact JSON text; invalid UTF-8 replaced rather than thrown on.
std::string Dump(const nlohmann::json& j);

// The uuid an object id or ref names: a bare id is taken verbatim, anything with a '/' is parsed
// as a ref of `type`. InvalidArgument naming `field` for an empty, overlong or odd id.
absl::StatusOr<std::string> IdFromRefOrUuid(std::string_view text, const std::string& type,
                                            const std::string& field);

// One logged-in session.
struct Session {
  uint64_t generation = 0;
  std::string cookie_header;  // "Cookie: a=1; b=2"
  std::string csrf_token;
  ApiVersion controller_version;
  ApiVersion api_version;
};

// One API call, as the retry loop needs it.
struct Call {
  std::string method;
  std::string path;    // path and query, starting with "/"
  std::string tenant;  // name or ref for X-Avi-Tenant(-UUID); empty: ClientConfig::tenant
  std::string body;
  bool has_body = false;
  bool idempotent = true;
  bool with_session = true;
  std::string what;  // for messages: "GET /api/serviceenginegroup/<uuid>"
  // Not owned; when set, a 2xx body streams into it (HttpRequest::body_sink) and the response
  // Send returns has an empty body. Each attempt starts the sink over (BodySink::Begin), so a
  // retry after a partly streamed body does not double it. Only for idempotent calls.
  BodySink* body_sink = nullptr;
  // For calls that are not idempotent: after an attempt with an unknown outcome, looks for its
  // effect; a value means "it happened", returned as the call's result.
  std::function<absl::StatusOr<std::optional<nlohmann::json>>()> find_outcome;
};

// A call of `method` to `path` (with its query) in `tenant`, described as "METHOD path".
Call MakeCall(std::string method, std::string path, std::string_view tenant);

}  // namespace nsxalb::controller::internal

#endif  // NSXALB_PLUGIN_CONTROLLER_CALL_H_
