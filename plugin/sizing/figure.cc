#include "plugin/sizing/figure.h"

namespace nsxalb::sizing {

const char* BasisName(Basis basis) {
  switch (basis) {
    case Basis::kMeasured:
      return "measured";
    case Basis::kInterpolated:
      return "interpolated";
    case Basis::kExtrapolated:
      return "extrapolated";
    case Basis::kCrossProfile:
      return "cross-profile";
    case Basis::kRule:
      return "rule";
  }
  return "rule";
}

const char* SeverityName(Severity severity) {
  return severity == Severity::kError ? "error" : "warning";
}

}  // namespace nsxalb::sizing
