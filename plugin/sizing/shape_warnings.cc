#include "plugin/sizing/shape_warnings.h"

#include <cmath>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/limits.h"
#include "plugin/sizing/rules.h"

namespace nsxalb::sizing {

std::optional<Finding> EsxiRpsPerSeWarning(const Workload& w, int vcpus, int se_count,
                                           std::string attribute) {
  const std::optional<double>& rps = w.demand.Get(Metric::kL7Rps);
  if (w.platform != Platform::kVcenter || !rps.has_value() || *rps / se_count <= kEsxiMaxRpsPerSe) {
    return std::nullopt;
  }
  // Kept as a double: a demand of 1e300 is valid input, and its count is past any integer type.
  const double needed = std::ceil(*rps / kEsxiMaxRpsPerSe);
  const std::string advice =
      needed <= kMaxSeCount
          ? absl::StrCat("Run at least ", FormatSeCount(static_cast<int64_t>(needed)),
                         " so that each carries at most ", FormatInt(kEsxiMaxRpsPerSe), ".")
          : absl::StrCat("Even ", FormatSeCount(kMaxSeCount),
                         ", the most a group plans, would each carry more than ",
                         FormatInt(kEsxiMaxRpsPerSe), ": split the workload across groups.");
  return Finding{Severity::kWarning, std::move(attribute), rules::kRps160k,
                 absl::StrCat("The plan relies on ",
                              FormatValue(Metric::kL7Rps, *rps / se_count, Rounding::kUp),
                              " L7 RPS per SE; seed 000 puts the ESXi maximum at about ",
                              FormatInt(kEsxiMaxRpsPerSe)),
                 absl::StrCat(FormatShape(se_count, vcpus), Agree(se_count, " carries ", " carry "),
                              FormatValue(Metric::kL7Rps, *rps, Rounding::kUp),
                              " L7 RPS (vcenter); seed 000 says an SE VM on ESXi reaches about ",
                              FormatInt(kEsxiMaxRpsPerSe), " RPS (about ",
                              FormatInt(kRpsPerCoreIntelV3), " per core). ", advice)};
}

std::optional<Finding> ScaleoutPerVsWarning(const Workload& w, int vcpus, int scaleout,
                                            std::string attribute) {
  if (scaleout <= w.max_scaleout_per_vs) return std::nullopt;
  return Finding{
      Severity::kWarning, std::move(attribute), rules::kScaleoutLimit,
      absl::StrCat("One virtual service would need ", FormatSeCount(scaleout),
                   "; max_scaleout_per_vs is ", w.max_scaleout_per_vs),
      absl::StrCat("If this workload is one virtual service, it would span ",
                   FormatShape(scaleout, vcpus), " but can scale out to only ",
                   w.max_scaleout_per_vs, ". Set max_scaleout_per_vs = ", scaleout, " (at most ",
                   kMaxScaleoutPerVs,
                   "), use fewer, larger SEs (vcpus_per_se, or workload.max_vcpus_per_se for the "
                   "recommended size), or split the workload across virtual services.")};
}

}  // namespace nsxalb::sizing
