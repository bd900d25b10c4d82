// The finding ses-behind-settings: the group's running SEs that do not have its settings, what
// they run at their real shape, and what they cost, in one warning the front ends place at the
// lines of the fields concerned (docs/sizing.md, "Running SEs behind the settings", works an
// example by hand); it tells the runbook, and names the setting that has apply do it (the
// resource's `rollout { strategy = "rolling" }`) when the group lacks it. Always a warning,
// whatever the sizing policy: the configuration is right and the SEs lag. Pure; no Terraform
// types.
#ifndef NSXALB_PLUGIN_SEGROUP_LIFECYCLE_FINDING_H_
#define NSXALB_PLUGIN_SEGROUP_LIFECYCLE_FINDING_H_

#include <optional>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "plugin/segroup/lifecycle/match.h"
#include "plugin/segroup/lifecycle/running_load.h"
#include "plugin/sizing/figure.h"
#include "plugin/sizing/recommend.h"

namespace nsxalb::segroup::lifecycle {

// What the finding is about.
struct SesBehindInput {
  std::string group_name;
  // MatchSettings of the running SEs against `settings`.
  GroupSes ses;
  // The group's settings as planned, by Avi field name (vcpus_per_se, memory_per_se, disk_per_se,
  // max_se, max_num_se_dps, per_app and any after-se-reboot field).
  nlohmann::json settings = nlohmann::json::object();
  // The settings before the change the plan makes, by Avi field name; null in a plan that changes
  // none (the text then names each field's value, not its change).
  nlohmann::json prior_settings = nullptr;
  // The declared plan, when there is a workload: its workload and planned shape (the utilization
  // at the running shape needs both).
  std::optional<sizing::Workload> workload;
  std::optional<sizing::Recommendation> planned_shape;
  // The setting that has apply do the runbook, in the front end's words (the resource's
  // kRollingSetting): the finding names it after the runbook. "" when the group already has it,
  // or when the front end cannot tell or offers none.
  std::string roll_setting;
};

// The nsxalb_se_group resource's setting that has apply replace or reboot the SEs that lag.
inline constexpr char kRollingSetting[] = "rollout { strategy = \"rolling\" }";

// The finding and its figures.
struct SesBehindFinding {
  // Rule ses-behind-settings, a warning; its attribute is "" (the front end places it).
  sizing::Finding finding;
  // The fields it concerns (new-ses-only fields that differ, after-se-reboot fields waited for),
  // sorted: the front end shows the finding at each one's line, or at the workload's for a field
  // the sizing plans.
  std::vector<std::string> fields;
  // The utilization at the running shape (rule utilization-at-running-shape), when a workload is
  // declared and some SE lags on its shape.
  std::optional<RunningShapeLoad> load;
  // The SUs of the running SEs, now and replaced (rule service-units-of-running-ses), when some
  // SE lags on its shape and vcpus_per_se is planned.
  std::optional<RunningServiceUnits> service_units;
};

// The finding for `input`, or nullopt when every running SE matches (a group whose SEs all match
// says nothing).
std::optional<SesBehindFinding> SesBehindSettings(const SesBehindInput& input);

}  // namespace nsxalb::segroup::lifecycle

#endif  // NSXALB_PLUGIN_SEGROUP_LIFECYCLE_FINDING_H_
