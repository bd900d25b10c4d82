// The load a group's SEs carry now, for the roll's decision (lifecycle/roll_decision.h): each
// running SE's CPU over a recent window, as the Controller measured it. Read as the one-group
// usage reader reads a group's usage (group_reader.h: the group's SEs from the tenant's shared
// listing when given, one metrics request), so the roll and the observed-load findings read the
// Controller the same way. No Terraform types.
#ifndef NSXALB_PLUGIN_SEGROUP_USAGE_CURRENT_LOAD_H_
#define NSXALB_PLUGIN_SEGROUP_USAGE_CURRENT_LOAD_H_

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "plugin/segroup/lifecycle/roll_decision.h"
#include "plugin/segroup/usage/query.h"
#include "plugin/sizing/profiles.h"

namespace nsxalb::segroup {

// The window "now" means for a roll when the resource has no observed_load block: the last hour
// (twelve 5-minute samples, the Controller's finest step without realtime metrics), its highest
// sample.
inline constexpr absl::Duration kRollLoadWindow = absl::Hours(1);

// The query a roll reads the load with: `observed` (observed_load's window and statistic) when
// the resource sets the block, else kRollLoadWindow and max.
UsageQuery RollLoadQuery(const UsageQuery* observed);

// Each running SE's statistic of se_stats.avg_cpu_usage over `query`'s window (percent of that
// SE), for the group `group_uuid` in `tenant` whose settings by Avi field name are `settings`;
// `tenant_ses` as GroupUsageRequest::tenant_ses. CurrentLoad::source states the window and the
// statistic; with no sample, cpu_pct is empty and missing_reason says why (no samples, or the
// metrics call failed). Errors: the SE listing's, and Cancelled (Terraform's Stop).
absl::StatusOr<lifecycle::CurrentLoad> ReadCurrentLoad(
    controller::Client& client, std::string_view group_uuid, std::string_view tenant,
    const nlohmann::json& settings, const UsageQuery& query, sizing::Platform platform,
    const std::vector<controller::ServiceEngine>* tenant_ses);

}  // namespace nsxalb::segroup

#endif  // NSXALB_PLUGIN_SEGROUP_USAGE_CURRENT_LOAD_H_
