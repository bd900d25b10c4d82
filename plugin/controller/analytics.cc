// Implementation of analytics.h: a group's Service Engines and the metrics collection POST.
#include "plugin/controller/analytics.h"

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

constexpr char kServiceEnginePath[] = "/api/serviceengine";
constexpr char kMetricsCollectionPath[] = "/api/analytics/metrics/collection";

}  // namespace

absl::StatusOr<std::vector<ServiceEngine>> ListServiceEngines(RequestLoop& loop,
                                                              absl::Time deadline, int page_size,
                                                              std::string_view se_group_uuid,
                                                              std::string_view tenant) {
  NSXALB_ASSIGN_OR_RETURN(auto group,
                          IdFromRefOrUuid(se_group_uuid, "serviceenginegroup", "se_group_uuid"));
  std::string path =
      absl::StrCat(kServiceEnginePath, "?page_size=", page_size,
                   "&refers_to=", UrlEncode(absl::StrCat("serviceenginegroup:", group)));
  std::vector<ServiceEngine> out;
  NSXALB_RETURN_IF_ERROR(
      ForEachListed(loop, deadline, std::move(path), tenant, "Service Engines",
                    [&out, &group](Json& item, const std::string& what) -> absl::Status {
                      NSXALB_ASSIGN_OR_RETURN(auto se, ToServiceEngine(std::move(item), what));
                      // The Controller filters by refers_to; the group is checked again here, so an
                      // SE that refers to the group some other way (or a Controller that ignores
                      // the filter) is left out.
                      auto ref = ParseRef(se.se_group_ref, "serviceenginegroup", "se_group_ref");
                      if (!ref.ok() || ref->uuid != group) return absl::OkStatus();
                      out.push_back(std::move(se));
                      return absl::OkStatus();
                    }));
  return out;
}

absl::StatusOr<Json> QueryMetricsCollection(RequestLoop& loop, absl::Time deadline,
                                            const Json& request, std::string_view tenant) {
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
  NSXALB_ASSIGN_OR_RETURN(auto response, loop.Send(call, deadline));
  NSXALB_ASSIGN_OR_RETURN(auto body, ParseBody(response, call.what));
  if (!body.is_object()) {
    return absl::InternalError(
        absl::StrCat("controller: ", call.what, ": expected a metrics collection object"));
  }
  return body;
}

}  // namespace nsxalb::controller::internal
