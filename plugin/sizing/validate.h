// Validation of explicit SE group settings, alone or against a workload: errors for values the
// platform cannot take, warnings (with numbers and a remedy) for what the seeds advise against.
// Each finding names the attribute it concerns. Pure and deterministic.
#ifndef NSXALB_PLUGIN_SIZING_VALIDATE_H_
#define NSXALB_PLUGIN_SIZING_VALIDATE_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "plugin/sizing/capacity.h"
#include "plugin/sizing/figure.h"
#include "plugin/sizing/recommend.h"

namespace nsxalb::sizing {

// Explicit settings; any subset may be given. Names are the Avi / Terraform attributes, except
// se_count: the number of active SEs the workload is spread over.
struct Settings {
  std::optional<int> vcpus_per_se;
  std::optional<int64_t> memory_per_se;  // MB
  std::optional<int64_t> disk_per_se;    // GB
  std::optional<bool> cpu_reserve;
  std::optional<bool> mem_reserve;
  std::optional<bool> dedicated_dispatcher_core;
  std::optional<int> num_dispatcher_cores;
  std::optional<int> max_queues_per_vnic;
  std::optional<bool> hybrid_rss_mode;
  std::optional<int> se_count;
  std::optional<int> max_se;  // checked against the HA mode and the virtual-service slots
  // With several virtual services, the SEs each is placed on (Avi min_scaleout_per_vs; with one,
  // it is se_count): checked against the HA mode and the slots.
  std::optional<int> min_scaleout_per_vs;
  // Avi max_cpu_usage (40-90): the CPU at which the group rebalances and scales out. The
  // workload's target utilization follows it when the workload sets none (plugin/segroup); a
  // target above it is a warning (rule target-within-max-cpu-usage).
  std::optional<int> max_cpu_usage;

  // True when no setting is given.
  bool Empty() const;
};

// What validation found. The effective shape is the given settings, the rest filled in: vCPUs
// from the recommendation (1 without a workload); memory from the recommendation, or the table
// memory for the given vCPUs; SE count, when vCPUs are given, the least the HA mode and the
// virtual-service slots allow (LeastActiveSes: 1 for one virtual service in N+M, Avi's
// min_scaleout_per_vs default; 2 in active/active), else the recommendation's.
//
// Under-sizing findings (rules::IsUnderSizing): one per metric judged alone that is not carried;
// one for the CPU budget (demand-within-capacity; with a single CPU-bound metric it reads as that
// metric's, with several it names the sum and each part); in active/active, one when the loss of
// an SE would overload the rest; in legacy active/standby the rule is
// legacy-active-standby-one-active and the remedy names what another mode needs.
struct Validation {
  int vcpus = 0;
  int64_t memory_mb = 0;
  int se_count = 1;
  std::optional<SeCapacity> capacity;  // absent when vcpus or memory is invalid
  std::vector<MetricLoad> loads;       // the workload's demanded metrics on the effective SEs
  CpuLoad cpu;                         // the CPU budget of one effective SE
  std::optional<Recommendation> recommendation;  // for the workload, when it is valid
  std::vector<Finding> findings;
  bool under_sized = false;  // some under-sizing finding was made

  // True when some finding is an error.
  bool HasErrors() const;
};

// Validates `settings` for `workload` (whose demand may be empty: then only the settings are
// checked).
Validation Validate(const Workload& workload, const Settings& settings);

}  // namespace nsxalb::sizing

#endif  // NSXALB_PLUGIN_SIZING_VALIDATE_H_
