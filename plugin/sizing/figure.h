// Figures with their basis, and findings: the vocabulary every sizing result is written in.
#ifndef NSXALB_PLUGIN_SIZING_FIGURE_H_
#define NSXALB_PLUGIN_SIZING_FIGURE_H_

#include <string>
#include <vector>

namespace nsxalb::sizing {

// Where a figure comes from.
enum class Basis {
  kMeasured,      // a seed table cell, exactly
  kInterpolated,  // between measured sizes (3 and 5 vCPUs)
  kExtrapolated,  // above the measured sizes (more than 6 vCPUs)
  kCrossProfile,  // borrowed from the other platform's seed
  kRule,          // derived by a named rule from the seeds' text
  kObserved,      // read from the Controller's analytics for this group (plugin/segroup/usage/)
};

// "measured", "interpolated", "extrapolated", "cross-profile", "rule" or "observed".
const char* BasisName(Basis basis);

// The weakest of `bases`, in docs/sizing.md's order from strongest to weakest: observed (what this
// group carried), measured, rule, interpolated, extrapolated, cross-profile. kMeasured when
// `bases` is empty.
Basis WeakestBasis(std::vector<Basis> bases);

// A number the model produced, with its basis, the rules applied and the seed cells used.
struct Figure {
  double value = 0;
  Basis basis = Basis::kMeasured;
  std::vector<std::string> rules;  // names from rules.h; empty for a plain measured cell
  std::string source;              // e.g. "vcenter 4C/4G (000_e5a429f3661e1e94.txt)"
};

// A chosen setting value with its basis, rule and a one-line reason.
template <typename T>
struct Choice {
  T value{};
  Basis basis = Basis::kRule;
  std::string rule;
  std::string reason;
};

// Severity of a finding.
enum class Severity {
  kError,    // a value the platform cannot take
  kWarning,  // something the seeds advise against
};

// "error" or "warning".
const char* SeverityName(Severity severity);

// One thing the model found wrong with an input. `attribute` is the Avi / Terraform attribute
// name ("vcpus_per_se") or, for workload inputs, "workload.<key>" ("workload.ssl_tps_ecc"), so
// the provider can attach it to an attribute path.
struct Finding {
  Severity severity = Severity::kWarning;
  std::string attribute;
  std::string rule;     // a name from rules.h
  std::string summary;  // one line
  std::string detail;   // the numbers and a remedy
};

}  // namespace nsxalb::sizing

#endif  // NSXALB_PLUGIN_SIZING_FIGURE_H_
