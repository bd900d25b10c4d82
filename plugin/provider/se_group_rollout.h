// The resource's `rollout` block and `last_rollout` attribute: the conversion between cty values
// and the roll of plugin/segroup/lifecycle/rollout.h, and where the plan and the apply of
// nsxalb_se_group meet it. The roll's steps, guards and recovery live in the lifecycle layer;
// only the Terraform side is here (docs/design/se-group-resource.md, "Rolling the SEs").
#ifndef NSXALB_PLUGIN_PROVIDER_SE_GROUP_ROLLOUT_H_
#define NSXALB_PLUGIN_PROVIDER_SE_GROUP_ROLLOUT_H_

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "plugin/controller/client.h"
#include "plugin/cty/type.h"
#include "plugin/cty/value.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/provider/se_group_sizing.h"
#include "plugin/segroup/lifecycle/match.h"
#include "plugin/segroup/lifecycle/roll_decision.h"
#include "plugin/segroup/sizing_plan.h"

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

// What a roll's decision is made from, in a plan or an apply.
struct RollContext {
  const cty::Value* config = nullptr;  // the resource's configuration
  const cty::Value* prior = nullptr;   // the state before this plan or apply (not null)
  // The group's sizing plan: the declared workload, the fallback of the capacity guard when the
  // Controller has no samples of the SEs' load; null without one.
  const SizingPlan* plan = nullptr;
  // The group with the settings the roll goes to: in a plan, the Controller's group with the
  // planned typed fields over it; in apply, the group as written.
  controller::SeGroup group;
  // The running SEs matched against the planned settings (AddSesBehindSettings), in a plan; in
  // apply nullopt (they are read again after the write).
  std::optional<segroup::lifecycle::GroupSes> ses;
  RolloutSettings settings;
};

// The roll's decision (plugin/segroup/lifecycle/roll_decision.h) for one group, read from the
// Controller: its running SEs, where their virtual services sit, the load they carry now (the
// Controller's samples over observed_load's window, else the last hour), the licence, the cloud
// and the upgrade state. The one function the plan and apply both call.
struct RollDecisionRead {
  segroup::lifecycle::RollInput input;
  segroup::lifecycle::RollDecision decision;
};
absl::StatusOr<RollDecisionRead> DecideRoll(NsxalbProvider& provider, controller::Client& client,
                                            const RollContext& context);

// Plan: with strategy "rolling", for an existing group whose running SEs lag the planned
// settings (`ses`: what AddSesBehindSettings matched, nullopt when it read nothing), makes the
// roll's decision and says it at rollout.strategy (rule roll-decided-in-plan):
//   - a roll: warning "Apply will roll N SEs" with each step, the guards' verdicts and the
//     predicted peak; the plan is an update (service_engines and last_rollout unknown);
//   - a refusal: warning "Rollout refused by the X guard" with the figures and what to change
//     (an error under sizing_policy = "enforce" unless `enforce_waived` says why not); apply
//     then writes the group's settings only, and the plan is what it would be without the block;
//   - no decision (a read failed): a warning saying why, and no roll.
// `group_body` is the Controller's group with the planned fields over it. The decision's
// fingerprint goes into `planned_private` (apply compares it). last_rollout is unknown whenever
// service_engines is, and otherwise keeps the prior value, so a settled group plans no change.
cty::Value PlanRollout(NsxalbProvider& provider, controller::Client* client,
                       const RollContext& context, cty::Value planned, segroup::SizingPolicy policy,
                       std::string_view enforce_waived, std::string* planned_private,
                       framework::Diagnostics& diagnostics);

// `private_data` (a JSON object, or "") without the plan's roll decision that PlanRollout puts in
// it: what apply keeps in state, and what a plan starts from.
std::string WithoutRollDecision(const std::string& private_data);

// What a roll in apply needs besides the Controller.
struct RolloutApply {
  const cty::Value* config = nullptr;  // the resource's configuration
  const cty::Value* prior = nullptr;   // the state before this apply
  // The group's sizing plan (the capacity guard's fallback); null without one.
  const SizingPlan* plan = nullptr;
  controller::SeGroup group;    // the group as written (or read) by this apply
  std::string planned_private;  // the plan's private data: the decision it showed
};

// Apply, after the group's write: when the plan decided to roll, makes the decision again on
// fresh reads and, when it is the plan's, rolls the SEs that lag (SE by SE; Terraform's
// StopProvider ends it after the current step) and returns `new_state` with last_rollout and
// service_engines as the roll left them. A decision that changed since the plan touches no SE
// and adds an error saying what changed; a stop, a timeout or a failure adds an error naming the
// SEs done and to do, and the state records them, so the next plan shows the SEs still to do and
// the next apply resumes. When the plan decided no roll (strategy "none", a refusal), `new_state`
// with the running SEs read after the write.
cty::Value RollServiceEngines(NsxalbProvider& provider, controller::Client& client,
                              const RolloutApply& apply, cty::Value new_state,
                              framework::Diagnostics& diagnostics);

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_SE_GROUP_ROLLOUT_H_
