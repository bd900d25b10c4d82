// Implementation of calibration.h.
#include "plugin/segroup/usage/calibration.h"

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "plugin/segroup/usage/values.h"
#include "plugin/sizing/capacity.h"
#include "plugin/sizing/cpu_budget.h"
#include "plugin/sizing/format.h"

namespace nsxalb::segroup::usage_internal {
namespace {

namespace sz = ::nsxalb::sizing;
using Json = nlohmann::json;

constexpr double kBitsPerMbps = 1e6;

// The model's CPU-bound workload for one SE's rates at one timestamp (see Calibration).
void SetRates(const Sample& s, double ecc_share, sz::Metric throughput, sz::Workload& w) {
  w.demand = sz::Demand();
  if (s.Has(kRps)) w.demand.Set(sz::Metric::kL7Rps, s.value[kRps]);
  if (s.Has(kCps)) w.demand.Set(sz::Metric::kL4Cps, s.value[kCps]);
  if (s.Has(kTps)) {
    if (ecc_share > 0) w.demand.Set(sz::Metric::kSslTpsEcc, s.value[kTps] * ecc_share);
    if (ecc_share < 1) w.demand.Set(sz::Metric::kSslTpsRsa, s.value[kTps] * (1 - ecc_share));
  }
  if (s.Has(kVsBandwidth) && sz::SharesCpuBudget(throughput)) {
    w.demand.Set(throughput, s.value[kVsBandwidth] / kBitsPerMbps);
  }
}

bool HasCpuBoundRate(const Sample& s, sz::Metric throughput) {
  return s.Has(kRps) || s.Has(kCps) || s.Has(kTps) ||
         (s.Has(kVsBandwidth) && sz::SharesCpuBudget(throughput));
}

// A sample the calibration can use: the SE's CPU is known and above zero, and so is one of its
// CPU-bound rates. A reading of 0% beside traffic is not a measurement of that traffic (an SE that
// forwards requests spends CPU on them); its ratio of 0 would only pull the median down, the side
// that under-sizes.
bool IsCalibrationSample(const Sample& s, sz::Metric throughput) {
  return s.Has(kCpu) && s.value[kCpu] > 0 && HasCpuBoundRate(s, throughput);
}

}  // namespace

double EccShare(const Json& declared) {
  const double ecc = NumberMember(declared, "ssl_tps_ecc").value_or(0);
  const double rsa = NumberMember(declared, "ssl_tps_rsa").value_or(0);
  return ecc + rsa > 0 ? ecc / (ecc + rsa) : 0;
}

std::string ThroughputKey(const Json& declared, bool handshakes_seen) {
  for (const char* key : {"l7_ssl_gbps", "l7_gbps", "l4_gbps"}) {
    if (NumberMember(declared, key).has_value()) return key;
  }
  return handshakes_seen ? "l7_ssl_gbps" : "l4_gbps";
}

std::vector<std::string> Calibrate(const UsageInput& in, const SeSamplesOfGroup& per_se,
                                   sz::Metric throughput, int target, UsageReport& r) {
  std::vector<double> ratios;
  std::vector<std::string> uncalibrated;
  sz::Workload w;
  w.platform = in.platform;
  for (size_t i = 0; i < per_se.size(); ++i) {
    const ObservedSe& se = in.ses[i];
    bool any = false;
    for (const auto& [t, s] : *per_se[i]) {
      if (IsCalibrationSample(s, throughput)) {
        any = true;
        break;
      }
    }
    if (!any) continue;
    absl::StatusOr<sz::SeCapacity> capacity =
        se.vcpus < sz::kMinVcpus || se.vcpus > sz::kMaxVcpus
            ? absl::StatusOr<sz::SeCapacity>(absl::InvalidArgumentError("vcpus"))
            : (se.memory_mb > 0 ? sz::CapacityOf(in.platform, se.vcpus, se.memory_mb)
                                : sz::CapacityOf(in.platform, se.vcpus));
    if (!capacity.ok()) {
      uncalibrated.push_back(absl::StrCat(SeLabel(r.service_engines[i]), " (",
                                          sz::FormatVcpus(se.vcpus), ", ", se.memory_mb, " MB)"));
      continue;
    }
    for (const auto& [t, s] : *per_se[i]) {
      if (!IsCalibrationSample(s, throughput)) continue;
      SetRates(s, r.ecc_share, throughput, w);
      const sz::CpuLoad load = sz::CpuLoadOf(sz::LoadsOn(w, *capacity, 1), target);
      if (load.utilization_pct >= kMinCalibrationPredictedPct) {
        ratios.push_back(s.value[kCpu] / load.utilization_pct);
      }
    }
  }
  r.calibration.samples = static_cast<int>(ratios.size());
  if (!ratios.empty()) r.calibration.ratio = Median(std::move(ratios));
  r.calibration.applied = r.calibration.ratio.has_value() && *r.calibration.ratio > 1;

  return uncalibrated;
}

}  // namespace nsxalb::segroup::usage_internal
