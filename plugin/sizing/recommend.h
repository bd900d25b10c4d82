// Recommendation: from a declared workload to SE group settings, with the capacity, utilization
// and basis of every figure. Pure and deterministic.
//
// The size is the smallest single SE, up to max_vcpus_per_se, that carries every demanded metric
// at the target utilization (rule smallest-single-se). If none does, the fewest SEs of
// max_vcpus_per_se that carry it, then the fewest vCPUs per SE with which that many SEs still
// carry it (rule fewest-ses-then-smallest-size). Memory is the table memory of the size, raised
// for open connections to at most twice it (rule memory-at-most-2x-table). So one vCPU fewer, or
// one SE fewer, would not carry the demand, and more demand never gives a smaller (SE count,
// vCPUs) pair.
//
// vcpus_per_se and the SE count rest on the capacities that carry the demand, and memory raised
// for open connections on the open-connection figure: each is labelled with the weakest basis of
// what it rests on (WeakestBasis; rule when that is all measured).
#ifndef NSXALB_PLUGIN_SIZING_RECOMMEND_H_
#define NSXALB_PLUGIN_SIZING_RECOMMEND_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/optional.h"
#include "plugin/sizing/capacity.h"
#include "plugin/sizing/figure.h"
#include "plugin/sizing/limits.h"
#include "plugin/sizing/profiles.h"

namespace nsxalb::sizing {

// Defaults of the workload inputs.
inline constexpr int kDefaultTargetUtilizationPct = 80;  // Avi max_cpu_usage default
inline constexpr int kMinTargetUtilizationPct = 40;      // Avi max_cpu_usage range 40-90
inline constexpr int kMaxTargetUtilizationPct = 90;
inline constexpr int kDefaultMaxVcpusPerSe = 6;     // the measured range
inline constexpr int kDefaultBufferSe = 1;          // Avi buffer_se default
inline constexpr int kDefaultMaxScaleoutPerVs = 4;  // Avi max_scaleout_per_vs default
// Ranges (kMaxVcpus, kMaxScaleoutPerVs, kMaxSeCount, ...) are in limits.h.

// Demand for any subset of the metrics, in base units (Mbps for throughput).
struct Demand {
  std::array<absl::optional<double>, kMetricCount> values;

  // Sets the demand for `metric`.
  void Set(Metric metric, double value) { values[static_cast<int>(metric)] = value; }
  // The demand for `metric`, if any.
  const absl::optional<double>& Get(Metric metric) const {
    return values[static_cast<int>(metric)];
  }
  // True when no metric is demanded.
  bool Empty() const;
};

// A declared workload and the sizing policy for it.
struct Workload {
  Platform platform = Platform::kVcenter;
  Demand demand;
  int target_utilization_pct = kDefaultTargetUtilizationPct;  // 40-90
  int max_vcpus_per_se = kDefaultMaxVcpusPerSe;               // 1-kMaxVcpus
  int buffer_se = kDefaultBufferSe;                           // 0-kMaxSeCount (N+M HA)
  int max_scaleout_per_vs = kDefaultMaxScaleoutPerVs;         // 1-kMaxScaleoutPerVs
};

// One demanded metric on a group of SEs.
struct MetricLoad {
  Metric metric = Metric::kSslTpsEcc;
  double demand = 0;           // base units
  double needed = 0;           // demand * 100 / target utilization
  Figure per_se;               // capacity of one SE
  int se_count = 1;            // active SEs sharing the demand
  double group_capacity = 0;   // per_se * se_count
  double utilization_pct = 0;  // demand / group_capacity * 100
  bool carried = false;        // group_capacity * utilization >= demand
};

// The recommended SE group settings for a workload.
struct Recommendation {
  Platform platform = Platform::kVcenter;
  int target_utilization_pct = kDefaultTargetUtilizationPct;
  Choice<int> vcpus_per_se;
  Choice<int64_t> memory_per_se;  // MB
  Choice<int64_t> disk_per_se;    // GB
  Choice<bool> cpu_reserve;
  Choice<bool> mem_reserve;
  Choice<bool> dedicated_dispatcher_core;
  Choice<int> num_dispatcher_cores;
  Choice<int> max_queues_per_vnic;
  Choice<bool> hybrid_rss_mode;
  Choice<int> se_count;  // active SEs
  int buffer_se = kDefaultBufferSe;
  Choice<int> max_se;
  Figure disk;                     // the disk figure with its rules and source
  SeCapacity capacity;             // one SE of the recommended size
  std::vector<MetricLoad> loads;   // one per demanded metric, in metric order
  absl::optional<Metric> binding;  // the demanded metric with the highest utilization
  std::vector<Finding> findings;   // warnings about the plan
};

// Errors in the workload inputs (attribute "workload.<key>", "buffer_se", ...). Empty when valid.
std::vector<Finding> CheckWorkload(const Workload& workload);

// The recommendation for `workload`. InvalidArgument (naming the attribute) when CheckWorkload
// finds an error or the demand would need more than kMaxSeCount SEs.
absl::StatusOr<Recommendation> Recommend(const Workload& workload);

// The recommendation for a shape decided elsewhere (settings given by the user): `se_count` SEs of
// `vcpus` and `memory_mb`, with everything that follows from the shape as Recommend chooses it
// (disk, reserves, dispatchers, queues, Hybrid RSS, max_se), the loads and binding metric on that
// shape, and the warnings about it. Recommend is its shape search followed by this. The shape's
// own choices have reason "given" (memory: the table-memory rule when it is the table memory).
// InvalidArgument, naming the attribute, when CheckWorkload finds an error or the shape is
// outside the vCPU or memory limits (limits.h) or 1-kMaxSeCount SEs.
absl::StatusOr<Recommendation> RecommendForShape(const Workload& workload, int vcpus,
                                                 int64_t memory_mb, int se_count);

// The loads of the demanded metrics on `se_count` SEs of `capacity`.
std::vector<MetricLoad> LoadsOn(const Workload& workload, const SeCapacity& capacity, int se_count);

// Whether `se_count` SEs of `vcpus` and `memory_mb` carry every demanded metric at the target
// utilization.
bool Carries(const Workload& workload, int vcpus, int64_t memory_mb, int se_count);

// The most memory a recommendation gives an SE of `vcpus`: twice the table memory of the size
// (rule memory-at-most-2x-table), at most kMaxMemoryMb. More is used only when set explicitly.
int64_t MaxRecommendedMemoryMb(Platform platform, int vcpus);

// The least memory, the table memory raised in whole GB, with which `se_count` SEs of `vcpus`
// carry the demanded open connections; nullopt when even MaxRecommendedMemoryMb does not.
absl::optional<int64_t> MemoryFor(const Workload& workload, int vcpus, int se_count);

// How many dedicated dispatcher cores to configure, and why.
struct DispatcherPlan {
  int cores = 0;
  Basis basis = Basis::kRule;
  const char* rule = "";
  std::string reason;
};

// The dispatcher cores for `vcpus` on `platform`, as measured where measured (see rules.h).
DispatcherPlan PlanDispatchers(Platform platform, int vcpus, bool l4_throughput_binds);

// The dispatcher core counts that match a measured configuration (or the rule) at `vcpus`.
std::vector<int> AcceptedDispatcherCores(Platform platform, int vcpus);

}  // namespace nsxalb::sizing

#endif  // NSXALB_PLUGIN_SIZING_RECOMMEND_H_
