// How every front end shows a group's running SEs, so that `controller usage`, the data sources,
// plan-report and the Ansible modules say the same: each SE with its shape (vCPUs, memory, disk),
// its enable and oper state, and whether it matches the group's settings (and why not, with the
// fields), as JSON with the data sources' attribute names; and the resource's `service_engines`
// summary, written and read back (plan-report reads it from a plan). The match itself is
// match.h's; nothing here decides it. Pure; no Terraform types.
#ifndef NSXALB_PLUGIN_SEGROUP_LIFECYCLE_SES_VIEW_H_
#define NSXALB_PLUGIN_SEGROUP_LIFECYCLE_SES_VIEW_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "plugin/segroup/lifecycle/match.h"

namespace nsxalb::segroup::lifecycle {

// The SEs of group `group_uuid` in `listed` (a tenant's or the group's listing) against
// `settings` (by Avi field name) as read, without state: no reboot-only field is recorded, so an
// SE lags on a reboot only when the Controller reports its reboot pending.
GroupSes MatchListed(const std::vector<controller::ServiceEngine>& listed,
                     std::string_view group_uuid, const nlohmann::json& settings);

// The LaggingSe of the SE `uuid`, or nullptr when it matches or is not among `ses.running`.
const LaggingSe* LagOf(const GroupSes& ses, std::string_view uuid);

// What the front ends add to an SE: {disk_gb, enable_state, oper_state, matches, why, fields}:
// disk_gb null when unknown, the states null when unknown; matches true or false (null when the
// SE is not among `ses.running`); why null when it matches, else "new-ses-only" or
// "after-se-reboot"; fields the ones it lags on (empty when it matches).
nlohmann::json SeMatchJson(const GroupSes& ses, std::string_view uuid);

// One running SE: {uuid, name, vcpus, memory_mb (null when unknown)} and SeMatchJson.
nlohmann::json RunningSeJson(const GroupSes& ses, const RunningSe& se);

// Every running SE (RunningSeJson), in the order of `ses.running`.
nlohmann::json RunningSesJson(const GroupSes& ses);

// The resource's `service_engines` summary: {running, matching, lagging [{name, vcpus,
// memory_mb, why, fields}], reboot_fields}.
nlohmann::json ServiceEnginesSummaryJson(const GroupSes& ses);

// That summary read back (from a plan's JSON) as the running SEs it describes: the lagging ones
// named, with their shape (reboot_pending when they lag on a reboot), and the matching ones
// as "SE #1", "SE #2" (the summary does not name them), at the shape of `matched_settings` (the
// settings, by Avi field name, the summary was matched against: they had it). Match them again
// (MatchSettings) against the settings a plan leaves. InvalidArgument naming the member
// ("service_engines.lagging[1].vcpus: want a whole number") when it has another shape.
absl::StatusOr<std::vector<RunningSe>> RunningSesFromSummaryJson(
    const nlohmann::json& summary, const nlohmann::json& matched_settings);

// "4 vCPUs, 8,192 MB, 20 GB" (a size the Controller did not give left out; "size unknown" when
// none is known).
std::string ShapeText(const RunningSe& se);

// "matches the settings", or "behind the settings: new-ses-only (vcpus_per_se, memory_per_se)",
// "behind the settings: after-se-reboot (num_dispatcher_cores)" or "behind the settings:
// after-se-reboot (the Controller reports a reboot pending)".
std::string MatchText(const GroupSes& ses, const RunningSe& se);

}  // namespace nsxalb::segroup::lifecycle

#endif  // NSXALB_PLUGIN_SEGROUP_LIFECYCLE_SES_VIEW_H_
