// Opt-in capability: a resource that adjusts the engine's plan (PlanResourceChange): fill computed
// values it already knows, mark computed values that an update will change as unknown, or add
// requires_replace paths. The engine checks the result against Terraform's plan rules afterwards
// and reports a violation as an error instead of sending an invalid plan.
#ifndef NSXALB_PLUGIN_FRAMEWORK_RESOURCE_WITH_MODIFY_PLAN_H_
#define NSXALB_PLUGIN_FRAMEWORK_RESOURCE_WITH_MODIFY_PLAN_H_

#include <string>
#include <vector>

#include "plugin/cty/path.h"
#include "plugin/cty/value.h"
#include "plugin/framework/context.h"
#include "plugin/framework/diagnostics.h"

namespace nsxalb::framework {

// Not called for destroy plans. `prior_state` is null on create.
struct ModifyPlanRequest {
  Context context;
  cty::Value config;
  cty::Value prior_state;
  cty::Value proposed_new_state;
  std::string prior_private;
};
struct ModifyPlanResponse {
  // Pre-filled with the engine's plan: config values, prior values of computed attributes on
  // update, unknown for computed attributes on create.
  cty::Value planned_state;
  // Pre-filled with the paths of schema attributes marked requires_replace. The engine keeps
  // only the paths whose prior and planned values differ.
  std::vector<cty::AttributePath> requires_replace;
  // Pre-filled with the prior private data; passed on to apply.
  std::string planned_private;
  Diagnostics diagnostics;
};

// Implement alongside Resource to modify plans.
class ResourceWithModifyPlan {
 public:
  virtual ~ResourceWithModifyPlan() = default;
  virtual void ModifyPlan(const ModifyPlanRequest& request, ModifyPlanResponse& response) = 0;
};

}  // namespace nsxalb::framework

#endif  // NSXALB_PLUGIN_FRAMEWORK_RESOURCE_WITH_MODIFY_PLAN_H_
