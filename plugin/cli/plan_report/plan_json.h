// Reading `terraform show -json` of a plan: the resources (managed and data) of its value trees,
// child modules included, for plan-report's sections.
#ifndef NSXALB_PLUGIN_CLI_PLAN_REPORT_PLAN_JSON_H_
#define NSXALB_PLUGIN_CLI_PLAN_REPORT_PLAN_JSON_H_

#include <string>
#include <vector>

#include "nlohmann/json.hpp"

namespace nsxalb::cli {

// The resources of the plan's prior_state: the state Terraform refreshed, with every data source
// it read while planning. Empty when the plan has none.
std::vector<const nlohmann::json*> PriorStateResources(const nlohmann::json& plan);

// The resources of the plan's planned_values: the state the plan leads to.
std::vector<const nlohmann::json*> PlannedResources(const nlohmann::json& plan);

// The member `key` of `object` when it is a string; "" when `object` is not an object, or the
// member is absent or of another type (a plan is read without throwing).
std::string StringMember(const nlohmann::json& object, const char* key);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_PLAN_REPORT_PLAN_JSON_H_
