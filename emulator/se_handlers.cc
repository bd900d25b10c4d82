// The Service Engine API of the emulated Controller over the SE lifecycle (se_lifecycle.h):
// listing and reading SEs with their runtime joined, PUT/PATCH of enable_state, DELETE, reboot,
// the runtime subresource, the SE inventory and read-only virtual services; and the lifecycle's
// control routes (virtual services, clouds, timing, timeline).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "emulator/server.h"
#include "httplib.h"
#include "plugin/common/log.h"

namespace nsxalb::emulator {
namespace {

using nlohmann::json;

// Virtual services one POST /_emulator/virtualservices may add.
constexpr int64_t kMaxVirtualServicesPerLoad = 1000;

// True when the request asks for the runtime joined (join_subresources=runtime, or a comma list
// holding it).
bool JoinsRuntime(const httplib::Request& req) {
  if (!req.has_param("join_subresources")) return false;
  for (absl::string_view part : absl::StrSplit(req.get_param_value("join_subresources"), ',')) {
    if (part == "runtime") return true;
  }
  return false;
}

}  // namespace

void Server::AdvanceServiceEngines() {
  if (lifecycle_.Advance()) Persist();
}

json Server::WithRuntime(const httplib::Request& req, json rendered, const json& stored) {
  if (!JoinsRuntime(req)) return rendered;
  absl::StatusOr<json> runtime = lifecycle_.Runtime(stored.value("uuid", ""));
  if (runtime.ok()) rendered["runtime"] = *runtime;
  return rendered;
}

json Server::InventoryEntry(const httplib::Request& req, json rendered, const json& stored) {
  const std::string uuid = stored.value("uuid", "");
  const std::string base = absl::StrCat(rendered.value("url", ""));
  const std::string host = base.substr(0, base.find("/api/"));
  json config = json::object();
  for (const char* key :
       {"uuid", "name", "url", "se_group_ref", "cloud_ref", "tenant_ref", "enable_state"}) {
    if (rendered.contains(key)) config[key] = rendered[key];
  }
  // With include_name the refs carry "#<name>", as every other ref does.
  const std::string include_name =
      req.has_param("include_name") ? req.get_param_value("include_name") : "false";
  const bool named = include_name != "false" && include_name != "0" && include_name != "False";
  json vs_refs = json::array();
  for (const auto& [vs, name] : lifecycle_.PlacedOnNamed(uuid)) {
    vs_refs.push_back(
        absl::StrCat(host, "/api/virtualservice/", vs, named ? "#" : "", named ? name : ""));
  }
  config["vs_refs"] = vs_refs;
  json out = {{"uuid", uuid}, {"url", rendered.value("url", "")}, {"config", config}};
  absl::StatusOr<json> runtime = lifecycle_.Runtime(uuid);
  if (runtime.ok()) out["runtime"] = *runtime;
  return out;
}

void Server::ServiceEngineRoutes() {
  using Req = const httplib::Request&;
  using Res = httplib::Response&;
  auto api = [this](const std::function<void(Req, Res)>& handler) {
    return [this, handler](Req q, Res r) { ServeApi(q, r, handler); };
  };
  auto join = [this](Req q) {
    return [this, &q](json rendered, const json& stored) {
      return WithRuntime(q, std::move(rendered), stored);
    };
  };
  http_->Get("/api/serviceengine/?", api([this, join](Req q, Res r) {
               AdvanceServiceEngines();
               HandleList(kServiceEngine, q, r, join(q));
             }));
  http_->Get("/api/serviceengine/([^/]+)/?", api([this, join](Req q, Res r) {
               AdvanceServiceEngines();
               HandleGetOne(kServiceEngine, q, r, join(q));
             }));
  http_->Get("/api/serviceengine/([^/]+)/runtime/?", api([this](Req q, Res r) {
               ApiContext ctx;
               if (!Authorize(q, r, &ctx)) return;
               AdvanceServiceEngines();
               const std::string uuid = q.matches[1].str();
               absl::StatusOr<json> se = store_.Get(kServiceEngine, uuid, ctx.tenant_uuid);
               absl::StatusOr<json> runtime =
                   se.ok() ? lifecycle_.Runtime(uuid) : absl::StatusOr<json>(se.status());
               if (!runtime.ok()) {
                 return WriteError(r, HttpStatusFor(runtime.status()),
                                   std::string(runtime.status().message()));
               }
               r.set_content(runtime->dump(), "application/json");
             }));
  auto update = [this](bool patch) {
    return [this, patch](Req q, Res r) {
      ApiContext ctx;
      if (!Authorize(q, r, &ctx)) return;
      json body;
      if (!ParseBody(q, r, &body)) return;
      const std::string uuid = q.matches[1].str();
      if (patch) {
        absl::StatusOr<json> existing = store_.Get(kServiceEngine, uuid, ctx.tenant_uuid);
        if (!existing.ok()) {
          return WriteError(r, HttpStatusFor(existing.status()),
                            std::string(existing.status().message()));
        }
        json merged = *existing;
        for (auto it = body.begin(); it != body.end(); ++it) {
          const std::string& op = it.key();
          if ((op != "add" && op != "replace" && op != "delete") || !it.value().is_object()) {
            return WriteError(r, 400,
                              absl::StrCat("Unsupported PATCH operation \"", op,
                                           "\" (expected add, replace or delete with an object)."));
          }
          for (auto f = it.value().begin(); f != it.value().end(); ++f) {
            if (op == "delete") {
              merged.erase(f.key());
            } else {
              merged[f.key()] = f.value();
            }
          }
        }
        // A PATCH carries no _last_modified unless an operation's object does.
        merged.erase("_last_modified");
        for (auto it = body.begin(); it != body.end(); ++it) {
          if (it.value().contains("_last_modified")) {
            merged["_last_modified"] = it.value()["_last_modified"];
          }
        }
        body = std::move(merged);
      }
      // A change of enable_state (a PUT without it sets SE_STATE_ENABLED) is a placement change.
      absl::StatusOr<json> current = store_.Get(kServiceEngine, uuid, ctx.tenant_uuid);
      const json& wanted = body.contains("enable_state") ? body["enable_state"] : json();
      const std::string next =
          wanted.is_string() ? wanted.get<std::string>() : std::string("SE_STATE_ENABLED");
      if (current.ok() && current->value("enable_state", "SE_STATE_ENABLED") != next &&
          RefusedDuringUpgrade(uuid, r)) {
        return;
      }
      absl::StatusOr<json> updated = lifecycle_.UpdateServiceEngine(uuid, ctx.tenant_uuid, body);
      if (!updated.ok()) {
        return WriteError(r, HttpStatusFor(updated.status()),
                          std::string(updated.status().message()));
      }
      Persist();
      RenderOptions ro;
      ro.base_url = ctx.base_url;
      ro.include_name = q.has_param("include_name") && q.get_param_value("include_name") != "false";
      ro.version = ctx.version;
      r.set_content(store_.Render(kServiceEngine, *updated, ro).dump(), "application/json");
    };
  };
  http_->Put("/api/serviceengine/([^/]+)/?", api(update(false)));
  http_->Patch("/api/serviceengine/([^/]+)/?", api(update(true)));
  http_->Delete("/api/serviceengine/([^/]+)/?", api([this](Req q, Res r) {
                  ApiContext ctx;
                  if (!Authorize(q, r, &ctx)) return;
                  if (store_.Get(kServiceEngine, q.matches[1].str(), ctx.tenant_uuid).ok() &&
                      RefusedDuringUpgrade(q.matches[1].str(), r)) {
                    return;
                  }
                  absl::Status s =
                      lifecycle_.DeleteServiceEngine(q.matches[1].str(), ctx.tenant_uuid);
                  if (absl::IsFailedPrecondition(s))
                    return WriteError(r, 409, std::string(s.message()));
                  if (!s.ok()) return WriteError(r, HttpStatusFor(s), std::string(s.message()));
                  Persist();
                  r.status = 204;
                }));
  http_->Post("/api/serviceengine/([^/]+)/reboot/?", api([this](Req q, Res r) {
                ApiContext ctx;
                if (!Authorize(q, r, &ctx)) return;
                if (store_.Get(kServiceEngine, q.matches[1].str(), ctx.tenant_uuid).ok() &&
                    RefusedDuringUpgrade(q.matches[1].str(), r)) {
                  return;
                }
                absl::Status s =
                    lifecycle_.RebootServiceEngine(q.matches[1].str(), ctx.tenant_uuid);
                if (absl::IsFailedPrecondition(s))
                  return WriteError(r, 409, std::string(s.message()));
                if (!s.ok()) return WriteError(r, HttpStatusFor(s), std::string(s.message()));
                r.set_content("{}", "application/json");
              }));
  // The inventory: {uuid, url, config: {...the SE's summary, vs_refs}, runtime: {...}}.
  auto inventory = [this](Req q) {
    return [this, &q](json rendered, const json& stored) {
      return InventoryEntry(q, std::move(rendered), stored);
    };
  };
  http_->Get("/api/serviceengine-inventory/?", api([this, inventory](Req q, Res r) {
               AdvanceServiceEngines();
               HandleList(kServiceEngine, q, r, inventory(q));
             }));
  http_->Get("/api/serviceengine-inventory/([^/]+)/?", api([this, inventory](Req q, Res r) {
               AdvanceServiceEngines();
               HandleGetOne(kServiceEngine, q, r, inventory(q));
             }));
  // Read-only virtual services: {uuid, name, url, se_group_ref, tenant_ref}.
  auto vs_object = [](const ApiContext& ctx, const json& vs) {
    return json{
        {"uuid", vs["uuid"]},
        {"name", vs["name"]},
        {"url", absl::StrCat(ctx.base_url, "/api/virtualservice/", vs["uuid"].get<std::string>())},
        {"se_group_ref", absl::StrCat(ctx.base_url, "/api/serviceenginegroup/",
                                      vs["se_group_uuid"].get<std::string>())},
        {"tenant_ref",
         absl::StrCat(ctx.base_url, "/api/tenant/", vs["tenant_uuid"].get<std::string>())}};
  };
  http_->Get("/api/virtualservice/?", api([this, vs_object](Req q, Res r) {
               ApiContext ctx;
               if (!Authorize(q, r, &ctx)) return;
               json results = json::array();
               for (const json& vs : lifecycle_.VirtualServices()) {
                 if (ctx.tenant_uuid != "*" && vs["tenant_uuid"] != ctx.tenant_uuid) continue;
                 results.push_back(vs_object(ctx, vs));
               }
               r.set_content(json{{"count", results.size()}, {"results", results}}.dump(),
                             "application/json");
             }));
  http_->Get(
      "/api/virtualservice/([^/]+)/?", api([this, vs_object](Req q, Res r) {
        ApiContext ctx;
        if (!Authorize(q, r, &ctx)) return;
        absl::StatusOr<json> vs = lifecycle_.VirtualService(q.matches[1].str());
        if (vs.ok() && ctx.tenant_uuid != "*" && (*vs)["tenant_uuid"] != ctx.tenant_uuid) {
          vs = absl::NotFoundError(
              absl::StrCat("Object ", q.matches[1].str(), " of type virtualservice not found"));
        }
        if (!vs.ok()) {
          return WriteError(r, HttpStatusFor(vs.status()), std::string(vs.status().message()));
        }
        r.set_content(vs_object(ctx, *vs).dump(), "application/json");
      }));
}

void Server::LifecycleControlRoutes() {
  using Req = const httplib::Request&;
  using Res = httplib::Response&;
  auto reply = [](Res r, const json& body) { r.set_content(body.dump(), "application/json"); };

  // {"se_group": "<name or uuid>", "count": N, "tenant"?: "<name or uuid>"} -> {"uuids"}.
  http_->Post("/_emulator/virtualservices", [this, reply](Req q, Res r) {
    json body;
    if (!ParseBody(q, r, &body)) return;
    if (!body["se_group"].is_string() || body["se_group"].get<std::string>().empty()) {
      return WriteError(r, 400, "se_group: required, the name or uuid of an SE group");
    }
    const json& count = body["count"];
    if (!count.is_number_integer() || count.get<int64_t>() < 1 ||
        count.get<int64_t>() > kMaxVirtualServicesPerLoad) {
      return WriteError(r, 400,
                        absl::StrCat("count: must be an integer from 1 to ",
                                     kMaxVirtualServicesPerLoad, ", not ", count.dump()));
    }
    std::string tenant;
    if (body.contains("tenant") && !body["tenant"].is_null()) {
      if (!body["tenant"].is_string()) return WriteError(r, 400, "tenant: must be a string");
      absl::StatusOr<std::string> t = store_.TenantUuid(body["tenant"].get<std::string>());
      if (!t.ok()) return WriteError(r, 400, absl::StrCat("tenant: ", t.status().message()));
      tenant = *t;
    }
    absl::StatusOr<std::vector<std::string>> uuids = lifecycle_.AddVirtualServices(
        body["se_group"].get<std::string>(), count.get<int>(), tenant);
    if (!uuids.ok()) {
      return WriteError(r, HttpStatusFor(uuids.status()), std::string(uuids.status().message()));
    }
    Persist();
    reply(r, json{{"uuids", *uuids}});
  });
  http_->Get("/_emulator/virtualservices", [this, reply](Req, Res r) {
    reply(r, json{{"results", lifecycle_.VirtualServices()}});
  });
  http_->Delete("/_emulator/virtualservices/([^/]+)", [this, reply](Req q, Res r) {
    absl::Status s = lifecycle_.RemoveVirtualService(q.matches[1].str());
    if (!s.ok()) return WriteError(r, HttpStatusFor(s), std::string(s.message()));
    reply(r, json::object());
  });
  // {"name", "vtype"?: "CLOUD_NONE", "privilege"?: "WRITE_ACCESS"|"READ_ACCESS"|"NO_ACCESS"}.
  http_->Post("/_emulator/clouds", [this, reply](Req q, Res r) {
    json body;
    if (!ParseBody(q, r, &body)) return;
    if (!body["name"].is_string() || body["name"].get<std::string>().empty()) {
      return WriteError(r, 400, "name: required, the new cloud's name");
    }
    const std::string vtype = body.value("vtype", "CLOUD_NONE");
    if (vtype != "CLOUD_NONE" && vtype != "CLOUD_VCENTER" && vtype != "CLOUD_NSXT") {
      return WriteError(
          r, 400,
          absl::StrCat("vtype: must be CLOUD_NONE, CLOUD_VCENTER or CLOUD_NSXT, not \"", vtype,
                       "\""));
    }
    std::string privilege = body.value("privilege", vtype == "CLOUD_VCENTER" ? "WRITE_ACCESS" : "");
    if (!privilege.empty() &&
        (vtype != "CLOUD_VCENTER" ||
         (privilege != "WRITE_ACCESS" && privilege != "READ_ACCESS" && privilege != "NO_ACCESS"))) {
      return WriteError(r, 400,
                        "privilege: only for CLOUD_VCENTER, one of WRITE_ACCESS, READ_ACCESS, "
                        "NO_ACCESS");
    }
    absl::StatusOr<json> cloud = store_.CreateCloud(body["name"], vtype, privilege);
    if (!cloud.ok()) {
      return WriteError(r, HttpStatusFor(cloud.status()), std::string(cloud.status().message()));
    }
    Persist();
    reply(r, *cloud);
  });
  http_->Get("/_emulator/timing", [this, reply](Req, Res r) {
    const SeTiming t = lifecycle_.timing();
    reply(
        r,
        json{{"boot_ms", t.boot_ms}, {"migration_ms", t.migration_ms}, {"minute_ms", t.minute_ms}});
  });
  http_->Post("/_emulator/timing", [this, reply](Req q, Res r) {
    json body;
    if (!ParseBody(q, r, &body)) return;
    absl::Status s = lifecycle_.UpdateTiming(body);
    if (!s.ok()) return WriteError(r, 400, std::string(s.message()));
    const SeTiming t = lifecycle_.timing();
    reply(
        r,
        json{{"boot_ms", t.boot_ms}, {"migration_ms", t.migration_ms}, {"minute_ms", t.minute_ms}});
  });
  http_->Get("/_emulator/timeline", [this, reply](Req, Res r) {
    json out = lifecycle_.Timeline();
    reply(r, out);
  });
  http_->Post("/_emulator/timeline/reset", [this, reply](Req, Res r) {
    lifecycle_.ResetTimeline();
    reply(r, lifecycle_.Timeline());
  });
}

}  // namespace nsxalb::emulator
