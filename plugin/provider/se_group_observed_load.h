// The resource's observed_load block: the plan of an existing group compared with what its SEs
// really carried (plugin/segroup/usage/group_reader.h reads it; compare.h compares it). The
// findings are placed at the workload line and gated like the model's under-sizing findings.
#ifndef NSXALB_PLUGIN_PROVIDER_SE_GROUP_OBSERVED_LOAD_H_
#define NSXALB_PLUGIN_PROVIDER_SE_GROUP_OBSERVED_LOAD_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "plugin/controller/client.h"
#include "plugin/cty/value.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/provider/se_group_sizing.h"
#include "plugin/sizing/profiles.h"

namespace nsxalb::provider {

// What the observed-load check of one plan needs.
struct ObservedLoadCheck {
  // The configuration's observed_load block (an object with window and statistic), known and
  // not null.
  cty::Value block;
  // The existing group: its uuid (the prior state's id) and tenant.
  std::string group_uuid;
  std::string tenant;
  // The planned state (its typed fields are the group's settings after the plan).
  cty::Value planned;
  // The plan of the declared workload, known and with a workload.
  const SizingPlan* plan = nullptr;
  sizing::Platform platform = sizing::Platform::kVcenter;
  segroup::SizingPolicy policy = segroup::SizingPolicy::kWarn;
  // Empty when the plan creates or changes the group; else why enforce does not apply (the
  // resource's waiver sentence).
  std::string_view enforce_waived;
  // The tenant's SE listing the provider shares (NsxalbProvider::se_listing), when it could be
  // read: the group's SEs come from it, with no listing of their own. Null: one listing.
  std::shared_ptr<const std::vector<controller::ServiceEngine>> tenant_ses;
};

// Reads the group's usage (one SE listing, one metrics request) and adds what it finds: an
// observed peak above the declared workload, an SE whose CPU exceeded the target, a calibration
// that makes the planned size insufficient (under-sizing: errors under enforce unless waived),
// and missing data (warnings). A Controller failure is a warning, never a failed plan, except a
// cancelled call. Errors in window or statistic are added at their attribute.
void AddObservedLoadFindings(controller::Client& client, const ObservedLoadCheck& check,
                             framework::Diagnostics& diagnostics);

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_SE_GROUP_OBSERVED_LOAD_H_
