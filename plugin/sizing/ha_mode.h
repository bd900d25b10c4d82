// The SE group's high-availability mode (Avi ha_mode) and what it means for the SE count.
//
// - HA_MODE_SHARED (N+M, Avi's default): N active SEs carry the workload; buffer_se spare SEs
//   stand by for any of them. max_se = N + buffer_se (rule max-se-covers-buffer).
// - HA_MODE_SHARED_PAIR (active/active): every virtual service is placed on at least two SEs;
//   there is no buffer. At least 2 active SEs, max_se = the active SEs, and the loss of one SE
//   must leave the rest within 100% of their capacity (rule active-active-survives-one-se-loss).
// - HA_MODE_LEGACY_ACTIVE_STANDBY: one active SE and one standby that carries no traffic; no
//   scale-out. max_se = 2 (rule legacy-active-standby-one-active).
#ifndef NSXALB_PLUGIN_SIZING_HA_MODE_H_
#define NSXALB_PLUGIN_SIZING_HA_MODE_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace nsxalb::sizing {

// Avi's ha_mode values.
enum class HaMode { kShared = 0, kSharedPair, kLegacyActiveStandby };

// "HA_MODE_SHARED", "HA_MODE_SHARED_PAIR" or "HA_MODE_LEGACY_ACTIVE_STANDBY".
const char* HaModeName(HaMode mode);

// "N+M", "active/active" or "active/standby".
const char* HaModeShortName(HaMode mode);

// Parses one of Avi's ha_mode values (exactly); InvalidArgument naming the accepted values.
absl::StatusOr<HaMode> ParseHaMode(absl::string_view name);

// The fewest active SEs the mode allows: 2 in active/active, else 1.
int MinActiveSes(HaMode mode);

// The fewest SEs a virtual service is placed on in the mode: 2 in active/active, else 1.
int MinScaleoutOfMode(HaMode mode);

// Whether the mode scales out beyond one active SE (not in legacy active/standby).
bool ScalesOut(HaMode mode);

// The SEs a virtual service is placed on with a hand-set min_scaleout_per_vs `given`: at least
// the mode's minimum; 1 in legacy active/standby, which does not scale out.
int GivenScaleoutInMode(HaMode mode, int given);

}  // namespace nsxalb::sizing

#endif  // NSXALB_PLUGIN_SIZING_HA_MODE_H_
