// The capacity of one Service Engine for a platform, vCPU count (1-64, limits.h) and memory, from
// the seed tables and the named rules in rules.h. Pure and deterministic.
//
// - At the measured sizes (1, 2, 4, 6 vCPUs) every table cell comes back exactly (basis measured).
// - At 3 and 5 vCPUs a figure is the midpoint of its neighbours (interpolated).
// - Above 6 vCPUs CPU-bound metrics grow at the 4-to-6 rate per vCPU; throughput stays at the
//   6-vCPU value (extrapolated).
// - Open connections scale linearly with memory relative to the table memory of the size (rule
//   below it, at most extrapolated above it); nsxt borrows vcenter's figure (cross-profile).
#ifndef NSXALB_PLUGIN_SIZING_CAPACITY_H_
#define NSXALB_PLUGIN_SIZING_CAPACITY_H_

#include <array>
#include <cstdint>
#include <optional>

#include "absl/status/statusor.h"
#include "plugin/sizing/figure.h"
#include "plugin/sizing/limits.h"
#include "plugin/sizing/profiles.h"

namespace nsxalb::sizing {

inline constexpr int64_t kMbPerGb = 1024;

// What one SE delivers.
struct SeCapacity {
  Platform platform = Platform::kVcenter;
  int vcpus = 0;
  int64_t memory_mb = 0;
  Figure table_memory_mb;                    // the table memory for this vCPU count
  std::array<Figure, kMetricCount> metrics;  // base units (Mbps for throughput)

  // The figure for `metric`.
  const Figure& Of(Metric metric) const { return metrics[static_cast<int>(metric)]; }
};

// The table memory (MB) for `vcpus` on `platform`: measured, interpolated or extrapolated at the
// 4-to-6 rate, at most kMaxMemoryMb. `vcpus` must be within 1-64.
Figure TableMemoryMb(Platform platform, int vcpus);

// The capacity of one SE for one metric. `vcpus` must be within 1-64 and `memory_mb` positive.
Figure MetricCapacity(Platform platform, Metric metric, int vcpus, int64_t memory_mb);

// The capacity of one SE for every metric. Memory defaults to the table memory for `vcpus`.
// InvalidArgument, naming vcpus_per_se or memory_per_se, when outside 1-64 / 1024-262144 MB.
absl::StatusOr<SeCapacity> CapacityOf(Platform platform, int vcpus,
                                      std::optional<int64_t> memory_mb = std::nullopt);

// Seed 000's disk rule: max(10, 2 x RAM + 5, 15) GB, i.e. max(15, 2 x RAM_GB + 5), with RAM in GB
// rounded up to a whole GB.
int64_t MinimumDiskGb(int64_t memory_mb);

// The recommended disk: the seed rule, and on vcenter not below the tested disk for the size
// (interpolated at 3 and 5 vCPUs, the 6-vCPU 40 GB above).
Figure RecommendedDiskGb(Platform platform, int vcpus, int64_t memory_mb);

}  // namespace nsxalb::sizing

#endif  // NSXALB_PLUGIN_SIZING_CAPACITY_H_
