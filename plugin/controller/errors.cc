// Implementation of errors.h.
#include "plugin/controller/errors.h"

#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/response.h"

namespace nsxalb::controller {
namespace {

constexpr size_t kMaxErrorText = 500;

std::string Collapse(absl::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (absl::ascii_isspace(u) || u < 0x20) {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
    if (out.size() >= kMaxErrorText) {
      out += "...";
      break;
    }
  }
  return out;
}

// Invalid UTF-8 in a string member is replaced, never an exception.
std::string Dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

absl::StatusCode CodeForHttpStatus(int http_status) {
  switch (http_status) {
    case 400:
      return absl::StatusCode::kInvalidArgument;
    case 401:
    case 419:
      return absl::StatusCode::kUnauthenticated;
    case 403:
      return absl::StatusCode::kPermissionDenied;
    case 404:
      return absl::StatusCode::kNotFound;
    case 409:
      return absl::StatusCode::kAlreadyExists;
    case 412:
      return absl::StatusCode::kAborted;
    case 429:
    case 502:
    case 503:
    case 504:
      return absl::StatusCode::kUnavailable;
    case 501:
      return absl::StatusCode::kUnimplemented;
    default:
      break;
  }
  if (http_status >= 500) return absl::StatusCode::kInternal;
  if (http_status >= 400) return absl::StatusCode::kFailedPrecondition;
  return absl::StatusCode::kUnknown;
}

std::string ControllerErrorText(absl::string_view body) {
  absl::StatusOr<nlohmann::json> parsed =
      ParseJsonLimited(std::string_view(body.data(), body.size()));
  if (!parsed.ok()) return Collapse(body);
  const nlohmann::json& j = *parsed;
  if (j.is_object()) {
    for (const char* key : {"error", "detail", "msg"}) {
      auto it = j.find(key);
      if (it == j.end()) continue;
      if (it->is_string()) return Collapse(it->get<std::string>());
      return Collapse(Dump(*it));
    }
    return Collapse(Dump(j));
  }
  if (j.is_string()) return Collapse(j.get<std::string>());
  return Collapse(body);
}

absl::Status HttpError(int http_status, absl::string_view what, absl::string_view body) {
  std::string text = ControllerErrorText(body);
  std::string message = absl::StrCat("controller: ", what, ": HTTP ", http_status);
  if (!text.empty()) absl::StrAppend(&message, ": ", text);
  absl::Status status(CodeForHttpStatus(http_status), message);
  status.SetPayload(kHttpStatusPayload, absl::Cord(absl::StrCat(http_status)));
  return status;
}

std::optional<int> HttpStatusOf(const absl::Status& status) {
  auto payload = status.GetPayload(kHttpStatusPayload);
  if (!payload.has_value()) return std::nullopt;
  int code = 0;
  if (!absl::SimpleAtoi(std::string(*payload), &code)) return std::nullopt;
  return code;
}

absl::Status WithMessage(const absl::Status& status, absl::string_view message) {
  absl::Status out(status.code(), message);
  status.ForEachPayload(
      [&out](absl::string_view url, const absl::Cord& payload) { out.SetPayload(url, payload); });
  return out;
}

}  // namespace nsxalb::controller
