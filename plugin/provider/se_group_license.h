// The resource's licence check (rule license-units-short, plugin/segroup/license_check.h): the
// Service Units a plan adds against the remaining units of the group's tier, from the ledger the
// provider reads once per process. Glue only: cty values in, a diagnostic at the size line out.
#ifndef NSXALB_PLUGIN_PROVIDER_SE_GROUP_LICENSE_H_
#define NSXALB_PLUGIN_PROVIDER_SE_GROUP_LICENSE_H_

#include <string_view>

#include "plugin/controller/client.h"
#include "plugin/cty/value.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/segroup/license_check.h"
#include "plugin/segroup/lifecycle/running_ses.h"
#include "plugin/segroup/sizing_plan.h"

namespace nsxalb::provider {

// What the licence check of one plan needs.
struct LicenseCheckRequest {
  const cty::Value* config = nullptr;
  const cty::Value* prior = nullptr;    // null value for a create
  const cty::Value* planned = nullptr;  // with its `sizing` (null without a workload)
  segroup::SizingPolicy policy = segroup::SizingPolicy::kWarn;
  // Empty when the plan creates or changes the group; else why enforce does not apply.
  std::string_view enforce_waived;
};

// For a plan that creates or changes the group (the caller asks only then). The planned units
// are the planned `sizing.service_units` of a group with a workload; without a workload, max_se
// SEs of vcpus_per_se by rule service-units-per-se (with max_num_se_dps and per_app; an unset
// max_se or vcpus_per_se of a new group at the Controller's default, 10 and 1), the finding saying
// the arithmetic. Nothing while they are unknown, or when they are not above the prior state's
// (counted the same way: the plan does not grow the group). Adds license-units-short when the
// planned units, less what the group's running SEs consume (ledger se_infos of the SEs the
// tenant's one shared listing, `se_listing`, puts in the group, read only when the planned units
// exceed what remains), exceed the remaining units of the group's tier (extra_fields'
// license_tier, else the cloud's): a warning, an error under enforce unless waived, at
// vcpus_per_se or max_se when the configuration sets them, else at the workload (the resource
// without one). A ledger that cannot be read is a warning (the check is skipped), never a failed
// plan, except a cancelled call.
void AddLicenseCheck(controller::Client& client, segroup::LicenseLedgerCache& ledger,
                     segroup::lifecycle::SharedSeListing& se_listing,
                     const LicenseCheckRequest& request, framework::Diagnostics& d);

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_SE_GROUP_LICENSE_H_
