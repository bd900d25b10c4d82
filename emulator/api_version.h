// Avi API versions ("22.1.3") as the emulated Controller parses, compares and prints them.
//
// The Controller names versions in error messages as "v22_1_3"; X-Avi-Version and
// --controller-version use the dotted form. "Introduced in" specs may list backports
// ("17.2.12,18.1.3,18.2.1"): a field is available in version V when V is at or above the listed
// version of V's own major.minor train, or above the last listed version.
#ifndef NSXALB_EMULATOR_API_VERSION_H_
#define NSXALB_EMULATOR_API_VERSION_H_

#include <string>
#include <tuple>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"

namespace nsxalb::emulator {

// A dotted Avi version major.minor.patch.
struct ApiVersion {
  int major = 0;
  int minor = 0;
  int patch = 0;

  // "22.1.3".
  std::string ToString() const;
  // "v22_1_3", the form the Controller uses in "introduced in later versions" errors.
  std::string ToTag() const;

  friend bool operator<(const ApiVersion& a, const ApiVersion& b) {
    return std::tie(a.major, a.minor, a.patch) < std::tie(b.major, b.minor, b.patch);
  }
  friend bool operator==(const ApiVersion& a, const ApiVersion& b) {
    return std::tie(a.major, a.minor, a.patch) == std::tie(b.major, b.minor, b.patch);
  }
  friend bool operator<=(const ApiVersion& a, const ApiVersion& b) { return !(b < a); }
  friend bool operator>(const ApiVersion& a, const ApiVersion& b) { return b < a; }
};

// Parses "22.1.3" or "22.1" (patch 0). Anything else is an InvalidArgument error naming the text.
absl::StatusOr<ApiVersion> ParseApiVersion(absl::string_view text);

// Parses an "introduced in" spec: empty (always available) or comma-separated versions.
absl::StatusOr<std::vector<ApiVersion>> ParseIntroducedIn(absl::string_view spec);

// Returns nullopt when a field with the given introduced-in versions is available in `version`;
// otherwise the version to name in the rejection (the first listed version above `version`).
absl::optional<ApiVersion> FirstMissingVersion(const std::vector<ApiVersion>& introduced,
                                               const ApiVersion& version);

}  // namespace nsxalb::emulator

#endif  // NSXALB_EMULATOR_API_VERSION_H_
