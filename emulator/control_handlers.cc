// The /_emulator/ control endpoint: counters, faults, state dump, auth tokens and the secrets
// issued so far, for tests.
// It needs no session, is not counted and is not subject to faults.
#include "absl/strings/str_cat.h"
#include "emulator/server.h"
#include "httplib.h"
#include "plugin/common/log.h"

namespace nsxalb::emulator {

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
  http_->Get("/_emulator/secrets", [this, reply](Req, Res r) {
    IssuedSecrets s = sessions_.Issued();
    reply(r, json{{"session_ids", s.session_ids},
                  {"csrf_tokens", s.csrf_tokens},
                  {"auth_tokens", s.auth_tokens}});
  });
}

}  // namespace nsxalb::emulator
