// Which running SEs match their group's settings and, for each that does not, why: a shape field
// (vcpus_per_se, memory_per_se, disk_per_se: new-ses-only in the field catalog) differs from the
// SE's real size, so only its replacement brings it to the settings; or an after-se-reboot field
// changed and the SE has not rebooted since. Pure; no Terraform types.
#ifndef NSXALB_PLUGIN_SEGROUP_LIFECYCLE_MATCH_H_
#define NSXALB_PLUGIN_SEGROUP_LIFECYCLE_MATCH_H_

#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "plugin/controller/se_group_fields.h"
#include "plugin/segroup/lifecycle/running_ses.h"

namespace nsxalb::segroup::lifecycle {

// The member `name` of `j`: null when `j` is no object or has no such member.
nlohmann::json MemberOrNull(const nlohmann::json& j, const std::string& name);

// The settings that set an SE's shape, in the order of the Avi fields: vcpus_per_se,
// memory_per_se, disk_per_se (each new-ses-only in the catalog).
const std::vector<std::string>& ShapeFieldNames();

// The after-se-reboot fields whose change waits for the SEs' reboot.
struct RebootWait {
  // Changed by the operation at hand (the plan, or the apply, that changes them): every running
  // SE waits for them.
  std::vector<std::string> changed_now;
  // Changed earlier (recorded in state): only the SEs the Controller reports reboot-pending wait.
  std::vector<std::string> recorded;
};

// One running SE that does not match the settings.
struct LaggingSe {
  RunningSe se;
  // kNewSesOnly when a shape field differs (only a replacement helps; this wins over a pending
  // reboot), else kAfterSeReboot.
  controller::TakesEffect why = controller::TakesEffect::kNewSesOnly;
  // The fields it lags on: the shape fields that differ (in ShapeFieldNames order), or the reboot
  // fields it waits for (sorted; empty when the Controller reports a reboot pending for a change
  // this configuration did not make).
  std::vector<std::string> fields;
};

// A group's running SEs against its settings.
struct GroupSes {
  std::vector<RunningSe> running;  // every running SE, as RunningSesOf sorts them
  int matching = 0;                // running SEs that lag on nothing
  std::vector<LaggingSe> lagging;  // the others, in the order of `running`
  // The after-se-reboot fields still waited for (what state records for later plans): the
  // changed_now and recorded fields of RebootWait while some SE waits for them, sorted.
  std::vector<std::string> reboot_fields;

  // True when some running SE lags.
  bool AnyLag() const { return !lagging.empty(); }
};

// Matches `ses` against `settings` (by Avi field name; a field that is null, absent or not a
// whole number is not compared, and neither is a size the Controller did not give, 0).
GroupSes MatchSettings(std::vector<RunningSe> ses, const nlohmann::json& settings,
                       const RebootWait& reboot);

// The after-se-reboot fields among `names` whose value differs between `before` and `after` (JSON
// objects by Avi field name; absent counts as null), sorted.
std::vector<std::string> ChangedFieldsOfClass(const std::vector<std::string>& names,
                                              const nlohmann::json& before,
                                              const nlohmann::json& after,
                                              controller::TakesEffect effect);

}  // namespace nsxalb::segroup::lifecycle

#endif  // NSXALB_PLUGIN_SEGROUP_LIFECYCLE_MATCH_H_
