// Implementation of rollout_capacity.h.
#include "plugin/segroup/lifecycle/rollout_capacity.h"

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/segroup/sizing_plan.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/ha_mode.h"

namespace nsxalb::segroup::lifecycle {

std::string DemandText(const sizing::Workload& workload) {
  std::vector<std::string> amounts;
  for (sizing::Metric metric : sizing::kAllMetrics) {
    const std::optional<double>& demand = workload.demand.Get(metric);
    if (!demand.has_value()) continue;
    amounts.push_back(sizing::FormatAmount(metric, *demand, sizing::Rounding::kUp));
  }
  return absl::StrJoin(amounts, " + ");
}

CapacityFigures CapacityWithSesOut(const sizing::Workload& workload,
                                   const sizing::Recommendation& planned, const GroupSes& ses,
                                   int max_unavailable, double target_percent) {
  CapacityFigures out;
  out.running_ses = static_cast<int>(ses.running.size());
  out.ha_minimum_ses = sizing::MinActiveSes(workload.ha_mode);
  out.target_percent = target_percent;
  out.platform = workload.platform;
  for (sizing::Metric metric : sizing::kAllMetrics) {
    if (sizing::InfoOf(metric).kind == sizing::MetricKind::kThroughput &&
        workload.demand.Get(metric).has_value()) {
      out.throughput_kinds.push_back(metric);
    }
  }
  const std::string demand = DemandText(workload);
  if (demand.empty()) {
    out.load = "no declared demand";
    return out;
  }
  out.load = absl::StrCat("the declared workload ", demand);
  const int lagging = static_cast<int>(ses.lagging.size());
  const int ses_out = std::max(0, std::min(max_unavailable, lagging));
  const int left = out.running_ses - ses_out;
  if (left < 1) return out;  // the HA minimum refuses
  const RunningSe* smallest = nullptr;
  for (const RunningSe& se : ses.running) {
    if (se.vcpus <= 0 || se.memory_mb <= 0) continue;
    if (smallest == nullptr ||
        std::tie(se.vcpus, se.memory_mb) < std::tie(smallest->vcpus, smallest->memory_mb)) {
      smallest = &se;
    }
  }
  if (smallest == nullptr) return out;
  const int active = std::max(1, std::min(planned.se_count.value, left));
  absl::StatusOr<sizing::Recommendation> shape =
      sizing::RecommendForShape(workload, smallest->vcpus, smallest->memory_mb, active);
  if (!shape.ok()) {
    absl::StrAppend(&out.load, " (not judged: ", shape.status().message(), ")");
    return out;
  }
  out.known = true;
  out.cpu_percent_out = sizing::BindingUtilizationPct(*shape);
  if (!shape->cpu_binds && shape->binding.has_value() &&
      sizing::InfoOf(*shape->binding).kind != sizing::MetricKind::kCpuBound) {
    out.measure = absl::StrCat("of their ", sizing::InfoOf(*shape->binding).label, " capacity");
  }
  out.basis = sizing::BasisName(ShapeBasis(*shape));
  return out;
}

}  // namespace nsxalb::segroup::lifecycle
