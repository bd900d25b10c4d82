// The roll's operations (rollout.h's RolloutOperations) over the Controller client: disable,
// enable, delete and reboot one SE, its runtime, and the group's SEs with their oper status.
//
// Interruption: Terraform's StopProvider cancels the provider's client (Client::Cancel, which is
// irreversible), and the roll must still give back an SE it disabled. So Restore does not use
// that client: it makes a client of its own (a new session, `restore_client`) with a short
// total_timeout (kRestoreTimeout) and sets the SE's enable_state back with it. No Terraform types.
#ifndef NSXALB_PLUGIN_SEGROUP_LIFECYCLE_ROLLOUT_CLIENT_H_
#define NSXALB_PLUGIN_SEGROUP_LIFECYCLE_ROLLOUT_CLIENT_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "plugin/controller/client.h"
#include "plugin/segroup/lifecycle/roll_decision.h"
#include "plugin/segroup/lifecycle/rollout.h"

namespace nsxalb::segroup::lifecycle {

// How long Restore's own client may take to enable an SE again, retries included.
inline constexpr absl::Duration kRestoreTimeout = absl::Seconds(60);

// Makes the short-lived client Restore uses (a new session that the stop has not cancelled),
// with total_timeout at most kRestoreTimeout.
using RestoreClientFactory = std::function<absl::StatusOr<std::unique_ptr<controller::Client>>()>;

// What a roll of one group starts from, read from the Controller: the SEs that lag (in roll
// order), the shape a replacement gets, and the guards' figures.
struct RolloutInput {
  controller::SeGroup group;
  std::vector<LaggingSe> lagging;
  int running = 0;
  // The running SEs against the group's settings (MatchSettings): what CapacityWithSesOut
  // (rollout_capacity.h) reads.
  GroupSes ses;
  TargetShape target;
  GuardFigures guards;
  // The group's placement settings, and where its virtual services sit now (SE uuid -> the
  // names of those it hosts); placement_known false when the inventory could not be read
  // (placement_error says why).
  PlacementSettings placement;
  std::map<std::string, std::vector<std::string>> virtual_services;
  bool placement_known = true;
  std::string placement_error;
  // The Controller's upgrade of this group or of the system, when one is unfinished
  // (UpgradeStatus::Describe); upgrade_unknown says why it could not be told, when not.
  std::optional<std::string> upgrade;
  std::string upgrade_unknown;
};

// The decision's input from what ReadRolloutInput read, the load the SEs carry now, the declared
// workload's fallback figures (CapacityWithSesOut, known = false without a workload), and how the
// roll runs. The target utilization is the declared figures' when known, else the group's
// max_cpu_usage, else 80.
RollInput RollInputOf(const RolloutInput& read, CurrentLoad load, const CapacityFigures& declared,
                      int max_unavailable, int spare_replacements);

// Reads `group` (tenant "" the client's default): its running SEs (one tenant listing with their
// runtime), which lag and why (match.h, the Controller's se_grp_reboot_pending for the reboot
// fields), the target shape (vcpus_per_se, memory_per_se; the catalog's defaults when unset),
// the HA mode's minimum, the cloud (CLOUD_NONE creates no SE) and, when an SE is to be replaced,
// the licence: the group's tier (its license_tier, else its cloud's) and its remaining units in
// one read of the Controller's ledger (GET /api/licensing/ledger/details; a failure leaves the
// figure unknown, and the guard refuses, saying why), against the Service Units of one SE at the
// target vCPUs (rule service-units-per-se); the group's placement settings and where its virtual
// services sit (one paged inventory listing, ListServiceEnginePlacements; a failure leaves
// placement_known false); and whether the Controller runs an upgrade of the group or the system
// (GetUpgradeStatus; a failure or a Controller without the API leaves it unknown, saying why).
// The capacity's CPU figure is the caller's (`capacity` when known: it knows the workload).
absl::StatusOr<RolloutInput> ReadRolloutInput(controller::Client& client,
                                              const controller::SeGroup& group,
                                              std::string_view tenant,
                                              const CapacityFigures& capacity);

// RolloutOperations on the SEs of the group `group_uuid` in `tenant` ("" the client's default).
class ClientRolloutOperations : public RolloutOperations {
 public:
  // `client` must outlive this object.
  ClientRolloutOperations(controller::Client& client, std::string group_uuid, std::string tenant,
                          RestoreClientFactory restore_client);

  absl::Status Disable(const std::string& uuid) override;
  absl::Status Enable(const std::string& uuid) override;
  absl::Status Restore(const std::string& uuid) override;
  absl::StatusOr<ObservedSe> Observe(const std::string& uuid) override;
  // One paged listing of the group's SEs, and the runtime of each (GET .../runtime).
  absl::StatusOr<std::vector<ObservedSe>> ListGroup() override;
  absl::Status Delete(const std::string& uuid) override;
  absl::Status Reboot(const std::string& uuid) override;

 private:
  controller::Client& client_;
  const std::string group_uuid_;
  const std::string tenant_;
  RestoreClientFactory restore_client_;
};

}  // namespace nsxalb::segroup::lifecycle

#endif  // NSXALB_PLUGIN_SEGROUP_LIFECYCLE_ROLLOUT_CLIENT_H_
