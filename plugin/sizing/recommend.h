// Recommendation: from a declared workload to SE group settings, with the capacity, utilization
// and basis of every figure. Pure and deterministic.
//
// A group carries a workload when, on each active SE, the CPU-bound metrics together fit one CPU
// budget within the target utilization (rule one-cpu-budget-per-se, cpu_budget.h) and the
// throughput and open connections, each judged alone, fit too; in active/active the loss of one SE
// must also leave the rest within 100% (ha_mode.h).
//
// The least active count is what the HA mode and the virtual-service slots ask for (1; 2 in
// active/active; enough SEs for workload.virtual_services at max_vs_per_se). The size is the
// smallest SE, up to max_vcpus_per_se, with which that many SEs carry the workload (rules
// smallest-single-se, smallest-se-at-least-active-count). If none does, the fewest SEs of
// max_vcpus_per_se that carry it, then the fewest vCPUs per SE with which that many SEs still
// carry it (rule fewest-ses-then-smallest-size); legacy active/standby does not scale out, so
// there the largest SE is planned and validation reports the limit. Memory is the table memory of
// the size, raised for open connections to at most twice it (rule memory-at-most-2x-table). So one
// vCPU fewer, or one SE fewer, would not carry the demand, and more demand never gives a smaller
// (SE count, vCPUs) pair.
//
// vcpus_per_se and the SE count rest on the capacities that carry the demand, and memory raised
// for open connections on the open-connection figure: each is labelled with the weakest basis of
// what it rests on (WeakestBasis; rule when that is all measured).
#ifndef NSXALB_PLUGIN_SIZING_RECOMMEND_H_
#define NSXALB_PLUGIN_SIZING_RECOMMEND_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "plugin/sizing/capacity.h"
#include "plugin/sizing/cpu_budget.h"
#include "plugin/sizing/figure.h"
#include "plugin/sizing/ha_mode.h"
#include "plugin/sizing/limits.h"
#include "plugin/sizing/profiles.h"
#include "plugin/sizing/service_units.h"

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
  std::array<std::optional<double>, kMetricCount> values;

  // Sets the demand for `metric`.
  void Set(Metric metric, double value) { values[static_cast<int>(metric)] = value; }
  // The demand for `metric`, if any.
  const std::optional<double>& Get(Metric metric) const { return values[static_cast<int>(metric)]; }
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
  HaMode ha_mode = HaMode::kShared;                           // Avi ha_mode
  // How many virtual services the group places (1-kMaxVirtualServices); unset: the workload is
  // one virtual service, scaled out over every active SE.
  std::optional<int> virtual_services;
  int max_vs_per_se = kDefaultMaxVsPerSe;  // Avi max_vs_per_se, 1-kMaxVsPerSe
  // Avi max_num_se_dps and per_app: what one SE costs in Service Units (service_units.h). They
  // change no shape; the recommendation's service_units follows them.
  ServiceUnitSettings service_unit_settings;
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
  Choice<int> se_count;             // active SEs
  Choice<int> min_scaleout_per_vs;  // SEs each virtual service is placed on
  HaMode ha_mode = HaMode::kShared;
  int buffer_se = kDefaultBufferSe;  // 0 outside N+M, where there is no buffer
  Choice<int> max_se;
  // What the planned SEs cost in licences: per SE, and at max_se (rules service-units-per-se and
  // service-units-at-planned-scale).
  ServiceUnits service_units;
  Figure disk;                    // the disk figure with its rules and source
  SeCapacity capacity;            // one SE of the recommended size
  std::vector<MetricLoad> loads;  // one per demanded metric, in metric order
  CpuLoad cpu;                    // the CPU budget of one SE under the loads
  bool carried = true;            // the planned SEs carry the workload (see the file comment)
  // What binds: the CPU budget when two or more CPU-bound metrics are demanded and their sum is
  // the highest utilization (cpu_binds, binding unset); else the demanded metric with the highest
  // utilization (a lone CPU-bound metric is the budget, named by its metric).
  std::optional<Metric> binding;
  bool cpu_binds = false;
  std::vector<Finding> findings;  // warnings about the plan
};

// The binding's key: "cpu", a metric key such as "l7_rps", or "" without demand.
std::string BindingKey(const Recommendation& recommendation);

// The binding's utilization in percent (0 without demand).
double BindingUtilizationPct(const Recommendation& recommendation);

// The fewest active SEs the workload's HA mode and virtual-service slots allow (see the file
// comment): 1 in legacy active/standby. `given_scaleout_per_vs`, a hand-set min_scaleout_per_vs,
// places each virtual service on that many SEs instead of ScaleoutPerVs's spread.
int LeastActiveSes(const Workload& workload,
                   std::optional<int> given_scaleout_per_vs = std::nullopt);

// The SEs each virtual service is placed on when `active` SEs carry the workload: with one
// virtual service (virtual_services unset or 1) all of them; else ceil(active / virtual_services),
// at least the mode's minimum (2 in active/active), and 1 in legacy active/standby
// (rule min-scaleout-spreads-vs).
int ScaleoutPerVs(const Workload& workload, int active);

// Errors in the workload inputs (attribute "workload.<key>", "buffer_se", ...). Empty when valid.
std::vector<Finding> CheckWorkload(const Workload& workload);

// The recommendation for `workload`. InvalidArgument (naming the attribute) when CheckWorkload
// finds an error or the demand would need more than kMaxSeCount SEs.
absl::StatusOr<Recommendation> Recommend(const Workload& workload);

// The recommendation for a shape decided elsewhere (settings given by the user): `se_count` SEs of
// `vcpus` and `memory_mb`, with everything that follows from the shape as Recommend chooses it
// (disk, reserves, dispatchers, queues, Hybrid RSS, max_se, service_units), the loads and binding
// metric on that shape, and the warnings about it. Recommend is its shape search followed by this.
// The shape's own choices have reason "given" (memory: the table-memory rule when it is the table
// memory).
// InvalidArgument, naming the attribute, when CheckWorkload finds an error or the shape is
// outside the vCPU or memory limits (limits.h) or 1-kMaxSeCount SEs.
absl::StatusOr<Recommendation> RecommendForShape(const Workload& workload, int vcpus,
                                                 int64_t memory_mb, int se_count);

// The loads of the demanded metrics on `se_count` SEs of `capacity`.
std::vector<MetricLoad> LoadsOn(const Workload& workload, const SeCapacity& capacity, int se_count);

// Whether the loads are within their budgets: the CPU budget of `cpu`, and each metric that does
// not share it.
bool LoadsCarried(const std::vector<MetricLoad>& loads, const CpuLoad& cpu);

// Whether `se_count` SEs of `vcpus` and `memory_mb` carry the workload at the target utilization
// (the CPU budget, and each other metric alone), without regard to the HA mode.
bool CarriesAtTarget(const Workload& workload, int vcpus, int64_t memory_mb, int se_count);

// Whether `se_count` - 1 SEs of `vcpus` and `memory_mb` carry the workload within 100% (rule
// active-active-survives-one-se-loss); false for fewer than 2 SEs.
bool SurvivesOneSeLoss(const Workload& workload, int vcpus, int64_t memory_mb, int se_count);

// Whether `se_count` SEs of `vcpus` and `memory_mb` carry the workload in its HA mode: at the
// target, and in active/active with at least 2 SEs that survive the loss of one.
bool Carries(const Workload& workload, int vcpus, int64_t memory_mb, int se_count);

// The most memory a recommendation gives an SE of `vcpus`: twice the table memory of the size
// (rule memory-at-most-2x-table), at most kMaxMemoryMb. More is used only when set explicitly.
int64_t MaxRecommendedMemoryMb(Platform platform, int vcpus);

// The least memory, the table memory raised in whole GB, with which `se_count` SEs of `vcpus`
// carry the demanded open connections (in active/active, also with one SE lost); nullopt when
// even MaxRecommendedMemoryMb does not.
std::optional<int64_t> MemoryFor(const Workload& workload, int vcpus, int se_count);

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
