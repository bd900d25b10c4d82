// The /_emulator/ control endpoint: counters, faults, state dump, auth tokens, the secrets
// issued so far, and the Service Engines and metric series the analytics API serves, for tests.
// It needs no session, is not counted and is not subject to faults.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "emulator/server.h"
#include "httplib.h"
#include "plugin/common/log.h"

namespace nsxalb::emulator {
namespace {

// Service Engines one POST /_emulator/serviceengines may create (a group's max_se is 0-1000).
constexpr int64_t kMaxServiceEnginesPerLoad = 1000;

}  // namespace

void Server::ControlRoutes() {
  using nlohmann::json;
  using Req = const httplib::Request&;
  using Res = httplib::Response&;
  auto reply = [](Res r, const json& body) { r.set_content(body.dump(), "application/json"); };

  http_->Get("/_emulator/counters", [this, reply](Req, Res r) { reply(r, counters_.ToJson()); });
  http_->Post("/_emulator/counters/reset", [this, reply](Req, Res r) {
    counters_.Reset();
    reply(r, counters_.ToJson());
  });
  http_->Get("/_emulator/faults", [this, reply](Req, Res r) { reply(r, faults_.ToJson()); });
  http_->Post("/_emulator/faults", [this, reply](Req q, Res r) {
    json body = json::parse(q.body, nullptr, /*allow_exceptions=*/false);
    if (!body.is_object()) return WriteError(r, 400, "faults body must be a JSON object");
    absl::Status s = faults_.Update(body);
    if (!s.ok()) return WriteError(r, 400, std::string(s.message()));
    if (body.contains("expire_sessions")) {
      if (!body["expire_sessions"].is_boolean()) {
        return WriteError(r, 400, "expire_sessions must be a boolean");
      }
      if (body["expire_sessions"].get<bool>()) {
        sessions_.ExpireAll();
        log::Info("emulator: expired every session (fault injection)");
      }
    }
    reply(r, faults_.ToJson());
  });
  http_->Delete("/_emulator/faults", [this, reply](Req, Res r) {
    faults_.Clear();
    reply(r, faults_.ToJson());
  });
  http_->Get("/_emulator/state", [this, reply](Req, Res r) {
    json out = store_.Dump();
    out["valid_sessions"] = sessions_.ValidCount();
    out["controller_version"] = config_.controller_version.ToString();
    reply(r, out);
  });
  http_->Post("/_emulator/tokens", [this, reply](Req q, Res r) {
    json body = json::parse(q.body.empty() ? "{}" : q.body, nullptr, false);
    std::string user = config_.username;
    if (body.is_object() && body["username"].is_string()) user = body["username"];
    reply(r, json{{"token", sessions_.IssueToken(user)}});
  });
  // Service Engines in a group: {"se_group_uuid": "...", "count": N, "vcpus"?: n} -> {"uuids"}.
  http_->Post("/_emulator/serviceengines", [this, reply](Req q, Res r) {
    json body;
    if (!ParseBody(q, r, &body)) return;
    if (!body["se_group_uuid"].is_string() || body["se_group_uuid"].get<std::string>().empty()) {
      return WriteError(r, 400, "se_group_uuid: required, the uuid of an SE group");
    }
    const json& count = body["count"];
    if (!count.is_number_integer() || count.get<int64_t>() < 1 ||
        count.get<int64_t>() > kMaxServiceEnginesPerLoad) {
      return WriteError(r, 400,
                        absl::StrCat("count: must be an integer from 1 to ",
                                     kMaxServiceEnginesPerLoad, ", not ", count.dump()));
    }
    std::optional<int> vcpus;
    if (body.contains("vcpus") && !body["vcpus"].is_null()) {
      const json& v = body["vcpus"];
      if (!v.is_number_integer() || v.get<int64_t>() < 1 || v.get<int64_t>() > 256) {
        return WriteError(r, 400,
                          absl::StrCat("vcpus: must be an integer from 1 to 256, not ", v.dump()));
      }
      vcpus = v.get<int>();
    }
    std::vector<std::string> uuids;
    absl::Status created = lifecycle_.AddServiceEngines(body["se_group_uuid"].get<std::string>(),
                                                        count.get<int>(), vcpus, &uuids);
    if (!uuids.empty()) Persist();
    if (!created.ok()) {
      // Unknown group (404), or the admission point refused an SE (the ones before it stay).
      json error = {{"error", absl::StrCat("se_group_uuid: ", created.message())}};
      if (!absl::IsNotFound(created)) error = {{"error", std::string(created.message())}};
      error["uuids"] = uuids;
      r.status = HttpStatusFor(created);
      return reply(r, error);
    }
    reply(r, json{{"uuids", uuids}});
  });
  // The licence: GET -> {"licensed": {tier: units}, "default": bool}; POST {"licensed"?: {tier:
  // units} ({} restores the default), "reservations"?: [{"tier", "service_cores", "uuid"?}]}
  // replaces what it names and answers like GET.
  http_->Get("/_emulator/license", [this, reply](Req, Res r) { reply(r, license_.LicenseJson()); });
  http_->Post("/_emulator/license", [this, reply](Req q, Res r) {
    json body;
    if (!ParseBody(q, r, &body)) return;
    std::optional<std::map<std::string, double>> licensed;
    if (body.contains("licensed")) {
      if (!body["licensed"].is_object()) return WriteError(r, 400, "licensed: must be an object");
      licensed.emplace();
      for (auto it = body["licensed"].begin(); it != body["licensed"].end(); ++it) {
        if (!it.value().is_number()) {
          return WriteError(r, 400, absl::StrCat("licensed.", it.key(), ": must be a number"));
        }
        absl::Status s =
            ParseLicenseFlag(absl::StrCat(it.key(), "=", it.value().get<double>()), &*licensed);
        if (!s.ok())
          return WriteError(r, 400, absl::StrCat("licensed.", it.key(), ": ", s.message()));
      }
    }
    std::optional<std::vector<LicenseCharge>> reservations;
    if (body.contains("reservations")) {
      if (!body["reservations"].is_array()) {
        return WriteError(r, 400, "reservations: must be a list");
      }
      reservations.emplace();
      for (size_t i = 0; i < body["reservations"].size(); ++i) {
        json item = body["reservations"][i];
        if (!item.is_object()) item = json::object();
        const std::string at = absl::StrCat("reservations[", i, "]");
        if (!item["tier"].is_string() || !IsLicenseTier(item["tier"].get<std::string>())) {
          return WriteError(r, 400, absl::StrCat(at, ".tier: must be a licence tier"));
        }
        if (!item["service_cores"].is_number() || item["service_cores"].get<double>() < 0) {
          return WriteError(r, 400, absl::StrCat(at, ".service_cores: must be a number >= 0"));
        }
        std::string uuid = item["uuid"].is_string() ? item["uuid"].get<std::string>()
                                                    : absl::StrCat("escrow-cookie-", i + 1);
        reservations->push_back({std::move(uuid), item["tier"].get<std::string>(),
                                 item["service_cores"].get<double>(), ""});
      }
    }
    if (licensed.has_value()) license_.SetLicense(*std::move(licensed));
    if (reservations.has_value()) license_.SetReservations(*std::move(reservations));
    reply(r, license_.LicenseJson());
  });
  // Metric series: {"series": [{entity_uuid, serviceengine_uuid?, metric_id, step, values,
  // stop?}]}; each replaces the series of the same entity, SE, metric and step.
  http_->Post("/_emulator/metrics", [this, reply](Req q, Res r) {
    json body;
    if (!ParseBody(q, r, &body)) return;
    absl::StatusOr<json> loaded = metrics_.Load(
        body, absl::ToUnixSeconds(absl::Now()),
        [this](const std::string& se) { return store_.Get(kServiceEngine, se, "*").ok(); });
    if (!loaded.ok()) {
      return WriteError(r, HttpStatusFor(loaded.status()), std::string(loaded.status().message()));
    }
    reply(r, *loaded);
  });
  // A tenant besides the seed's admin: {"name": "team-b"} -> {"uuid", "name"}.
  http_->Post("/_emulator/tenants", [this, reply](Req q, Res r) {
    json body;
    if (!ParseBody(q, r, &body)) return;
    const std::string name = body["name"].is_string() ? body["name"].get<std::string>() : "";
    absl::StatusOr<std::string> uuid = store_.CreateTenant(name);
    if (!uuid.ok()) {
      return WriteError(r, HttpStatusFor(uuid.status()), std::string(uuid.status().message()));
    }
    Persist();
    reply(r, json{{"uuid", *uuid}, {"name", name}});
  });
  // A user besides the configured one: {"username", "password", "superuser"?: false}. Kept in
  // memory only.
  http_->Post("/_emulator/users", [this, reply](Req q, Res r) {
    json body;
    if (!ParseBody(q, r, &body)) return;
    for (const char* key : {"username", "password"}) {
      if (!body[key].is_string() || body[key].get<std::string>().empty()) {
        return WriteError(r, 400, absl::StrCat(key, ": required, a non-empty string"));
      }
    }
    if (body.contains("superuser") && !body["superuser"].is_boolean()) {
      return WriteError(r, 400, "superuser: must be true or false");
    }
    const std::string username = body["username"].get<std::string>();
    if (username == config_.username) {
      return WriteError(r, 409, absl::StrCat("username: ", username, " is the configured user"));
    }
    {
      absl::MutexLock lock(&users_mu_);
      extra_users_[username] =
          ExtraUser{body["password"].get<std::string>(), body.value("superuser", false)};
    }
    reply(r, json{{"username", username}, {"superuser", body.value("superuser", false)}});
  });
  http_->Get("/_emulator/secrets", [this, reply](Req, Res r) {
    IssuedSecrets s = sessions_.Issued();
    reply(r, json{{"session_ids", s.session_ids},
                  {"csrf_tokens", s.csrf_tokens},
                  {"auth_tokens", s.auth_tokens}});
  });
}

}  // namespace nsxalb::emulator
