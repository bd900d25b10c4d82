// Calibration of the model's CPU to what the SEs really used (rule calibrate-cpu-to-observed; see
// Calibration in report.h), and the assumptions it and the recommendation share: the ECC share of
// the observed handshakes (rule observed-handshakes-split-as-declared) and the kind of throughput
// (rule observed-throughput-as-declared-kind). Internal to plugin/segroup/usage.
#ifndef NSXALB_PLUGIN_SEGROUP_USAGE_CALIBRATION_H_
#define NSXALB_PLUGIN_SEGROUP_USAGE_CALIBRATION_H_

#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "plugin/segroup/usage/analyze.h"
#include "plugin/segroup/usage/series.h"
#include "plugin/sizing/profiles.h"

namespace nsxalb::segroup::usage_internal {

// The ECC share of the declared handshakes: 0 without declared handshakes (all RSA, the
// costlier).
double EccShare(const nlohmann::json& declared);

// The workload key observed throughput is taken as: the declared kind, else l7_ssl_gbps when
// handshakes were seen, else l4_gbps.
std::string ThroughputKey(const nlohmann::json& declared, bool handshakes_seen);

// Fills r.calibration from the SEs' samples at the `target` utilization; returns the SEs it could
// not calibrate, as findings name them ("se-1 (12 vCPUs, 512 MB)").
std::vector<std::string> Calibrate(const UsageInput& in, const SeSamplesOfGroup& per_se,
                                   sizing::Metric throughput, int target, UsageReport& r);

}  // namespace nsxalb::segroup::usage_internal

#endif  // NSXALB_PLUGIN_SEGROUP_USAGE_CALIBRATION_H_
