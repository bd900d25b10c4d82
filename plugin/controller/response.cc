// Implementation of response.h.
#include "plugin/controller/response.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/common/limits.h"
#include "plugin/common/status_macros.h"

namespace nsxalb::controller {

using Json = nlohmann::json;

absl::StatusOr<Json> ParseJsonLimited(std::string_view text) {
  // nlohmann's parser is iterative, but much that walks its result (dump, comparison, copies
  // into cty values) recurses, so depth is bounded here, while parsing. The callback's depth is
  // the number of enclosing arrays and objects; a container it refuses is skipped, not built.
  bool too_deep = false;
  Json::parser_callback_t bound = [&too_deep](int depth, Json::parse_event_t event, Json&) {
    if ((event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start) &&
        depth >= limits::kMaxNestingDepth) {
      too_deep = true;
      return false;
    }
    return true;
  };
  Json j = Json::parse(text.begin(), text.end(), bound, /*allow_exceptions=*/false);
  if (too_deep) {
    return absl::InvalidArgumentError(
        absl::StrCat("JSON nested deeper than ", limits::kMaxNestingDepth, " levels"));
  }
  if (j.is_discarded()) return absl::InvalidArgumentError("not JSON");
  return j;
}

absl::StatusOr<Json> ParseBody(const HttpResponse& response, absl::string_view what) {
  absl::StatusOr<Json> j = ParseJsonLimited(response.body);
  if (!j.ok()) {
    return absl::InternalError(absl::StrCat("controller: ", what, ": HTTP ", response.status,
                                            ": the response is ", j.status().message()));
  }
  return j;
}

std::string StringMember(const Json& j, const char* key) {
  if (!j.is_object()) return "";
  auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return "";
  return it->get<std::string>();
}

absl::StatusOr<SeGroup> ToSeGroup(Json j, absl::string_view what) {
  if (!j.is_object()) {
    return absl::InternalError(absl::StrCat("controller: ", what, ": expected an SE group object"));
  }
  SeGroup g;
  g.uuid = StringMember(j, "uuid");
  if (g.uuid.empty()) {
    return absl::InternalError(
        absl::StrCat("controller: ", what, ": the SE group in the response has no uuid"));
  }
  g.name = StringMember(j, "name");
  g.url = StringMember(j, "url");
  g.tenant_ref = StringMember(j, "tenant_ref");
  g.cloud_ref = StringMember(j, "cloud_ref");
  g.body = std::move(j);
  return g;
}

absl::StatusOr<ServiceEngine> ToServiceEngine(Json j, absl::string_view what) {
  if (!j.is_object()) {
    return absl::InternalError(
        absl::StrCat("controller: ", what, ": expected a Service Engine object"));
  }
  ServiceEngine se;
  se.uuid = StringMember(j, "uuid");
  if (se.uuid.empty()) {
    return absl::InternalError(
        absl::StrCat("controller: ", what, ": the Service Engine in the response has no uuid"));
  }
  se.name = StringMember(j, "name");
  se.se_group_ref = StringMember(j, "se_group_ref");
  auto resources = j.find("resources");
  if (resources != j.end() && !resources->is_null()) {
    if (!resources->is_object()) {
      return absl::InternalError(absl::StrCat("controller: ", what, ": Service Engine ", se.uuid,
                                              ": resources is not an object"));
    }
    // A size the Controller gives must be a whole number in range; an absent one stays 0.
    auto size = [&](const char* key, int64_t max, int64_t* out) -> absl::Status {
      auto it = resources->find(key);
      if (it == resources->end() || it->is_null()) return absl::OkStatus();
      if (!it->is_number_integer() || it->get<int64_t>() < 0 || it->get<int64_t>() > max) {
        return absl::InternalError(absl::StrCat("controller: ", what, ": Service Engine ", se.uuid,
                                                ": resources.", key,
                                                " is not a whole number from 0 to ", max));
      }
      *out = it->get<int64_t>();
      return absl::OkStatus();
    };
    int64_t vcpus = 0;
    NSXALB_RETURN_IF_ERROR(size("num_vcpus", 1 << 16, &vcpus));
    se.num_vcpus = static_cast<int>(vcpus);
    NSXALB_RETURN_IF_ERROR(size("memory", int64_t{1} << 40, &se.memory_mb));
    NSXALB_RETURN_IF_ERROR(size("disk", int64_t{1} << 40, &se.disk_gb));
  }
  se.enable_state = StringMember(j, "enable_state");
  // The runtime joined in (join_subresources=runtime); anything absent or of another type is
  // unknown: no oper state, no reboot pending.
  auto runtime = j.find("runtime");
  if (runtime != j.end() && runtime->is_object()) {
    auto oper = runtime->find("oper_status");
    if (oper != runtime->end() && oper->is_object()) se.oper_state = StringMember(*oper, "state");
    auto pending = runtime->find("se_grp_reboot_pending");
    se.reboot_pending = pending != runtime->end() && pending->is_boolean() && pending->get<bool>();
  }
  se.body = std::move(j);
  return se;
}

absl::StatusOr<Json> Results(const Json& page, absl::string_view what) {
  if (!page.is_object()) {
    return absl::InternalError(absl::StrCat("controller: ", what, ": expected a collection"));
  }
  auto it = page.find("results");
  if (it == page.end()) return Json::array();
  if (!it->is_array()) {
    return absl::InternalError(absl::StrCat("controller: ", what, ": results is not a list"));
  }
  return *it;
}

absl::StatusOr<std::string> NextPagePath(const Json& page, absl::string_view listing) {
  std::string next = StringMember(page, "next");
  if (next.empty()) return std::string();
  size_t api = next.find("/api/");
  if (api == std::string::npos) {
    return absl::InternalError(
        absl::StrCat("controller: listing ", listing, ": the next link is not an /api/ URL"));
  }
  return next.substr(api);
}

std::vector<std::pair<std::string, std::string>> ParseSetCookies(const HttpResponse& response) {
  std::vector<std::pair<std::string, std::string>> cookies;
  for (const auto& [name, value] : response.headers) {
    if (name != "set-cookie") continue;
    std::string first(value.substr(0, value.find(';')));
    size_t eq = first.find('=');
    if (eq == std::string::npos) continue;
    std::string k(absl::StripAsciiWhitespace(first.substr(0, eq)));
    std::string v(absl::StripAsciiWhitespace(first.substr(eq + 1)));
    if (k.empty()) continue;
    auto it =
        std::find_if(cookies.begin(), cookies.end(), [&k](const auto& c) { return c.first == k; });
    if (it != cookies.end()) {
      it->second = v;
    } else {
      cookies.emplace_back(k, v);
    }
  }
  return cookies;
}

absl::StatusOr<LoginAnswer> ParseLoginResponse(const HttpResponse& response,
                                               absl::string_view what) {
  std::vector<std::pair<std::string, std::string>> cookies = ParseSetCookies(response);
  if (cookies.empty()) {
    return absl::UnauthenticatedError(
        absl::StrCat("controller: ", what, ": the response set no session cookie"));
  }
  LoginAnswer answer;
  std::vector<std::string> pairs;
  for (const auto& [k, v] : cookies) {
    pairs.push_back(absl::StrCat(k, "=", v));
    if (k == "csrftoken") answer.csrf_token = v;
  }
  answer.cookie_header = absl::StrCat("Cookie: ", absl::StrJoin(pairs, "; "));
  // The body is optional here: a Controller that answers the login with something other than
  // JSON still gives its version in the header.
  absl::StatusOr<Json> body = ParseJsonLimited(response.body);
  if (body.ok() && body->is_object()) {
    auto v = body->find("version");
    if (v != body->end() && v->is_object()) answer.version_text = StringMember(*v, "Version");
  }
  if (answer.version_text.empty()) answer.version_text = response.Header("avi_api_version");
  return answer;
}

}  // namespace nsxalb::controller
