// plan-report's section "SEs behind settings": for each nsxalb_se_group of the plan whose
// running SEs (its computed service_engines, as the last refresh recorded them) do not have the
// settings the plan leaves, the finding ses-behind-settings the provider's plan shows, with the
// group's utilization at the running SEs' real shape. Every figure and word comes from
// plugin/segroup/lifecycle (the same match, model and rules as the provider's plan).
#ifndef NSXALB_PLUGIN_CLI_PLAN_REPORT_PLAN_REPORT_LIFECYCLE_H_
#define NSXALB_PLUGIN_CLI_PLAN_REPORT_PLAN_REPORT_LIFECYCLE_H_

#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "plugin/segroup/sizing_plan.h"

namespace nsxalb::cli {

// One nsxalb_se_group of the plan.
struct PlanGroupSes {
  std::string address;
  nlohmann::json before;  // the change's before (the refreshed prior state), or null
  nlohmann::json after;   // its after (the planned values), or null when destroyed
  const segroup::SizingPlan* sizing = nullptr;  // the group's sizing plan, when it has one
};

// The section as Markdown ("" when no group has running SEs recorded), under `heading` ("###").
// A group whose service_engines is missing, null or unreadable is named with the reason.
std::string SesBehindSection(const std::vector<PlanGroupSes>& groups, const std::string& heading);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_PLAN_REPORT_PLAN_REPORT_LIFECYCLE_H_
