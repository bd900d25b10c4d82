// Implementation of recommendation.h.
#include "plugin/segroup/usage/recommendation.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "plugin/segroup/usage/values.h"
#include "plugin/sizing/profiles.h"
#include "plugin/sizing/rules.h"

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

// The vCPUs the SEs used at each timestamp (SEs of unknown vCPUs add nothing), and their
// statistic (rule observed-cpu-floor).
ObservedPeak UsedVcpus(const UsageInput& in, const SeSamplesOfGroup& per_se,
                       UsageStatistic statistic) {
  std::map<int64_t, double> used;
  for (size_t i = 0; i < per_se.size() && i < in.ses.size(); ++i) {
    const int vcpus = in.ses[i].vcpus;
    if (vcpus <= 0) continue;
    for (const auto& [t, s] : *per_se[i]) {
      if (s.Has(kCpu)) used[t] += s.value[kCpu] / 100 * vcpus;
    }
  }
  return StatisticOf(std::vector<std::pair<int64_t, double>>(used.begin(), used.end()), statistic);
}

// The vCPUs the plan's active SEs hold at `target`; unset without a planned shape.
std::optional<double> HeldAtTarget(const SizingPlan& plan, int target) {
  if (!plan.planned_shape.has_value()) return std::nullopt;
  const sz::Recommendation& shape = *plan.planned_shape;
  return static_cast<double>(shape.se_count.value) * shape.vcpus_per_se.value * target / 100;
}

// The vCPUs the model's CPU budget uses on the plan's active SEs; 0 without a planned shape.
double ModelVcpus(const SizingPlan& plan) {
  if (!plan.planned_shape.has_value()) return 0;
  const sz::Recommendation& shape = *plan.planned_shape;
  return shape.cpu.utilization_pct / 100 * shape.se_count.value * shape.vcpus_per_se.value;
}

}  // namespace

void RecommendFromObserved(const UsageInput& in, const SeSamplesOfGroup& per_se, int target,
                           UsageReport& r) {
  const ObservedPeak used = UsedVcpus(in, per_se, r.statistic);
  r.cpu_floor = CpuFloor();
  r.cpu_floor.used_vcpus = used.value;
  r.cpu_floor.at = used.at;
  // The observed workload and its recommendation.
  bool observed_any = false;
  for (ObservedKey key : kAllObservedKeys) {
    if (key != ObservedKey::kCpuPct && r.Observed(key).value.has_value()) observed_any = true;
  }
  if (observed_any) {
    // The workload with its CPU-bound demand raised by `raise` beyond the calibration.
    const auto observed_workload = [&](double raise) {
      Json workload = Json::object();
      const auto put = [&](const std::string& key, double v) {
        if (!(v > 0)) return;
        if (IsCpuBoundKey(key)) {
          if (r.calibration.applied) v *= *r.calibration.ratio;
          v *= raise;
        }
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
      return std::make_pair(std::move(workload), PlanSizing(sizing, in.platform));
    };
    auto [workload, plan] = observed_workload(1);
    // Rule observed-cpu-floor: the smallest raise whose recommendation holds the vCPUs used.
    // Whether a plan holds them: unset for a plan without a shape (nothing to judge).
    const auto holds = [&](const SizingPlan& p) -> std::optional<bool> {
      if (!used.value.has_value()) return true;
      const std::optional<double> held = HeldAtTarget(p, target);
      if (!held.has_value()) return std::nullopt;
      return *held >= *used.value;
    };
    double raise = 1;
    if (holds(plan) == false) {
      // A raise that holds them: the model's CPU on the plan's SEs brought up to the vCPUs used,
      // again while the larger shape it gives still falls short.
      double high = 1;
      auto high_result = std::make_pair(workload, plan);
      for (int round = 0; round < kMaxCpuFloorRounds && holds(high_result.second) == false;
           ++round) {
        const double model = ModelVcpus(high_result.second);
        if (!(model > 0) || !(*used.value > model)) break;  // no CPU-bound demand to raise
        high *= *used.value / model;
        high_result = observed_workload(high);
      }
      // Without a raise that holds them (no CPU-bound demand, or a demand the model cannot size),
      // the plan stays as it was and the floor is not met.
      if (holds(high_result.second) == true) {
        // The smallest such raise, to kCpuFloorBisections halvings of its ratio to 1 (geometric:
        // the raise spans orders of magnitude).
        double low = 1;
        for (int i = 0; i < kCpuFloorBisections; ++i) {
          const double mid = std::sqrt(low * high);
          auto mid_result = observed_workload(mid);
          if (holds(mid_result.second) == true) {
            high = mid;
            high_result = std::move(mid_result);
          } else {
            low = mid;
          }
        }
        raise = high;
        std::tie(workload, plan) = std::move(high_result);
      }
    }
    r.cpu_floor.raise = raise;
    r.cpu_floor.met = holds(plan) != false;
    r.recommendation = std::move(plan);
    r.observed_workload = std::move(workload);
  }
}

std::optional<Finding> CpuFloorFinding(const UsageReport& r) {
  const CpuFloor& floor = r.cpu_floor;
  if (!(floor.raise > 1) || !floor.used_vcpus.has_value()) return std::nullopt;
  const std::string used = absl::StrFormat("%.2f vCPUs", *floor.used_vcpus);
  std::string detail = absl::StrCat(
      "The group's SEs used ", used, " at their peak (CPU% x vCPUs, summed over the SEs",
      floor.at.has_value() ? absl::StrCat(", ", UsageTimeText(*floor.at)) : std::string(),
      "); the model puts the observed rates at less on the recommended SEs, so their CPU-bound "
      "demand is raised ",
      absl::StrFormat("%.2f", floor.raise), " times",
      r.calibration.applied ? " beyond the calibration" : "",
      " for the recommendation to hold that CPU at or below the ", r.target_pct,
      "% target. Features the tables do not measure (WAF, compression, DataScript) or fixed "
      "overheads use CPU that no rate shows.");
  if (!floor.met) {
    absl::StrAppend(&detail,
                    " Even so the recommendation does not hold it: nothing is called "
                    "reclaimable.");
  }
  return ObservedLoadWarning(
      sz::rules::kObservedCpuFloor, "",
      absl::StrCat("The recommendation holds the CPU the SEs used: ", used, " at their peak"),
      std::move(detail));
}

}  // namespace nsxalb::segroup::usage_internal
