#include "plugin/sizing/service_units.h"

#include <cmath>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "plugin/common/license_units.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/rules.h"

namespace nsxalb::sizing {
namespace {

// "4 data-path processes" or "1 data-path process".
std::string DataPathText(int processes) {
  return FormatCount(processes, "data-path process", "data-path processes");
}

}  // namespace

Choice<double> ServiceUnitsPerSe(int vcpus, const ServiceUnitSettings& settings) {
  // The number is the shared rule's (plugin/common/license_units.h, which the emulator's
  // ledger counts with too); the reason says its arithmetic.
  const int processes = license::LicenseDataPathProcesses(vcpus, settings.max_num_se_dps);
  const double units =
      license::LicenseServiceUnitsPerSe(vcpus, settings.max_num_se_dps, settings.per_app);
  std::string why = FormatVcpus(vcpus > 0 ? vcpus : 0);
  if (processes < (vcpus > 0 ? vcpus : 0)) absl::StrAppend(&why, ", max_num_se_dps ", processes);
  absl::StrAppend(&why, ": ", DataPathText(processes));
  if (settings.per_app) {
    absl::StrAppend(&why, " x ", kPerAppServiceUnitsPerVcpu, " (per_app)");
  }
  absl::StrAppend(&why, " = ", FormatServiceUnits(units));
  return {units, Basis::kRule, rules::kServiceUnitsPerSe, std::move(why)};
}

Choice<double> ServiceUnitsAtPlannedScale(const Choice<double>& per_se, const Choice<int>& max_se) {
  const int ses = max_se.value > 0 ? max_se.value : 0;
  const double units = per_se.value * ses;
  std::string why = absl::StrCat("max_se = ", FormatSeCount(ses));
  if (!max_se.reason.empty()) absl::StrAppend(&why, " (", max_se.reason, ")");
  absl::StrAppend(&why, " x ", FormatServiceUnits(per_se.value), " = ", FormatServiceUnits(units));
  return {units, Basis::kRule, rules::kServiceUnitsAtPlannedScale, std::move(why)};
}

ServiceUnits ServiceUnitsOf(int vcpus, const Choice<int>& max_se,
                            const ServiceUnitSettings& settings) {
  ServiceUnits out;
  out.per_se = ServiceUnitsPerSe(vcpus, settings);
  out.at_planned_scale = ServiceUnitsAtPlannedScale(out.per_se, max_se);
  return out;
}

std::string FormatServiceUnitsNumber(double service_units) {
  // To the quarter: the finest step per_app gives.
  const int64_t quarters = std::llround(service_units * 4);
  const int64_t rest = quarters % 4;
  std::string out = FormatInt(quarters / 4);
  if (rest == 1) absl::StrAppend(&out, ".25");
  if (rest == 2) absl::StrAppend(&out, ".5");
  if (rest == 3) absl::StrAppend(&out, ".75");
  return out;
}

std::string FormatServiceUnits(double service_units) {
  const int64_t quarters = std::llround(service_units * 4);
  return absl::StrCat(FormatServiceUnitsNumber(service_units),
                      quarters == 4 || (quarters / 4 == 0 && quarters % 4 != 0) ? " SU" : " SUs");
}

}  // namespace nsxalb::sizing
