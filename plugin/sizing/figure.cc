#include "plugin/sizing/figure.h"

#include <vector>

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
    case Basis::kObserved:
      return "observed";
  }
  return "rule";
}

Basis WeakestBasis(std::vector<Basis> bases) {
  // Rank from strongest (observed, -1) to weakest.
  const auto rank = [](Basis b) {
    switch (b) {
      case Basis::kObserved:
        return -1;
      case Basis::kMeasured:
        return 0;
      case Basis::kRule:
        return 1;
      case Basis::kInterpolated:
        return 2;
      case Basis::kExtrapolated:
        return 3;
      case Basis::kCrossProfile:
        return 4;
    }
    return 4;
  };
  if (bases.empty()) return Basis::kMeasured;
  Basis weakest = bases.front();
  for (Basis b : bases) {
    if (rank(b) > rank(weakest)) weakest = b;
  }
  return weakest;
}

const char* SeverityName(Severity severity) {
  return severity == Severity::kError ? "error" : "warning";
}

}  // namespace nsxalb::sizing
