// Handlers of the emulated Controller's REST API: login/logout, public info endpoints, and the
// tenant, cloud, serviceenginegroup and (read-only) serviceengine collections.
#include <openssl/crypto.h>
#include <openssl/ssl.h>
#include <sys/socket.h>

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "emulator/field_rules.h"
#include "emulator/server.h"
#include "httplib.h"
#include "plugin/common/log.h"
#include "plugin/controller/refs.h"

namespace nsxalb::emulator {
namespace {

using nlohmann::json;

// The largest page a collection GET answers. The swagger says page_size "can range from 1 to
// 200"; the vendor's own alert script (se_grp_cleanup_old_spec_se) lists
// serviceengine?page_size=1000 and reads the results, so a larger page_size is not refused: the
// emulator answers pages of 200 (with `next`). How a real Controller treats it is unconfirmed
// (docs/emulator.md).
constexpr int kMaxPageSize = 200;

bool FlagParam(const httplib::Request& req, const char* name) {
  if (!req.has_param(name)) return false;
  const std::string v = req.get_param_value(name);
  return v != "false" && v != "0" && v != "False";
}

bool SecretEquals(const std::string& a, const std::string& b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string SessionCookie(const std::string& name, const std::string& value, int max_age,
                          bool http_only) {
  return absl::StrCat(name, "=", value, ";", http_only ? " HttpOnly;" : "", " Max-Age=", max_age,
                      "; Path=/; SameSite=Lax; Secure");
}

}  // namespace

bool ParseBody(const httplib::Request& req, httplib::Response& res, json* out) {
  *out = json::parse(req.body, nullptr, /*allow_exceptions=*/false);
  if (out->is_discarded()) {
    WriteError(res, 400, "Request body is not valid JSON.");
    return false;
  }
  if (!out->is_object()) {
    WriteError(res, 400, "Request body must be a JSON object.");
    return false;
  }
  return true;
}

json Server::VersionJson() const {
  const std::string v = config_.controller_version.ToString();
  return {{"Version", v},
          {"build", 9001},
          {"Tag", absl::StrCat(v, "-9001-20230101.000000")},
          {"Date", "2023-01-01T00:00:00+00:00"},
          {"min_version", "15.2"},
          {"ProductName", "NSX Advanced Load Balancer (emulator)"}};
}

void Server::HandleLogin(const httplib::Request& req, httplib::Response& res) {
  std::string username;
  std::string password;
  std::string token;
  json body = json::parse(req.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_object()) {
    if (body["username"].is_string()) username = body["username"].get<std::string>();
    if (body["password"].is_string()) password = body["password"].get<std::string>();
    if (body["token"].is_string()) token = body["token"].get<std::string>();
  } else {
    username = req.get_param_value("username");
    password = req.get_param_value("password");
    token = req.get_param_value("token");
  }
  if (!CheckCredentials(username, password, token)) {
    log::Info("emulator: login failed (invalid credentials)");
    WriteError(res, 401, "Invalid credentials");
    return;
  }
  Session s = sessions_.Create(username);
  const std::string base = BaseUrl(req);
  res.set_header("Set-Cookie", absl::StrCat("csrftoken=", s.csrf_token,
                                            "; Max-Age=31449600; Path=/; SameSite=Lax; Secure"));
  res.set_header("Set-Cookie", SessionCookie("avi-sessionid", s.id, 86400, true));
  res.set_header("Set-Cookie", SessionCookie("sessionid", s.id, 86400, true));
  res.set_header("AVI_API_VERSION", config_.controller_version.ToString());
  const int idle_minutes = (config_.session_idle_timeout_seconds + 59) / 60;
  json tenant = {{"name", "admin"},
                 {"uuid", "admin"},
                 {"url", absl::StrCat(base, "/api/tenant/admin")},
                 {"local", true}};
  json out = {{"version", VersionJson()},
              {"user",
               {{"username", username},
                {"name", username},
                {"full_name", "System Administrator"},
                {"uuid", absl::StrCat("user-", username)},
                {"is_superuser", IsSuperuser(username)},
                {"local", true},
                {"default_tenant_ref", absl::StrCat(base, "/api/tenant/admin#admin")}}},
              {"tenants", json::array({tenant})},
              {"system_config",
               {{"uuid", "default"},
                {"url", absl::StrCat(base, "/api/systemconfiguration/default")},
                {"default_license_tier", "ENTERPRISE"}}},
              {"controller", {{"api_idle_timeout", idle_minutes}}},
              {"session_cookie_name", "avi-sessionid"}};
  res.status = 200;
  res.set_content(out.dump(), "application/json");
}

bool Server::CheckCredentials(const std::string& username, const std::string& password,
                              const std::string& token) {
  if (SecretEquals(username, config_.username)) {
    return (!password.empty() && SecretEquals(password, config_.password)) ||
           (!token.empty() && sessions_.CheckToken(username, token));
  }
  absl::MutexLock lock(&users_mu_);
  auto user = extra_users_.find(username);
  return user != extra_users_.end() && !password.empty() &&
         SecretEquals(password, user->second.password);
}

bool Server::IsSuperuser(const std::string& username) {
  if (username == config_.username) return true;
  absl::MutexLock lock(&users_mu_);
  auto user = extra_users_.find(username);
  return user != extra_users_.end() && user->second.superuser;
}

void Server::HandleLogout(const httplib::Request& req, httplib::Response& res) {
  ApiContext ctx;
  if (!Authorize(req, res, &ctx, /*require_version=*/false)) return;
  std::string sid;
  for (const char* name : {"avi-sessionid", "sessionid"}) {
    for (absl::string_view part : absl::StrSplit(req.get_header_value("Cookie"), ';')) {
      part = absl::StripAsciiWhitespace(part);
      if (absl::ConsumePrefix(&part, absl::StrCat(name, "=")) && sid.empty()) {
        sid = std::string(part);
      }
    }
  }
  sessions_.Remove(sid);
  res.set_header("Set-Cookie", SessionCookie("avi-sessionid", "", 0, true));
  res.set_header("Set-Cookie", SessionCookie("sessionid", "", 0, true));
  res.status = 200;
  res.set_content("{}", "application/json");
}

void Server::HandleInitialData(const httplib::Request&, httplib::Response& res) {
  json out = {{"version", VersionJson()},
              {"user_initial_setup", false},
              {"banner", ""},
              {"sso", false},
              {"remote_auth_configured", false}};
  res.set_content(out.dump(), "application/json");
}

void Server::HandleClusterStatus(const httplib::Request&, httplib::Response& res) {
  const std::string up = absl::FormatTime(absl::RFC3339_sec, absl::Now(), absl::UTCTimeZone());
  json out = {
      {"cluster_state", {{"state", "CLUSTER_UP_NO_HA"}, {"progress", 100}, {"up_since", up}}},
      {"node_states", json::array({{{"name", config_.bind},
                                    {"mgmt_ip", config_.bind},
                                    {"role", "CLUSTER_LEADER"},
                                    {"state", "CLUSTER_ACTIVE"},
                                    {"up_since", up}}})}};
  res.set_content(out.dump(), "application/json");
}

void Server::HandleUserToken(const httplib::Request& req, httplib::Response& res) {
  ApiContext ctx;
  if (!Authorize(req, res, &ctx)) return;
  res.set_content(json{{"token", sessions_.IssueToken(ctx.username)}}.dump(), "application/json");
}

void Server::WritePage(const httplib::Request& req, httplib::Response& res, const ApiContext& ctx,
                       size_t total, const std::function<json(size_t)>& item) {
  int page_size = config_.default_page_size;
  int page = 1;
  if (req.has_param("page_size") &&
      (!absl::SimpleAtoi(req.get_param_value("page_size"), &page_size) || page_size < 1)) {
    WriteError(res, 400, absl::StrCat("page_size can range from 1 to ", kMaxPageSize, "."));
    return;
  }
  page_size = std::min(page_size, kMaxPageSize);
  if (req.has_param("page") &&
      (!absl::SimpleAtoi(req.get_param_value("page"), &page) || page < 1)) {
    WriteError(res, 400, "page must be a positive integer.");
    return;
  }
  const size_t start = static_cast<size_t>(page - 1) * static_cast<size_t>(page_size);
  if (start >= total && page > 1) {
    WriteError(res, 404, "Invalid page.");
    return;
  }
  json results = json::array();
  for (size_t i = start; i < total && i < start + static_cast<size_t>(page_size); ++i) {
    results.push_back(item(i));
  }
  json out = {{"count", total}, {"results", results}};
  if (start + static_cast<size_t>(page_size) < total) {
    std::string query;
    for (const auto& [k, v] : req.params) {
      if (k == "page") continue;
      absl::StrAppend(&query, query.empty() ? "" : "&", controller::UrlEncode(k), "=",
                      controller::UrlEncode(v));
    }
    absl::StrAppend(&query, query.empty() ? "" : "&", "page=", page + 1);
    out["next"] = absl::StrCat(ctx.base_url, req.path, "?", query);
  }
  res.set_content(out.dump(), "application/json");
}

void Server::HandleList(const std::string& type, const httplib::Request& req,
                        httplib::Response& res,
                        const std::function<json(json, const json&)>& decorate) {
  ApiContext ctx;
  if (!Authorize(req, res, &ctx)) return;
  ListFilter filter;
  filter.tenant_uuid = ctx.tenant_uuid;
  if (req.has_param("name")) filter.name = req.get_param_value("name");
  if (req.has_param("name.contains")) filter.name_contains = req.get_param_value("name.contains");
  if (req.has_param("cloud_ref.uuid")) filter.cloud_uuid = req.get_param_value("cloud_ref.uuid");
  if (req.has_param("cloud_uuid")) filter.cloud_uuid = req.get_param_value("cloud_uuid");
  if (req.has_param("refers_to")) {
    // refers_to=<type>:<uuid>, e.g. serviceenginegroup:serviceenginegroup-0f8f...
    const std::string refers_to = req.get_param_value("refers_to");
    const size_t colon = refers_to.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == refers_to.size()) {
      WriteError(res, 400, "refers_to must be <object type>:<uuid>.");
      return;
    }
    filter.refers_to = std::make_pair(refers_to.substr(0, colon), refers_to.substr(colon + 1));
  }
  if (req.has_param("cloud_ref.name")) {
    ListFilter by_name;
    by_name.name = req.get_param_value("cloud_ref.name");
    std::vector<json> clouds = store_.List(kCloud, by_name);
    filter.cloud_uuid = clouds.empty() ? std::string("-") : clouds[0].value("uuid", "");
  }
  std::vector<json> all = store_.List(type, filter);
  RenderOptions ro;
  ro.base_url = ctx.base_url;
  ro.include_name = FlagParam(req, "include_name");
  ro.skip_default = FlagParam(req, "skip_default");
  ro.version = ctx.version;
  if (req.has_param("fields")) ro.fields = absl::StrSplit(req.get_param_value("fields"), ',');
  WritePage(req, res, ctx, all.size(), [&](size_t i) {
    json rendered = store_.Render(type, all[i], ro);
    return decorate ? decorate(std::move(rendered), all[i]) : std::move(rendered);
  });
}

void Server::HandleGetOne(const std::string& type, const httplib::Request& req,
                          httplib::Response& res,
                          const std::function<json(json, const json&)>& decorate) {
  ApiContext ctx;
  if (!Authorize(req, res, &ctx)) return;
  absl::StatusOr<json> obj = store_.Get(type, req.matches[1].str(), ctx.tenant_uuid);
  if (!obj.ok()) {
    WriteError(res, HttpStatusFor(obj.status()), std::string(obj.status().message()));
    return;
  }
  RenderOptions ro;
  ro.base_url = ctx.base_url;
  ro.include_name = FlagParam(req, "include_name");
  ro.skip_default = FlagParam(req, "skip_default");
  ro.version = ctx.version;
  if (req.has_param("fields")) ro.fields = absl::StrSplit(req.get_param_value("fields"), ',');
  json rendered = store_.Render(type, *obj, ro);
  if (decorate) rendered = decorate(std::move(rendered), *obj);
  res.set_content(rendered.dump(), "application/json");
  if (type != kSeGroup) return;
  // The other_writer fault: someone else changes the group as soon as this reader has it.
  if (std::optional<std::pair<std::string, int>> other = faults_.TakeOtherWriter()) {
    const std::string uuid = req.matches[1].str();
    if (store_.TouchSeGroup(uuid, other->first, other->second).ok()) {
      Persist();
      log::Info(absl::StrCat("emulator: another writer set ", other->first, " = ", other->second,
                             " on serviceenginegroup ", uuid, " (fault injection)"));
    }
  }
}

void Server::HandleCreateSeGroup(const httplib::Request& req, httplib::Response& res) {
  ApiContext ctx;
  if (!Authorize(req, res, &ctx)) return;
  json body;
  if (!ParseBody(req, res, &body)) return;
  for (const absl::Status& s : {CheckFieldVersions(body, ctx.version),
                                CheckFieldValues(body, config_.controller_version)}) {
    if (!s.ok()) return WriteError(res, 400, std::string(s.message()));
  }
  absl::StatusOr<json> created = store_.CreateSeGroup(body, ctx.tenant_uuid);
  if (!created.ok()) {
    WriteError(res, HttpStatusFor(created.status()), std::string(created.status().message()));
    return;
  }
  Persist();
  const std::string uuid = (*created)["uuid"].get<std::string>();
  const std::string name = (*created)["name"].get<std::string>();
  log::Info(absl::StrCat("emulator: created serviceenginegroup ", uuid));
  if (faults_.TakeDropAfterCreate()) {
    log::Info("emulator: dropping the connection after the create (fault injection)");
    if (req.ssl != nullptr) shutdown(SSL_get_fd(req.ssl), SHUT_RDWR);
    res.status = 500;
    return;
  }
  RenderOptions ro;
  ro.base_url = ctx.base_url;
  ro.include_name = true;
  ro.version = ctx.version;
  res.status = 201;
  res.set_header("Location",
                 absl::StrCat(ctx.base_url, "/api/serviceenginegroup/", uuid, "#", name));
  res.set_content(store_.Render(kSeGroup, *created, ro).dump(), "application/json");
}

void Server::HandleUpdateSeGroup(bool patch, const httplib::Request& req, httplib::Response& res) {
  ApiContext ctx;
  if (!Authorize(req, res, &ctx)) return;
  const std::string uuid = req.matches[1].str();
  json body;
  if (!ParseBody(req, res, &body)) return;
  // The _last_modified the writer read (PUT: in the body; PATCH: in any operation's object).
  std::optional<json> last_modified;
  if (!patch && body.is_object() && body.contains("_last_modified")) {
    last_modified = body["_last_modified"];
  }
  if (patch && body.is_object()) {
    for (auto it = body.begin(); it != body.end(); ++it) {
      if (it.value().is_object() && it.value().contains("_last_modified")) {
        last_modified = it.value()["_last_modified"];
      }
    }
  }
  if (patch) {
    absl::StatusOr<json> existing = store_.Get(kSeGroup, uuid, ctx.tenant_uuid);
    if (!existing.ok()) {
      WriteError(res, HttpStatusFor(existing.status()), std::string(existing.status().message()));
      return;
    }
    json merged = *existing;
    for (auto it = body.begin(); it != body.end(); ++it) {
      const std::string& op = it.key();
      if ((op != "add" && op != "replace" && op != "delete") || !it.value().is_object()) {
        WriteError(res, 400,
                   absl::StrCat("Unsupported PATCH operation \"", op,
                                "\" (expected add, replace or delete with an object)."));
        return;
      }
      if (op != "delete") {
        for (const absl::Status& s : {CheckFieldVersions(it.value(), ctx.version),
                                      CheckFieldValues(it.value(), config_.controller_version)}) {
          if (!s.ok()) return WriteError(res, 400, std::string(s.message()));
        }
      }
      for (auto f = it.value().begin(); f != it.value().end(); ++f) {
        if (op == "delete") {
          merged.erase(f.key());
        } else {
          merged[f.key()] = f.value();
        }
      }
    }
    body = merged;
  } else {
    for (const absl::Status& s : {CheckFieldVersions(body, ctx.version),
                                  CheckFieldValues(body, config_.controller_version)}) {
      if (!s.ok()) return WriteError(res, 400, std::string(s.message()));
    }
  }
  absl::StatusOr<json> updated = store_.ReplaceSeGroup(
      uuid, body, ctx.tenant_uuid, last_modified.has_value() ? &*last_modified : nullptr);
  if (!updated.ok()) {
    WriteError(res, HttpStatusFor(updated.status()), std::string(updated.status().message()));
    return;
  }
  Persist();
  RenderOptions ro;
  ro.base_url = ctx.base_url;
  ro.include_name = FlagParam(req, "include_name");
  ro.skip_default = FlagParam(req, "skip_default");
  ro.version = ctx.version;
  res.set_content(store_.Render(kSeGroup, *updated, ro).dump(), "application/json");
}

void Server::HandleDeleteSeGroup(const httplib::Request& req, httplib::Response& res) {
  ApiContext ctx;
  if (!Authorize(req, res, &ctx)) return;
  absl::StatusOr<std::vector<std::string>> removed =
      store_.DeleteSeGroup(req.matches[1].str(), ctx.tenant_uuid);
  if (!removed.ok()) {
    WriteError(res, HttpStatusFor(removed.status()), std::string(removed.status().message()));
    return;
  }
  metrics_.ForgetServiceEngines(*removed);
  license_.Release(*removed);
  Persist();
  res.status = 204;
}

void Server::HandleLicenseLedger(const httplib::Request& req, httplib::Response& res) {
  ApiContext ctx;
  if (!Authorize(req, res, &ctx)) return;
  // The swagger's answer to the collection GET: {"count", "results": [LicenseLedgerDetails]}.
  const json details = license_.Details(absl::ToUnixMicros(absl::Now()));
  res.set_content(json{{"count", 1}, {"results", json::array({details})}}.dump(),
                  "application/json");
}

}  // namespace nsxalb::emulator
