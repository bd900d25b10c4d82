// The resource's `rollout` block and `last_rollout` attribute: the conversion between cty values
// and the roll of plugin/segroup/lifecycle/rollout.h, and where the plan and the apply of
// nsxalb_se_group meet it. The roll's steps, guards and recovery live in the lifecycle layer;
// only the Terraform side is here (docs/design/se-group-resource.md, "Rolling the SEs").
#ifndef NSXALB_PLUGIN_PROVIDER_SE_GROUP_ROLLOUT_H_
#define NSXALB_PLUGIN_PROVIDER_SE_GROUP_ROLLOUT_H_

#include <optional>

#include "absl/time/time.h"
#include "plugin/controller/client.h"
#include "plugin/cty/type.h"
#include "plugin/cty/value.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/segroup/lifecycle/match.h"

namespace nsxalb::provider {

class NsxalbProvider;

// The `last_rollout` attribute's cty type (provider_schema/resources/nsxalb_se_group.json).
cty::Type LastRolloutObjectType();

// The `rollout` block as the roll uses it; the defaults when the block or an attribute is unset.
struct RolloutSettings {
  bool rolling = false;  // strategy = "rolling"; "none" (the default) rolls nothing
  int max_unavailable = 1;
  absl::Duration timeout = absl::Minutes(30);  // per SE
};

// The block's settings from a configuration. nullopt when a value is unknown (a plan cannot tell
// yet) or invalid; an invalid value adds an error at its attribute (rollout.strategy,
// rollout.max_unavailable, rollout.timeout) to `diagnostics` when it is not null.
std::optional<RolloutSettings> ReadRolloutSettings(const cty::Value& config,
                                                   framework::Diagnostics* diagnostics);

// Plan: with strategy "rolling", a group whose running SEs lag the planned settings (`ses`:
// what AddSesBehindSettings matched, nullopt when it read nothing) plans an update (service_engines
// and last_rollout unknown) and warns, at rollout.strategy, what apply will do (rule
// rollout-planned). last_rollout is unknown whenever service_engines is (apply may roll), and
// otherwise keeps the prior value, so a settled group plans no change.
cty::Value PlanRollout(const cty::Value& config, const cty::Value& prior, cty::Value planned,
                       const std::optional<segroup::lifecycle::GroupSes>& ses,
                       framework::Diagnostics& diagnostics);

// What a roll in apply needs besides the Controller.
struct RolloutApply {
  const cty::Value* config = nullptr;  // the resource's configuration
  const cty::Value* prior = nullptr;   // the state before this apply
  controller::SeGroup group;           // the group as written (or read) by this apply
};

// Apply, after the group's write: with strategy "rolling", rolls the SEs that lag (guards first,
// then SE by SE; Terraform's StopProvider ends it after the current step) and returns `new_state`
// with last_rollout and service_engines as the roll left them. A refused guard, a stop, a timeout
// or a failure adds an error naming the SEs done and to do; the state still records them, so the
// next plan shows the SEs still to do and the next apply resumes. With "none", `new_state`
// unchanged.
cty::Value RollServiceEngines(NsxalbProvider& provider, controller::Client& client,
                              const RolloutApply& apply, cty::Value new_state,
                              framework::Diagnostics& diagnostics);

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_SE_GROUP_ROLLOUT_H_
