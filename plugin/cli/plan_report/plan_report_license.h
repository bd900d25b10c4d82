// `plan-report`'s "Licence" section: the Service Units the plan's SE groups add, per licence
// tier, against what remains, from an nsxalb_license_usage data source the plan read (its
// tiers, and its se_groups for the units a group's running SEs consume and the tier it draws
// on). JSON in, Markdown out: no Terraform types and no Controller.
#ifndef NSXALB_PLUGIN_CLI_PLAN_REPORT_PLAN_REPORT_LICENSE_H_
#define NSXALB_PLUGIN_CLI_PLAN_REPORT_PLAN_REPORT_LICENSE_H_

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"

namespace nsxalb::cli {

// One SE group of the plan, as the licence section counts it.
struct PlanLicenseGroup {
  std::string address;
  std::string id;      // the group's uuid before the plan; "" for a create
  std::string action;  // "create", "update", "delete", "no-op", ...
  // Its Service Units at the planned scale after the plan; unset when unknown.
  std::optional<double> service_units_after;
};

// Writes the section when the plan holds a known nsxalb_license_usage value; nothing otherwise.
// A group adds its units after the plan less what its running SEs consume (the data source's
// service_units_consumed for its id), never below 0; a group the data source does not list (a
// create) draws on ENTERPRISE, or on the only tier the ledger lists (rule license-tier-of-group:
// its cloud's tier is not in the plan); a group with unknown units is named and left out.
void RenderLicense(const nlohmann::json& plan, const std::vector<PlanLicenseGroup>& groups,
                   std::ostream& out);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_PLAN_REPORT_PLAN_REPORT_LICENSE_H_
