// The Controller's upgrade status (GET /api/upgradestatusinfo, swagger UpgradeStatusInfo,
// 18.2.6+), typed: whether an upgrade is unfinished, of what (the Controller cluster, the whole
// system, or which SE groups), and in which state. A roll of an SE group must not overlap an
// upgrade: the Controller pauses placement for a group whose SEs upgrade, and blocks the
// placement of virtual services during a system upgrade (reference avi-se-lifecycle.md,
// section 8). The decode is pure and checks every field it keeps.
#ifndef NSXALB_PLUGIN_CONTROLLER_UPGRADE_STATUS_H_
#define NSXALB_PLUGIN_CONTROLLER_UPGRADE_STATUS_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace nsxalb::controller {

// UpgradeStatusInfo.node_type values.
inline constexpr char kUpgradeNodeControllerCluster[] = "NODE_CONTROLLER_CLUSTER";
inline constexpr char kUpgradeNodeSeGroup[] = "NODE_SE_GROUP";
inline constexpr char kUpgradeNodeSe[] = "NODE_SE_TYPE";

// One UpgradeStatusInfo entry: the Controller cluster, an SE group or an SE.
struct UpgradeNode {
  std::string uuid;         // the system's uuid: the cluster's, the SE group's or the SE's
  std::string name;         // "" when absent
  std::string node_type;    // kUpgradeNode*; "" when absent
  std::string state;        // state.state, e.g. "UPGRADE_FSM_COMPLETED"; "" when absent
  std::string reason;       // state.reason, else reason; "" when absent
  bool system = false;      // the cluster's entry of an upgrade started as a system upgrade
  std::string upgrade_ops;  // "UPGRADE", "PATCH", "ROLLBACK", ...; "" when absent
  std::string version;      // the node's current base image version; "" when absent
  // UpgradeStateUnfinished(state).
  bool unfinished = false;
};

// What GET /api/upgradestatusinfo says.
struct UpgradeStatus {
  // False when the Controller has no such API (404: a Controller before 18.2.6, or one that
  // hides it): nothing is known, and the caller must say so rather than assume no upgrade.
  bool known = false;
  // Every entry, in the Controller's order.
  std::vector<UpgradeNode> nodes;

  // An unfinished upgrade of the Controller cluster (a system upgrade when its entry says
  // `system`, which then goes on to upgrade every SE group).
  bool ControllerUpgrading() const;
  bool SystemUpgrading() const;
  // The SE group entries whose upgrade is unfinished.
  std::vector<UpgradeNode> SeGroupsUpgrading() const;
  // Whether the SE group `se_group_uuid` (a uuid) is upgrading: its own entry is unfinished, or
  // a system upgrade is.
  bool SeGroupUpgrading(std::string_view se_group_uuid) const;
  // Any unfinished upgrade: the Controller's or an SE group's (SE entries count through their
  // group's entry only).
  bool InProgress() const;
  // A sentence for a message: "a system upgrade (UPGRADE_FSM_IN_PROGRESS)", "the upgrade of SE
  // group web (UPGRADE_FSM_SUSPENDED)", ... joined with "; "; "no upgrade" when none, "unknown
  // (the Controller has no /api/upgradestatusinfo)" when !known.
  std::string Describe() const;
};

// Whether an UpgradeOpsState.state means an upgrade (or its pre-checks, or a rollback) started
// and has not finished. Finished or idle: "", UPGRADE_FSM_INIT, UPGRADE_FSM_COMPLETED,
// UPGRADE_FSM_ABORTED, UPGRADE_PRE_CHECK_SUCCESS, UPGRADE_PRE_CHECK_WARNING,
// UPGRADE_PRE_CHECK_ERROR. Every other state is unfinished, UPGRADE_FSM_ERROR,
// UPGRADE_FSM_SUSPENDED, UPGRADE_FSM_PAUSED and UPGRADE_FSM_ENQUEUE_FAILED included (an upgrade
// stopped half way leaves SEs of two versions: the safer reading), and states this list does
// not know.
bool UpgradeStateUnfinished(std::string_view state);

// Decodes the entries of the collection (`results` of every page, in order). Errors (Internal)
// name the entry and field: "upgradestatusinfo[2].state.state: expected a string", an entry that
// is not an object or has no uuid.
absl::StatusOr<UpgradeStatus> DecodeUpgradeStatus(const std::vector<nlohmann::json>& entries);

}  // namespace nsxalb::controller

#endif  // NSXALB_PLUGIN_CONTROLLER_UPGRADE_STATUS_H_
