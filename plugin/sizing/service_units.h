// Service Units (SUs): what an SE group costs in NSX ALB licences. Pure and deterministic.
//
// Since Avi 20.1.1 licences are counted in SUs, and SEs consume them, not Controllers (the
// vendor's pages are cited in docs/sizing.md, "What a group costs: Service Units"):
// - an SE uses one SU per data-path (se_dp) process, by default one per vCPU ("an eight-core SE
//   will consume eight Service Units"; with max_num_se_dps = 4 "only four"); hyper-threaded cores
//   are not counted (rule service-units-per-se);
// - an SE group in per_app mode counts each vCPU at 25% (a 2-vCPU SE uses 0.5 SU);
// - every running SE consumes its SUs, so a group at its planned scale consumes the SUs of the SEs
//   the plan sets max_se to: the active SEs plus buffer_se in N+M, the active SEs in active/active,
//   2 in legacy active/standby (rule service-units-at-planned-scale).
#ifndef NSXALB_PLUGIN_SIZING_SERVICE_UNITS_H_
#define NSXALB_PLUGIN_SIZING_SERVICE_UNITS_H_

#include <optional>
#include <string>

#include "plugin/common/license_units.h"
#include "plugin/sizing/figure.h"

namespace nsxalb::sizing {

// The licence rate of one vCPU in per_app mode: 25%.
inline constexpr double kPerAppServiceUnitsPerVcpu = license::kPerAppServiceUnitsPerDataPath;

// The most virtual services an SE holds in per_app mode (rule per-app-two-vs-per-se): a group
// with per_app = true plans max_vs_per_se = 2 when it is unset, and a larger value is an error.
inline constexpr int kPerAppMaxVsPerSe = 2;

// The SE-group settings that set an SE's licence use, by their Avi names.
struct ServiceUnitSettings {
  // Avi max_num_se_dps (1-128, limits.h): the data-path processes per SE; unset means one per
  // vCPU.
  std::optional<int> max_num_se_dps;
  // Avi per_app: per-app SE mode, each vCPU licensed at kPerAppServiceUnitsPerVcpu.
  bool per_app = false;
};

// What a group costs in SUs: one SE, and the SEs of the group at its planned scale.
struct ServiceUnits {
  Choice<double> per_se;            // rule service-units-per-se
  Choice<double> at_planned_scale;  // rule service-units-at-planned-scale
};

// The SUs one SE of `vcpus` consumes (rule service-units-per-se): its data-path processes, which
// are its vCPUs, or max_num_se_dps when that is set and smaller; times 0.25 in per_app mode. So a
// whole number, or a multiple of 0.25 in per_app mode. The reason says the arithmetic:
// "8 vCPUs, max_num_se_dps 4: 4 data-path processes x 0.25 (per_app) = 1 SU".
Choice<double> ServiceUnitsPerSe(int vcpus, const ServiceUnitSettings& settings);

// The SUs of the group at its planned scale (rule service-units-at-planned-scale): `per_se` times
// the SEs of `max_se`, the count the plan sets max_se to (Recommendation::max_se, which counts the
// buffer SEs and the HA mode). The reason names both: "max_se = 3 SEs (2 active + 1 buffer (N+M))
// x 6 SUs = 18 SUs".
Choice<double> ServiceUnitsAtPlannedScale(const Choice<double>& per_se, const Choice<int>& max_se);

// Both figures for `max_se` SEs of `vcpus`.
ServiceUnits ServiceUnitsOf(int vcpus, const Choice<int>& max_se,
                            const ServiceUnitSettings& settings);

// SUs for prose, to the quarter: "1 SU", "0.5 SU", "18 SUs", "1,250.75 SUs".
std::string FormatServiceUnits(double service_units);

// The same number without the unit, for table cells: "1", "0.5", "18", "1,250.75".
std::string FormatServiceUnitsNumber(double service_units);

}  // namespace nsxalb::sizing

#endif  // NSXALB_PLUGIN_SIZING_SERVICE_UNITS_H_
