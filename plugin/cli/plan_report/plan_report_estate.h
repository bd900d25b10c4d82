// `plan-report`'s "Estate" sections: for every nsxalb_se_groups_usage data source in the plan (its
// value in prior_state, where Terraform records what it read while planning, or in
// planned_values), the estate's Markdown as `estate-report` writes it (cli/estate/estate_report.h).
// JSON in, Markdown out: no Terraform types and no Controller.
#ifndef NSXALB_PLUGIN_CLI_PLAN_REPORT_PLAN_REPORT_ESTATE_H_
#define NSXALB_PLUGIN_CLI_PLAN_REPORT_PLAN_REPORT_ESTATE_H_

#include <ostream>

#include "nlohmann/json.hpp"

namespace nsxalb::cli {

// Writes one section per estate data source in `plan` (terraform show -json of a plan); nothing
// when there is none, or when its value is known only after apply. A value that is not an estate
// gets a line naming the data source and the JSON path instead of the section.
void RenderEstates(const nlohmann::json& plan, std::ostream& out);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_PLAN_REPORT_PLAN_REPORT_ESTATE_H_
