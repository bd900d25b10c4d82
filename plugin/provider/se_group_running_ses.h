// The resource's running SEs: the computed `service_engines` attribute (read at refresh, written
// after an apply) and the plan's finding ses-behind-settings. Only the conversion between cty
// values and plugin/segroup/lifecycle lives here; the listing is the provider's one shared
// listing of the tenant's SEs (NsxalbProvider::se_listing), never a request per group or per SE.
#ifndef NSXALB_PLUGIN_PROVIDER_SE_GROUP_RUNNING_SES_H_
#define NSXALB_PLUGIN_PROVIDER_SE_GROUP_RUNNING_SES_H_

#include <optional>
#include <string>
#include <vector>

#include "plugin/controller/client.h"
#include "plugin/cty/type.h"
#include "plugin/cty/value.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/provider/se_group_sizing.h"
#include "plugin/segroup/lifecycle/match.h"

namespace nsxalb::provider {

class NsxalbProvider;

// The `service_engines` attribute's cty type (provider_schema/resources/nsxalb_se_group.json).
cty::Type ServiceEnginesObjectType();

// The attribute's value for `ses`.
cty::Value ServiceEnginesValue(const segroup::lifecycle::GroupSes& ses);

// The reboot-only fields `state` records (service_engines.reboot_fields); empty when it has none.
std::vector<std::string> RecordedRebootFields(const cty::Value& state);

// Refresh: `state` with service_engines of `group` as the Controller runs it (its SEs against
// the group's settings as read, with the reboot-only fields `state` recorded). When the listing
// fails, `state` unchanged and a warning (an error when the call was cancelled).
cty::Value WithRunningSes(NsxalbProvider& provider, controller::Client& client,
                          const cty::Value& state, const controller::SeGroup& group,
                          framework::Diagnostics& diagnostics);

// After a create (a new group runs no SE) or an update: `new_state` with service_engines of its
// SEs against the settings written; the after-se-reboot fields the update changed (from `prior`
// to `new_state`) wait for every running SE's reboot. Null with a warning when the listing fails.
cty::Value WithRunningSesAfterApply(NsxalbProvider& provider, controller::Client& client,
                                    const cty::Value& prior, const cty::Value& new_state,
                                    framework::Diagnostics& diagnostics);

// Plan: the finding ses-behind-settings (always a warning) when the plan changes a field that
// does not reach running SEs or an SE already lags, at the line of each field concerned (the
// workload's for a field the sizing plans). Reads the shared listing only when the prior state
// records running SEs and there is something to say, so a settled group costs no request.
// `plan` is the sizing plan (null without one). Returns the group's SEs matched against the
// planned settings when it read them (something lags or the plan changes a field that does not
// reach running SEs), nullopt otherwise.
std::optional<segroup::lifecycle::GroupSes> AddSesBehindSettings(
    NsxalbProvider& provider, controller::Client& client, const cty::Value& config,
    const cty::Value& prior, const cty::Value& planned, const SizingPlan* plan,
    framework::Diagnostics& diagnostics);

// After a roll of the SEs (se_group_rollout.h): `new_state` with service_engines from a listing
// of the tenant's SEs made now, as WithRunningSesAfterApply otherwise (the process's shared
// listing predates the roll). Null with a warning when the listing fails.
cty::Value WithRunningSesAfterRoll(controller::Client& client, const cty::Value& prior,
                                   const cty::Value& new_state,
                                   framework::Diagnostics& diagnostics);

// The planned service_engines: the prior value when the plan changes nothing, unknown when it
// changes the group (apply reads it again), unknown on create.
cty::Value PlanServiceEngines(const cty::Value& prior, cty::Value planned);

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_SE_GROUP_RUNNING_SES_H_
