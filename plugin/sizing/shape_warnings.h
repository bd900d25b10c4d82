// The warnings about an SE shape (how many SEs, of how many vCPUs) that both the recommendation
// (recommend.h) and the validation of hand-set settings (validate.h) report. Each rule is checked
// here once, with one wording; the caller says which attribute the finding is reported on.
#ifndef NSXALB_PLUGIN_SIZING_SHAPE_WARNINGS_H_
#define NSXALB_PLUGIN_SIZING_SHAPE_WARNINGS_H_

#include <optional>
#include <string>

#include "plugin/sizing/figure.h"
#include "plugin/sizing/recommend.h"

namespace nsxalb::sizing {

// Rule rps-160k-per-se-on-esxi: on vcenter, `se_count` SEs of `vcpus` each carry more than
// kEsxiMaxRpsPerSe of the workload's L7 RPS. nullopt when they do not (or on another platform, or
// without an L7 RPS demand). `se_count` is at least 1.
std::optional<Finding> EsxiRpsPerSeWarning(const Workload& w, int vcpus, int se_count,
                                           std::string attribute);

// Rule max-scaleout-per-vs: one virtual service would span `scaleout` SEs of `vcpus`, more than
// the workload's max_scaleout_per_vs. nullopt when `scaleout` is within it.
std::optional<Finding> ScaleoutPerVsWarning(const Workload& w, int vcpus, int scaleout,
                                            std::string attribute);

}  // namespace nsxalb::sizing

#endif  // NSXALB_PLUGIN_SIZING_SHAPE_WARNINGS_H_
