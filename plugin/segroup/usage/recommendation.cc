// Implementation of recommendation.h.
#include "plugin/segroup/usage/recommendation.h"

#include <cmath>
#include <optional>
#include <string>

#include "plugin/segroup/usage/values.h"
#include "plugin/sizing/profiles.h"

namespace nsxalb::segroup::usage_internal {
namespace {

namespace sz = ::nsxalb::sizing;
using Json = nlohmann::json;

// The settings the recommendation keeps from the group: its HA mode and scale-out limits.
constexpr const char* kKeptSettings[] = {
    "ha_mode", "buffer_se", "max_vs_per_se", "max_scaleout_per_vs", "max_num_se_dps", "per_app"};
// The workload policy the recommendation keeps from the declared workload.
constexpr const char* kKeptWorkload[] = {"max_vcpus_per_se", "virtual_services"};
// Metric keys of the CPU-bound demand (sizing::SharesCpuBudget).
bool IsCpuBoundKey(const std::string& key) {
  const std::optional<sz::Metric> m = sz::MetricFromKey(key);
  return m.has_value() && sz::SharesCpuBudget(*m);
}

}  // namespace

void RecommendFromObserved(const UsageInput& in, int target, UsageReport& r) {
  // The observed workload and its recommendation.
  bool observed_any = false;
  for (ObservedKey key : kAllObservedKeys) {
    if (key != ObservedKey::kCpuPct && r.Observed(key).value.has_value()) observed_any = true;
  }
  if (observed_any) {
    Json workload = Json::object();
    const auto put = [&](const std::string& key, double v) {
      if (!(v > 0)) return;
      if (r.calibration.applied && IsCpuBoundKey(key)) v *= *r.calibration.ratio;
      // To a thousandth, as BaseFromDisplay keeps inputs, so that 2,240 x 1.2 is 2,688.
      workload[key] = NumberJson(std::round(v * 1000) / 1000);
    };
    const auto value = [&](ObservedKey key) { return r.Observed(key).value.value_or(0); };
    put("l7_rps", value(ObservedKey::kL7Rps));
    put("ssl_tps_ecc", value(ObservedKey::kSslTps) * r.ecc_share);
    put("ssl_tps_rsa", value(ObservedKey::kSslTps) * (1 - r.ecc_share));
    put("l4_cps", value(ObservedKey::kL4Cps));
    put("l4_open_conns", value(ObservedKey::kL4OpenConns));
    put(r.throughput_key, value(ObservedKey::kThroughputGbps));
    workload["target_utilization"] = target;
    for (const char* key : kKeptWorkload) {
      if (in.declared_workload.is_object() && in.declared_workload.contains(key)) {
        workload[key] = in.declared_workload[key];
      }
    }
    SizingInput sizing;
    for (const char* key : kKeptSettings) {
      if (in.settings.is_object() && in.settings.contains(key))
        sizing.settings[key] = in.settings[key];
    }
    sizing.workload = workload;
    r.recommendation = PlanSizing(sizing, in.platform);
    r.observed_workload = std::move(workload);
  }
}

}  // namespace nsxalb::segroup::usage_internal
