// `plan-report`'s "Observed load" sections: for every nsxalb_se_group_usage data source the plan
// read (its values in the plan's prior_state), the observed figures against the declared
// workload of the nsxalb_se_group of the same name, the calibration and the recommendation from
// the observed load; and for `--svg-dir`, the usage data source of a group's name, whose forecast
// its chart draws. JSON in, Markdown out: no Terraform types and no Controller.
#ifndef NSXALB_PLUGIN_CLI_PLAN_REPORT_PLAN_REPORT_OBSERVED_H_
#define NSXALB_PLUGIN_CLI_PLAN_REPORT_PLAN_REPORT_OBSERVED_H_

#include <ostream>
#include <string>

#include "nlohmann/json.hpp"

namespace nsxalb::cli {

// Writes one section per usage data source in `plan` (terraform show -json of a plan); nothing
// when there is none.
void RenderObservedLoad(const nlohmann::json& plan, std::ostream& out);

// The values of the nsxalb_se_group_usage data source the plan read for the SE group named `name`
// (the first when it read several), for the group's chart; nullptr when it read none.
const nlohmann::json* ObservedUsageOf(const nlohmann::json& plan, const std::string& name);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_PLAN_REPORT_PLAN_REPORT_OBSERVED_H_
