// Terraform's plan rules, implemented once for every resource: what the engine
// (ProviderServer::PlanResourceChange, plan.cc) does to a proposed new state before and after a
// resource's ModifyPlan, and the checks Terraform itself makes of a plan
// (objchange.AssertPlanValid) and of an applied object (objchange.AssertObjectCompatible, used by
// the apply checks in apply.cc). Exposed for the engine and for tests; a resource never calls them.
#ifndef NSXALB_PLUGIN_FRAMEWORK_PLAN_H_
#define NSXALB_PLUGIN_FRAMEWORK_PLAN_H_

#include <string>
#include <vector>

#include "plugin/cty/path.h"
#include "plugin/cty/value.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/framework/schema.h"

namespace nsxalb::framework {
namespace plan {

// The engine's plan before ModifyPlan: `proposed` with computed attributes that are null in
// config made unknown wherever there is no prior object (create, or a new nested element).
cty::Value MarkComputedUnknown(const Block& block, const cty::Value& proposed,
                               const cty::Value& config, const cty::Value& prior);

// The requires_replace paths the schema implies for this change (before filtering).
std::vector<cty::AttributePath> SchemaRequiresReplace(const Block& block, const cty::Value& prior,
                                                      const cty::Value& planned);

// Keeps the paths whose prior and planned values differ (all removed on create), without
// duplicates.
std::vector<cty::AttributePath> FilterRequiresReplace(const std::vector<cty::AttributePath>& paths,
                                                      const cty::Value& prior,
                                                      const cty::Value& planned);

// Checks `planned` against Terraform's AssertPlanValid rules; adds one error per violation,
// naming the path. `type_name` is used in messages. Sensitive values are never printed.
void AssertPlanValid(const std::string& type_name, const Block& block, const cty::Value& prior,
                     const cty::Value& config, const cty::Value& planned, Diagnostics& diagnostics);

// Checks that `actual` keeps every known value of `planned` (AssertObjectCompatible); adds one
// error per difference, naming the path. `what` is e.g. "applying changes to nsxalb_x".
void AssertObjectCompatible(const std::string& what, const Block& block, const cty::Value& planned,
                            const cty::Value& actual, Diagnostics& diagnostics);

}  // namespace plan
}  // namespace nsxalb::framework

#endif  // NSXALB_PLUGIN_FRAMEWORK_PLAN_H_
