// The upgrade status API of the emulated Controller (GET /api/upgradestatusinfo[/<uuid>], over
// upgrade.h), its control route (GET/POST /_emulator/upgrade), and the refusal of placement
// changes while an upgrade is unfinished.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "emulator/server.h"
#include "httplib.h"

namespace nsxalb::emulator {

using nlohmann::json;

bool Server::RefusedDuringUpgrade(const std::string& se_uuid, httplib::Response& res) {
  absl::StatusOr<json> se = store_.Get(kServiceEngine, se_uuid, "*");
  if (!se.ok()) return false;  // the handler answers 404 itself
  const std::string why = upgrades_.Blocking(se->value("se_group_ref", ""));
  if (why.empty()) return false;
  WriteError(
      res, 400,
      absl::StrCat("Cannot change Service Engine ", se->value("name", se_uuid), ": ", why, "."));
  return true;
}

void Server::UpgradeRoutes() {
  using Req = const httplib::Request&;
  using Res = httplib::Response&;
  auto api = [this](const std::function<void(Req, Res)>& handler) {
    return [this, handler](Req q, Res r) { ServeApi(q, r, handler); };
  };
  // Every entry, whatever the request's tenant (they are the system's).
  auto entries = [this](const ApiContext& ctx) {
    ListFilter all;
    all.tenant_uuid = "*";
    return upgrades_.Entries(store_.List(kSeGroup, all), ctx.base_url,
                             config_.controller_version.ToString());
  };
  http_->Get("/api/upgradestatusinfo/?", api([this, entries](Req q, Res r) {
               ApiContext ctx;
               if (!Authorize(q, r, &ctx)) return;
               std::vector<json> all = entries(ctx);
               WritePage(q, r, ctx, all.size(), [&all](size_t i) { return all[i]; });
             }));
  http_->Get("/api/upgradestatusinfo/([^/]+)/?", api([this, entries](Req q, Res r) {
               ApiContext ctx;
               if (!Authorize(q, r, &ctx)) return;
               for (const json& e : entries(ctx)) {
                 if (e.value("uuid", "") == q.matches[1].str()) {
                   return r.set_content(e.dump(), "application/json");
                 }
               }
               WriteError(r, 404,
                          absl::StrCat("Object ", q.matches[1].str(),
                                       " of type upgradestatusinfo not found"));
             }));
  auto reply = [this](Res r) { r.set_content(upgrades_.ToJson().dump(), "application/json"); };
  http_->Get("/_emulator/upgrade", [reply](Req, Res r) { reply(r); });
  http_->Post("/_emulator/upgrade", [this, reply](Req q, Res r) {
    json body;
    if (!ParseBody(q, r, &body)) return;
    absl::Status s =
        upgrades_.Update(body, [this](const std::string& group) -> absl::StatusOr<std::string> {
          ListFilter all;
          all.tenant_uuid = "*";
          std::vector<std::string> matches;
          for (const json& g : store_.List(kSeGroup, all)) {
            if (g.value("uuid", "") == group || g.value("name", "") == group) {
              matches.push_back(g.value("uuid", ""));
            }
          }
          if (matches.empty())
            return absl::NotFoundError(absl::StrCat("no SE group '", group, "'"));
          if (matches.size() > 1) {
            return absl::InvalidArgumentError(
                absl::StrCat("'", group, "' names ", matches.size(), " SE groups; give its uuid"));
          }
          return matches[0];
        });
    if (!s.ok()) return WriteError(r, HttpStatusFor(s), std::string(s.message()));
    reply(r);
  });
}

}  // namespace nsxalb::emulator
