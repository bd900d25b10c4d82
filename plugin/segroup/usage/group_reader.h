// One SE group's observed load read from the Controller: the one piece of code that lists the
// group's Service Engines, sends the one analytics request (query.h) and analyses the answer, for
// every front end (the nsxalb_se_group_usage data source, the resource's observed_load block,
// `controller usage` and the Ansible se_group_info module).
//
// Requests: one paged SE listing (GET /api/serviceengine?refers_to=serviceenginegroup:<uuid>)
// and, when the group has SEs, one POST /api/analytics/metrics/collection. Nothing else.
#ifndef NSXALB_PLUGIN_SEGROUP_USAGE_GROUP_READER_H_
#define NSXALB_PLUGIN_SEGROUP_USAGE_GROUP_READER_H_

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "plugin/segroup/usage/analyze.h"
#include "plugin/sizing/profiles.h"

namespace nsxalb::segroup {

// What to read for one group.
struct GroupUsageRequest {
  UsageQuery query;
  // The group's sizing profile (PlatformOfCloud, or the resource's platform).
  sizing::Platform platform = sizing::Platform::kVcenter;
  // The declared workload (SizingInput::workload), or null.
  nlohmann::json declared_workload = nullptr;
  // The end of the window.
  absl::Time now;
  // The tenant's SE listing when the caller already holds it (the provider's one shared listing,
  // segroup/lifecycle/running_ses.h): the group's SEs are taken from it and no listing is sent.
  // Null: one listing of the group's SEs.
  const std::vector<controller::ServiceEngine>* tenant_ses = nullptr;
};

// The SEs as the analysis sees them: uuid, name and real size.
std::vector<ObservedSe> ObservedSes(const std::vector<controller::ServiceEngine>& ses);

// Reads and analyses the usage of the group `group_uuid` in `tenant` (a name or ref; empty: the
// client's), whose settings by Avi field name are `settings` (the group's body, or a plan's typed
// fields: no GET of the group here). A failed SE listing is the client's status (the caller
// decides whether it is an error); a failed metrics call is a report with the
// usage-analytics-unavailable warning, never an error, except Cancelled (Terraform's Stop), which
// is returned.
absl::StatusOr<UsageReport> ReadGroupUsage(controller::Client& client, std::string_view group_uuid,
                                           std::string_view tenant, const nlohmann::json& settings,
                                           const GroupUsageRequest& request);

}  // namespace nsxalb::segroup

#endif  // NSXALB_PLUGIN_SEGROUP_USAGE_GROUP_READER_H_
