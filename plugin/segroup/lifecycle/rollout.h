// The roll of an SE group's Service Engines to its current settings: the SEs a change does not
// reach (new-ses-only: replaced; after-se-reboot: rebooted) taken through the Controller's
// documented steps (replaced: disable, wait until its virtual services migrated and the
// Controller's replacement at the new shape is up, delete; rebooted: disable, wait, reboot, wait
// until up without a reboot pending, enable), in a stable order (by name), at most max_unavailable
// at a time. Whether to roll at all (the guards: upgrade, HA mode, capacity, placement, cloud,
// licence) is the roll's decision (roll_decision.h), made before the first SE is touched.
//
// The SEs to roll are match.h's LaggingSe: `why` kNewSesOnly is replaced, kAfterSeReboot rebooted.
// Pure logic: the Controller is reached only through the small RolloutOperations interface
// (the product's wraps controller::Client, rollout_client.h; the unit tests drive a fake), time
// through controller::Clock, and interruption through a notification. A stop or a per-SE timeout
// ends the roll after the current step; an SE that was disabled and not yet deleted or rebooted
// is enabled again through RolloutOperations::Restore, which must work after the stop (see
// docs/design/se-group-resource.md, "Rolling the SEs"). No Terraform types.
#ifndef NSXALB_PLUGIN_SEGROUP_LIFECYCLE_ROLLOUT_H_
#define NSXALB_PLUGIN_SEGROUP_LIFECYCLE_ROLLOUT_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "plugin/controller/backoff.h"
#include "plugin/segroup/lifecycle/match.h"
#include "plugin/sizing/profiles.h"

namespace nsxalb::segroup::lifecycle {

// The shape a replacement SE is created at (the group's current settings).
struct TargetShape {
  int num_vcpus = 0;
  int64_t memory_mb = 0;
};

// One SE as the roll observes it.
struct ObservedSe {
  std::string uuid;
  std::string name;
  std::string oper_state;         // OPER_UP, OPER_DISABLING, OPER_DISABLED, ...
  std::string migrate_state;      // runtime.migrate_state, e.g. SE_MIGRATE_STATE_STARTED; "" none
  bool migration_failed = false;  // the last migration ended with MIGRATE_SE_FAILED
  int virtual_services = 0;
  bool reboot_pending = false;
  int num_vcpus = 0;
  int64_t memory_mb = 0;
};

// What the roll asks of the Controller. Errors are the client's (errors.h codes); NotFound from
// Observe means the SE is gone.
class RolloutOperations {
 public:
  virtual ~RolloutOperations() = default;
  // enable_state = SE_STATE_DISABLED: the SE takes no new placement and migrates its virtual
  // services away.
  virtual absl::Status Disable(const std::string& uuid) = 0;
  // enable_state = SE_STATE_ENABLED (after a reboot).
  virtual absl::Status Enable(const std::string& uuid) = 0;
  // enable_state = SE_STATE_ENABLED for an SE the roll disabled and is giving back after a stop,
  // a timeout or an error: must work even when the roll's own calls are cancelled (its own
  // short-lived session, bounded by its own deadline).
  virtual absl::Status Restore(const std::string& uuid) = 0;
  // The SE's runtime and shape.
  virtual absl::StatusOr<ObservedSe> Observe(const std::string& uuid) = 0;
  // Every SE of the group now, with its runtime and shape.
  virtual absl::StatusOr<std::vector<ObservedSe>> ListGroup() = 0;
  virtual absl::Status Delete(const std::string& uuid) = 0;
  virtual absl::Status Reboot(const std::string& uuid) = 0;
};

// How the roll runs.
struct RolloutOptions {
  int max_unavailable = 1;                            // SEs out at once, 1 or more
  absl::Duration timeout_per_se = absl::Minutes(30);  // for all the steps of one SE (a batch)
  // Between two reads while waiting: the first wait of each step is first_poll_interval, and
  // each next one doubles, up to poll_interval (a fast step costs few reads, a slow one one read
  // every poll_interval).
  absl::Duration first_poll_interval = absl::Milliseconds(250);
  absl::Duration poll_interval = absl::Seconds(5);
  // Replacements an earlier roll already made: SEs at the target shape that the Controller
  // created for an SE that roll then enabled again when it stopped (Ctrl-C, a timeout or a failure
  // between the replacement's creation and the old SE's deletion). The Controller keeps them
  // (the virtual services scale out onto them), so disabling that old SE again creates no new SE;
  // each counts as one replacement already up. The caller knows them from the earlier roll's
  // record (the resource's last_rollout); 0 when there was none.
  int spare_replacements = 0;
  // Called with each step's line as it is logged at INFO (the CLI prints them); may be empty.
  std::function<void(const std::string&)> on_step;
};

// The figures the guards of the roll's decision (roll_decision.h) read: the declared workload on
// the SEs left (CapacityWithSesOut, the fallback when the Controller has no samples of the load),
// the licence ledger and the cloud.
struct CapacityFigures {
  bool known = false;          // false: no workload to check against (the guard passes, says so)
  int running_ses = 0;         // SEs of the group that run now
  int ha_minimum_ses = 1;      // the HA mode's minimum
  double cpu_percent_out = 0;  // CPU of the SEs left with max_unavailable out, at their shape
  // What cpu_percent_out measures: "CPU" (the CPU budget, or a CPU-bound metric alone), else
  // the binding metric's capacity, such as "of their L4 open connections capacity".
  std::string measure = "CPU";
  double target_percent = 80;  // max_cpu_usage or the target
  std::string load;            // "the observed peak of ..." or "the declared workload ..."
  std::string basis;           // the figure's basis (measured, interpolated, ...)
  // The throughput the declared workload states, for the roll's capacity guard on measured load
  // (rule roll-throughput-keeps-its-bits): the kinds it sets among l4_gbps, l7_gbps and
  // l7_ssl_gbps (metric order) and the platform their capacities are read on. Empty: the
  // workload states no throughput (or there is none), and throughput is not judged.
  std::vector<sizing::Metric> throughput_kinds;
  sizing::Platform platform = sizing::Platform::kVcenter;
};
struct LicenseFigures {
  bool known = false;            // false: the ledger could not be read (the guard refuses)
  std::string unknown_reason;    // why not, when not known
  std::string tier;              // e.g. ENTERPRISE
  double remaining_units = 0;    // the tier's remaining Service Units
  double replacement_units = 0;  // the Service Units of the largest replacement SE
};
struct CloudFigures {
  std::string name;
  bool creates_ses = true;  // false: a no-access cloud, nothing replaces a deleted SE
};
struct GuardFigures {
  CapacityFigures capacity;
  LicenseFigures license;
  CloudFigures cloud;
};

// What the roll did: the SEs done, the SEs still to do (in order), and the first failure.
struct RolloutResult {
  std::vector<std::string> done;
  std::vector<std::string> to_do;
  absl::Status status;
};

// The lagging SEs in the roll's order: by name, then uuid.
std::vector<LaggingSe> RollOrder(std::vector<LaggingSe> ses);

// One sentence for the plan and the dry run: "rollout: checkout-se-1, -2 and -3 will be replaced
// one at a time, 4 vCPUs -> 5" (and "rebooted" for a reboot-only lag). "" when nothing lags.
std::string DescribeRollout(const std::vector<LaggingSe>& ses, const TargetShape& target,
                            int max_unavailable);

// The roll's options checked: InvalidArgument naming max_unavailable (1 or more) or the timeout
// (longer than 0s).
absl::Status CheckRolloutOptions(const RolloutOptions& options);

// Runs the roll of `ses` as decided (roll_decision.h: the caller runs it only when the decision
// is to roll; the guards are the decision's, made before this call): each SE in RollOrder, batch
// by batch of max_unavailable. `stop` (may be null) ends it after the current step. Every step
// is logged at INFO. The result's status is OK when every SE is done; otherwise it names the SE
// and step, and lists the SEs done and to do (InvalidArgument, before any write, for options
// CheckRolloutOptions refuses).
RolloutResult RunRollout(std::vector<LaggingSe> ses, const TargetShape& target,
                         const RolloutOptions& options, RolloutOperations& ops,
                         controller::Clock& clock, absl::Notification* stop);

}  // namespace nsxalb::segroup::lifecycle

#endif  // NSXALB_PLUGIN_SEGROUP_LIFECYCLE_ROLLOUT_H_
