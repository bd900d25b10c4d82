// The emulated Controller's upgrade state: what GET /api/upgradestatusinfo answers (swagger
// UpgradeStatusInfo: the Controller cluster's entry and one per SE group), set by the control
// endpoint (POST /_emulator/upgrade) to a system upgrade or one SE group's upgrade in progress
// and back. While an upgrade is unfinished the Controller blocks placement changes (reference
// avi-se-lifecycle.md, section 8); the Server refuses an SE's enable_state change, delete and
// reboot in a group that upgrades (or during a system upgrade), asking Blocking(). Everything
// completed by default. Thread-safe. docs/emulator.md ("Upgrades") documents the shapes.
#ifndef NSXALB_EMULATOR_UPGRADE_H_
#define NSXALB_EMULATOR_UPGRADE_H_

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "nlohmann/json.hpp"

namespace nsxalb::emulator {

// The upgrade state of the emulated Controller.
class Upgrades {
 public:
  // `clock_ms`: milliseconds since the epoch (the states' last_changed_time).
  explicit Upgrades(std::function<int64_t()> clock_ms);

  // The control endpoint's change, keys all optional, applied in this order:
  //   "reset": true                 every state back to UPGRADE_FSM_COMPLETED;
  //   "system": "<state>"           the Controller cluster's entry (a system upgrade: `system`
  //                                 true on that entry);
  //   "se_groups": {"<group>": "<state>", ...}   SE groups by uuid or name (resolved by
  //                                 `group_uuid`, whose error is returned naming the key).
  // A state is one of the swagger's UpgradeOpsState.state values (UPGRADE_FSM_*,
  // UPGRADE_PRE_CHECK_*); InvalidArgument naming the key otherwise, and nothing changes.
  absl::Status Update(
      const nlohmann::json& body,
      const std::function<absl::StatusOr<std::string>(const std::string&)>& group_uuid);

  // {"system": "<state>", "se_groups": {"<uuid>": "<state>", ...}} (groups set at least once).
  nlohmann::json ToJson();

  // The API's entries: the Controller cluster's, then one per SE group of `groups` (stored SE
  // group objects; refs rendered under `base_url`), UpgradeStatusInfo's fields: uuid, name, url,
  // node_type, obj_cloud_ref (groups), tenant_ref, state {state, last_changed_time {secs, usecs},
  // reason?}, system (the cluster's), upgrade_ops, version (`version`), progress.
  std::vector<nlohmann::json> Entries(const std::vector<nlohmann::json>& groups,
                                      const std::string& base_url, const std::string& version);

  // Why a placement change of the SE group `group_uuid` is refused now ("" when it is not): an
  // unfinished system upgrade, or that group's.
  std::string Blocking(const std::string& group_uuid);

 private:
  struct State {
    std::string state = "UPGRADE_FSM_COMPLETED";
    int64_t since_ms = 0;
  };

  const std::function<int64_t()> clock_ms_;
  const std::string cluster_uuid_;
  absl::Mutex mu_;
  State system_ ABSL_GUARDED_BY(mu_);
  bool system_flag_ ABSL_GUARDED_BY(mu_) = false;
  std::map<std::string, State> groups_ ABSL_GUARDED_BY(mu_);
};

}  // namespace nsxalb::emulator

#endif  // NSXALB_EMULATOR_UPGRADE_H_
