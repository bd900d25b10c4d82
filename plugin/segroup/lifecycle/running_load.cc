// Implementation of running_load.h.
#include "plugin/segroup/lifecycle/running_load.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "plugin/segroup/sizing_plan.h"

namespace nsxalb::segroup::lifecycle {

std::optional<RunningShapeLoad> LoadAtRunningShape(const sizing::Workload& workload,
                                                   const sizing::Recommendation& planned,
                                                   const GroupSes& ses) {
  const RunningSe* smallest = nullptr;
  for (const LaggingSe& lag : ses.lagging) {
    if (lag.why != controller::TakesEffect::kNewSesOnly) continue;
    if (lag.se.vcpus <= 0 || lag.se.memory_mb <= 0) continue;
    if (smallest == nullptr ||
        std::tie(lag.se.vcpus, lag.se.memory_mb) < std::tie(smallest->vcpus, smallest->memory_mb)) {
      smallest = &lag.se;
    }
  }
  if (smallest == nullptr) return std::nullopt;
  RunningShapeLoad out;
  out.vcpus = smallest->vcpus;
  out.memory_mb = smallest->memory_mb;
  out.active_ses =
      std::max(1, std::min(planned.se_count.value, static_cast<int>(ses.running.size())));
  absl::StatusOr<sizing::Recommendation> shape =
      sizing::RecommendForShape(workload, out.vcpus, out.memory_mb, out.active_ses);
  if (!shape.ok()) return std::nullopt;
  out.shape = *std::move(shape);
  out.summary = ShapeSummary(out.shape);
  return out;
}

RunningServiceUnits ServiceUnitsOfRunning(const GroupSes& ses, int planned_vcpus,
                                          const sizing::ServiceUnitSettings& settings) {
  RunningServiceUnits out;
  for (const RunningSe& se : ses.running) {
    const int now = se.vcpus > 0 ? se.vcpus : planned_vcpus;
    bool reshaped = false;
    for (const LaggingSe& lag : ses.lagging) {
      if (lag.se.uuid == se.uuid && lag.why == controller::TakesEffect::kNewSesOnly) {
        reshaped = true;
      }
    }
    out.running += sizing::ServiceUnitsPerSe(now, settings).value;
    out.replaced += sizing::ServiceUnitsPerSe(reshaped ? planned_vcpus : now, settings).value;
  }
  return out;
}

}  // namespace nsxalb::segroup::lifecycle
