// Implementation of analytics.h: a group's Service Engines and the metrics collection POST.
#include "plugin/controller/analytics.h"

#include <functional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "plugin/common/status_macros.h"
#include "plugin/controller/call.h"
#include "plugin/controller/listing.h"
#include "plugin/controller/refs.h"
#include "plugin/controller/response.h"

namespace nsxalb::controller::internal {

using Json = nlohmann::json;

namespace {

constexpr char kMetricsCollectionPath[] = "/api/analytics/metrics/collection";
// What ToServiceEngine reads of an SE (uuid and url come anyway), and its runtime (oper status,
// reboot pending) joined in.
constexpr char kServiceEngineFields[] = "uuid,name,se_group_ref,resources,enable_state";

// The SEs of every page of the listing at `path` (with its query) that `keep` accepts.
absl::StatusOr<std::vector<ServiceEngine>> ListedServiceEngines(
    RequestLoop& loop, absl::Time deadline, std::string path, std::string_view tenant,
    const std::function<bool(const ServiceEngine&)>& keep) {
  std::vector<ServiceEngine> out;
  NSXALB_RETURN_IF_ERROR(
      ForEachListed(loop, deadline, std::move(path), tenant, "Service Engines",
                    [&out, &keep](Json& item, const std::string& what) -> absl::Status {
                      NSXALB_ASSIGN_OR_RETURN(auto se, ToServiceEngine(std::move(item), what));
                      if (keep(se)) out.push_back(std::move(se));
                      return absl::OkStatus();
                    }));
  return out;
}

// The call that POSTs `request` to the metrics collection, checked as
// Client::QueryMetricsCollection says.
absl::StatusOr<Call> MetricsCollectionCall(const Json& request, std::string_view tenant) {
  if (!request.is_object() || !request.contains("metric_requests") ||
      !request["metric_requests"].is_array()) {
    return absl::InvalidArgumentError(
        "controller: a metrics collection request must be an object with a metric_requests "
        "list");
  }
  Call call = MakeCall("POST", kMetricsCollectionPath, tenant);
  call.body = Dump(request);
  call.has_body = true;
  call.idempotent = true;  // a read: safe to send again
  return call;
}

}  // namespace

absl::StatusOr<std::vector<ServiceEngine>> ListServiceEngines(RequestLoop& loop,
                                                              absl::Time deadline, int page_size,
                                                              std::string_view se_group_uuid,
                                                              std::string_view tenant) {
  NSXALB_ASSIGN_OR_RETURN(auto group,
                          IdFromRefOrUuid(se_group_uuid, "serviceenginegroup", "se_group_uuid"));
  std::string path =
      absl::StrCat(kServiceEnginePath, "?page_size=", page_size,
                   "&refers_to=", UrlEncode(absl::StrCat("serviceenginegroup:", group)),
                   "&join_subresources=runtime");
  // The Controller filters by refers_to; the group is checked again here, so an SE that refers
  // to the group some other way (or a Controller that ignores the filter) is left out.
  return ListedServiceEngines(
      loop, deadline, std::move(path), tenant, [&group](const ServiceEngine& se) {
        auto ref = ParseRef(se.se_group_ref, "serviceenginegroup", "se_group_ref");
        return ref.ok() && ref->uuid == group;
      });
}

absl::StatusOr<std::vector<ServiceEngine>> ListTenantServiceEngines(RequestLoop& loop,
                                                                    absl::Time deadline,
                                                                    int page_size,
                                                                    std::string_view tenant) {
  std::string path = absl::StrCat(kServiceEnginePath, "?page_size=", page_size,
                                  "&fields=", kServiceEngineFields, "&join_subresources=runtime");
  return ListedServiceEngines(loop, deadline, std::move(path), tenant,
                              [](const ServiceEngine&) { return true; });
}

absl::StatusOr<Json> QueryMetricsCollection(RequestLoop& loop, absl::Time deadline,
                                            const Json& request, std::string_view tenant) {
  NSXALB_ASSIGN_OR_RETURN(Call call, MetricsCollectionCall(request, tenant));
  NSXALB_ASSIGN_OR_RETURN(auto response, loop.Send(call, deadline));
  NSXALB_ASSIGN_OR_RETURN(auto body, ParseBody(response, call.what));
  if (!body.is_object()) {
    return absl::InternalError(
        absl::StrCat("controller: ", call.what, ": expected a metrics collection object"));
  }
  return body;
}

absl::Status StreamMetricsCollection(RequestLoop& loop, absl::Time deadline, const Json& request,
                                     std::string_view tenant, BodySink& sink) {
  NSXALB_ASSIGN_OR_RETURN(Call call, MetricsCollectionCall(request, tenant));
  call.body_sink = &sink;
  return loop.Send(call, deadline).status();
}

}  // namespace nsxalb::controller::internal
