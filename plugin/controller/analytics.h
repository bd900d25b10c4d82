// Internal to plugin/controller: the analytics side of the client, the Service Engines of a group
// (GET /api/serviceengine?refers_to=...) or of a whole tenant, and the metrics collection POST
// (POST /api/analytics/metrics/collection), parsed or streamed into a sink, over the retry loop
// and paging the SE group calls use. client.cc's ClientImpl calls these from its public methods.
// Not for use outside the folder.
#ifndef NSXALB_PLUGIN_CONTROLLER_ANALYTICS_H_
#define NSXALB_PLUGIN_CONTROLLER_ANALYTICS_H_

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "plugin/controller/request_loop.h"

namespace nsxalb::controller::internal {

// Client::ListServiceEngines: every page of the group's SE listing (`page_size` a page) by
// `deadline`, only the SEs whose se_group_ref names the group.
absl::StatusOr<std::vector<ServiceEngine>> ListServiceEngines(RequestLoop& loop,
                                                              absl::Time deadline, int page_size,
                                                              std::string_view se_group_uuid,
                                                              std::string_view tenant);

// Client::ListTenantServiceEngines: every page of the tenant's SE listing (`page_size` a page,
// only the fields ServiceEngine holds) by `deadline`.
absl::StatusOr<std::vector<ServiceEngine>> ListTenantServiceEngines(RequestLoop& loop,
                                                                    absl::Time deadline,
                                                                    int page_size,
                                                                    std::string_view tenant);

// Client::QueryMetricsCollection: one POST of `request` by `deadline`.
absl::StatusOr<nlohmann::json> QueryMetricsCollection(RequestLoop& loop, absl::Time deadline,
                                                      const nlohmann::json& request,
                                                      std::string_view tenant);

// Client::StreamMetricsCollection: one POST of `request` by `deadline`, its 2xx answer streamed
// into `sink`.
absl::Status StreamMetricsCollection(RequestLoop& loop, absl::Time deadline,
                                     const nlohmann::json& request, std::string_view tenant,
                                     BodySink& sink);

}  // namespace nsxalb::controller::internal

#endif  // NSXALB_PLUGIN_CONTROLLER_ANALYTICS_H_
