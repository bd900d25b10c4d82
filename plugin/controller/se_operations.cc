// Implementation of se_operations.h: one Service Engine's object, enable_state, runtime, delete
// and reboot.
#include "plugin/controller/se_operations.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/common/log.h"
#include "plugin/common/status_macros.h"
#include "plugin/controller/absl_view.h"
#include "plugin/controller/call.h"
#include "plugin/controller/errors.h"
#include "plugin/controller/refs.h"
#include "plugin/controller/response.h"

namespace nsxalb::controller::internal {

using Json = nlohmann::json;

namespace {

// "/api/serviceengine/<id><suffix>" for the SE `uuid` (a uuid or ref).
absl::StatusOr<std::string> SePath(std::string_view uuid, std::string_view suffix = "") {
  NSXALB_ASSIGN_OR_RETURN(auto id, IdFromRefOrUuid(uuid, "serviceengine", "uuid"));
  return absl::StrCat(kServiceEnginePath, "/", UrlEncode(id), AbslView(suffix));
}

// The SE object as read, for a PUT: the whole object.
absl::StatusOr<Json> ReadObject(RequestLoop& loop, absl::Time deadline, std::string_view uuid,
                                std::string_view tenant, std::string* what) {
  NSXALB_ASSIGN_OR_RETURN(auto path, SePath(uuid));
  Call call = MakeCall("GET", std::move(path), tenant);
  *what = call.what;
  NSXALB_ASSIGN_OR_RETURN(auto response, loop.Send(call, deadline));
  NSXALB_ASSIGN_OR_RETURN(auto body, ParseBody(response, call.what));
  if (!body.is_object() || StringMember(body, "uuid").empty()) {
    return absl::InternalError(
        absl::StrCat("controller: ", call.what, ": expected a Service Engine object"));
  }
  return body;
}

// The names (else refs) of the virtual services of `runtime`, joined for a message.
std::string VirtualServiceList(const ServiceEngineRuntime& runtime) {
  return absl::StrJoin(runtime.virtual_services, ", ");
}

}  // namespace

absl::StatusOr<ServiceEngine> GetServiceEngine(RequestLoop& loop, absl::Time deadline,
                                               std::string_view uuid, std::string_view tenant) {
  std::string what;
  NSXALB_ASSIGN_OR_RETURN(auto body, ReadObject(loop, deadline, uuid, tenant, &what));
  return ToServiceEngine(std::move(body), what);
}

absl::StatusOr<ServiceEngine> SetServiceEngineEnableState(RequestLoop& loop, absl::Time deadline,
                                                          std::string_view uuid,
                                                          std::string_view enable_state,
                                                          std::string_view tenant) {
  if (enable_state != "SE_STATE_ENABLED" && enable_state != "SE_STATE_DISABLED_FOR_PLACEMENT" &&
      enable_state != "SE_STATE_DISABLED" && enable_state != "SE_STATE_DISABLED_FORCE") {
    return absl::InvalidArgumentError(absl::StrCat(
        "controller: enable_state \"", AbslView(enable_state),
        "\" is not one of SE_STATE_ENABLED, SE_STATE_DISABLED_FOR_PLACEMENT, SE_STATE_DISABLED, "
        "SE_STATE_DISABLED_FORCE"));
  }
  absl::Status stale;
  for (int attempt = 1; attempt <= kUpdateAttempts; ++attempt) {
    std::string what;
    NSXALB_ASSIGN_OR_RETURN(auto body, ReadObject(loop, deadline, uuid, tenant, &what));
    const std::string name = StringMember(body, "name");
    if (StringMember(body, "enable_state") == enable_state) {
      return ToServiceEngine(std::move(body), what);  // already so: nothing to write
    }
    body["enable_state"] = std::string(enable_state);
    // The PUT carries the _last_modified of the GET: a 412 means another writer changed the SE
    // in between, and the whole object is read again so its change is kept.
    NSXALB_ASSIGN_OR_RETURN(auto path, SePath(StringMember(body, "uuid")));
    Call call = MakeCall("PUT", std::move(path), tenant);
    call.body = Dump(body);
    call.has_body = true;
    auto response = loop.Send(call, deadline);
    if (response.ok()) {
      log::Debug(absl::StrCat("controller: Service Engine \"", name, "\": enable_state ",
                              AbslView(enable_state)));
      if (response->body.find_first_not_of(" \t\r\n") == std::string::npos) {
        return ToServiceEngine(std::move(body), call.what);
      }
      NSXALB_ASSIGN_OR_RETURN(auto written, ParseBody(*response, call.what));
      return ToServiceEngine(std::move(written), call.what);
    }
    if (response.status().code() != absl::StatusCode::kAborted) return response.status();
    stale = response.status();
    log::Info(absl::StrCat("controller: Service Engine \"", name,
                           "\" changed on the Controller since it was read (412); reading it "
                           "again (attempt ",
                           attempt, " of ", kUpdateAttempts, ")"));
  }
  return absl::AbortedError(
      absl::StrCat("controller: Service Engine ", AbslView(uuid),
                   " was changed by another writer between each of ", kUpdateAttempts,
                   " reads and the write of its enable_state that followed (412 every time); "
                   "nothing was written. Last answer: ",
                   stale.message()));
}

absl::StatusOr<ServiceEngineRuntime> GetServiceEngineRuntime(RequestLoop& loop, absl::Time deadline,
                                                             std::string_view uuid,
                                                             std::string_view tenant) {
  NSXALB_ASSIGN_OR_RETURN(auto path, SePath(uuid, "/runtime"));
  Call call = MakeCall("GET", std::move(path), tenant);
  NSXALB_ASSIGN_OR_RETURN(auto response, loop.Send(call, deadline));
  NSXALB_ASSIGN_OR_RETURN(auto body, ParseBody(response, call.what));
  const bool lists_vs = body.is_object() && body.contains("vs_refs");
  NSXALB_ASSIGN_OR_RETURN(auto runtime, ToServiceEngineRuntime(std::move(body), call.what));
  if (lists_vs) return runtime;
  // The runtime summary does not list the virtual services; the SE inventory does
  // (config.vs_refs). A Controller without the inventory leaves the list empty.
  NSXALB_ASSIGN_OR_RETURN(auto id, IdFromRefOrUuid(uuid, "serviceengine", "uuid"));
  Call inventory =
      MakeCall("GET", absl::StrCat("/api/serviceengine-inventory/", UrlEncode(id)), tenant);
  auto answer = loop.Send(inventory, deadline);
  if (!answer.ok()) {
    if (answer.status().code() == absl::StatusCode::kNotFound) return runtime;
    return answer.status();
  }
  NSXALB_ASSIGN_OR_RETURN(auto inv, ParseBody(*answer, inventory.what));
  if (inv.is_object() && inv.contains("config") && inv["config"].is_object() &&
      inv["config"].contains("vs_refs")) {
    Json listed = {{"vs_refs", inv["config"]["vs_refs"]}};
    NSXALB_ASSIGN_OR_RETURN(auto with_vs,
                            ToServiceEngineRuntime(std::move(listed), inventory.what));
    runtime.virtual_services = std::move(with_vs.virtual_services);
  }
  return runtime;
}

absl::Status DeleteServiceEngine(RequestLoop& loop, absl::Time deadline, std::string_view uuid,
                                 std::string_view tenant) {
  NSXALB_ASSIGN_OR_RETURN(auto path, SePath(uuid));
  Call call = MakeCall("DELETE", std::move(path), tenant);
  auto response = loop.Send(call, deadline);
  if (response.ok()) return absl::OkStatus();
  if (response.status().code() == absl::StatusCode::kNotFound) return absl::OkStatus();
  if (HttpStatusOf(response.status()) != 409) return response.status();
  // The Controller refuses to delete an SE that still hosts a virtual service: say which.
  std::string hosted = "(could not read which)";
  auto runtime = GetServiceEngineRuntime(loop, deadline, uuid, tenant);
  if (runtime.ok() && !runtime->virtual_services.empty()) {
    hosted = absl::StrCat(runtime->virtual_services.size(), " virtual service",
                          runtime->virtual_services.size() == 1 ? "" : "s", ": ",
                          VirtualServiceList(*runtime));
  }
  return WithMessage(
      absl::Status(absl::StatusCode::kFailedPrecondition, response.status().message()),
      absl::StrCat("controller: Service Engine ", AbslView(uuid), " still hosts ", hosted,
                   "; set its enable_state to SE_STATE_DISABLED and wait until it is "
                   "OPER_DISABLED before deleting it (",
                   response.status().message(), ")"));
}

absl::Status RebootServiceEngine(RequestLoop& loop, absl::Time deadline, std::string_view uuid,
                                 std::string_view tenant) {
  NSXALB_ASSIGN_OR_RETURN(auto path, SePath(uuid, "/reboot"));
  Call call = MakeCall("POST", std::move(path), tenant);
  call.body = "{}";
  call.has_body = true;
  call.idempotent = false;
  return loop.Send(call, deadline).status();
}

absl::StatusOr<ServiceEngineRuntime> ToServiceEngineRuntime(Json j, std::string_view what) {
  const auto bad = [what](std::string_view member) {
    return absl::InternalError(absl::StrCat("controller: ", AbslView(what), ": ", AbslView(member),
                                            " is not what a Service Engine runtime holds"));
  };
  if (!j.is_object()) return bad("the answer");
  ServiceEngineRuntime out;
  if (j.contains("oper_status")) {
    const Json& oper = j["oper_status"];
    if (!oper.is_object()) return bad("oper_status");
    if (oper.contains("state") && !oper["state"].is_string()) return bad("oper_status.state");
    out.oper_state = StringMember(oper, "state");
    if (oper.contains("reason") && oper["reason"].is_array()) {
      for (const Json& reason : oper["reason"]) {
        if (reason.is_string() && reason.get<std::string>().rfind("MIGRATE_SE_FAILED", 0) == 0) {
          out.migration_failed = true;
        }
      }
    }
  }
  if (j.contains("migrate_state")) {
    if (!j["migrate_state"].is_string()) return bad("migrate_state");
    out.migrate_state = j["migrate_state"].get<std::string>();
    if (out.migrate_state == "SE_MIGRATE_STATE_FINISHED_WITH_FAILURE" ||
        out.migrate_state == "MIGRATE_SE_FAILED") {
      out.migration_failed = true;
    }
  }
  if (j.contains("se_grp_reboot_pending")) {
    if (!j["se_grp_reboot_pending"].is_boolean()) return bad("se_grp_reboot_pending");
    out.reboot_pending = j["se_grp_reboot_pending"].get<bool>();
  }
  if (j.contains("vs_refs")) {
    if (!j["vs_refs"].is_array()) return bad("vs_refs");
    for (const Json& ref : j["vs_refs"]) {
      if (!ref.is_string()) return bad("vs_refs");
      // A ref "https://host/api/virtualservice/<uuid>#<name>" reads best as its name.
      const std::string text = ref.get<std::string>();
      auto parsed = ParseRef(text, "virtualservice", "vs_refs");
      out.virtual_services.push_back(parsed.ok() && !parsed->name.empty()
                                         ? parsed->name
                                         : (parsed.ok() ? parsed->uuid : text));
    }
  }
  out.body = std::move(j);
  return out;
}

}  // namespace nsxalb::controller::internal
