// The licence rule the provider's sizing and the Controller emulator share: the Service Units one
// Service Engine consumes (rule service-units-per-se in docs/sizing.md). Header-only and pure, so
// both plugin/sizing (which adds the reasons) and emulator/ (which may include only plugin/common
// and nsxalb_controller_api) count with the one function.
#ifndef NSXALB_PLUGIN_COMMON_LICENSE_UNITS_H_
#define NSXALB_PLUGIN_COMMON_LICENSE_UNITS_H_

#include <optional>

namespace nsxalb::license {

// The licence rate of one data-path process in per_app mode: 25%.
inline constexpr double kPerAppServiceUnitsPerDataPath = 0.25;

// The data-path (se_dp) processes of an SE of `vcpus`: one per vCPU, or max_num_se_dps when that
// is set (> 0) and smaller. Never negative.
inline int LicenseDataPathProcesses(int vcpus, std::optional<int> max_num_se_dps) {
  int processes = vcpus > 0 ? vcpus : 0;
  if (max_num_se_dps.has_value() && *max_num_se_dps > 0 && *max_num_se_dps < processes) {
    processes = *max_num_se_dps;
  }
  return processes;
}

// The Service Units one SE of `vcpus` consumes: its data-path processes, times 0.25 in per_app
// mode ("an eight-core SE will consume eight Service Units"; with max_num_se_dps = 4, four).
inline double LicenseServiceUnitsPerSe(int vcpus, std::optional<int> max_num_se_dps, bool per_app) {
  const int processes = LicenseDataPathProcesses(vcpus, max_num_se_dps);
  return per_app ? processes * kPerAppServiceUnitsPerDataPath : processes;
}

}  // namespace nsxalb::license

#endif  // NSXALB_PLUGIN_COMMON_LICENSE_UNITS_H_
