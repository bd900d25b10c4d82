// The group at its running SEs' real shape, by the same model and rules as its plan: the
// declared workload's utilization (rule utilization-at-running-shape) and the Service Units the
// running SEs consume now and once replaced at the planned size (rule
// service-units-of-running-ses). Pure; no Terraform types.
#ifndef NSXALB_PLUGIN_SEGROUP_LIFECYCLE_RUNNING_LOAD_H_
#define NSXALB_PLUGIN_SEGROUP_LIFECYCLE_RUNNING_LOAD_H_

#include <cstdint>
#include <optional>
#include <string>

#include "plugin/segroup/lifecycle/match.h"
#include "plugin/sizing/recommend.h"
#include "plugin/sizing/service_units.h"

namespace nsxalb::segroup::lifecycle {

// The declared workload on the running SEs' shape.
struct RunningShapeLoad {
  int vcpus = 0;          // of the smallest SE that lags on its shape
  int64_t memory_mb = 0;  // of that SE
  int active_ses = 0;     // the plan's active SEs, at most as many as run
  // The model's judgement of that shape (sizing::RecommendForShape): loads, CPU budget, binding,
  // `carried` under the group's HA mode.
  sizing::Recommendation shape;
  // segroup::ShapeSummary of it: "3 SEs of 4 vCPUs would run 300,000 L7 RPS + 6,000 ECC SSL TPS
  // at 95.1% CPU, over the 80% target (interpolated)".
  std::string summary;
};

// The workload of the declared plan (`workload`, `planned`: sizing::Workload and its planned
// shape) on the running SEs of `ses` that lag on their shape: their smallest vCPUs (then memory),
// on min(planned active SEs, running SEs) of them. nullopt when no SE lags on its shape, its size
// is unknown, or the model cannot take it.
std::optional<RunningShapeLoad> LoadAtRunningShape(const sizing::Workload& workload,
                                                   const sizing::Recommendation& planned,
                                                   const GroupSes& ses);

// What the running SEs cost in Service Units.
struct RunningServiceUnits {
  double running = 0;   // each running SE at its own vCPUs (rule service-units-per-se)
  double replaced = 0;  // the same SEs, those lagging on their shape at `planned_vcpus`
};

// The SUs of `ses` now and once every SE lagging on its shape is replaced by one of
// `planned_vcpus`, with the group's licence settings. An SE whose vCPUs are unknown (0) counts
// at `planned_vcpus` in both.
RunningServiceUnits ServiceUnitsOfRunning(const GroupSes& ses, int planned_vcpus,
                                          const sizing::ServiceUnitSettings& settings);

}  // namespace nsxalb::segroup::lifecycle

#endif  // NSXALB_PLUGIN_SEGROUP_LIFECYCLE_RUNNING_LOAD_H_
