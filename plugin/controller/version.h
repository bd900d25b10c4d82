// Controller API versions: parsing and ordering of dotted version numbers ("22.1.3", "30.2.1"),
// and the "introduced in" rule of the Avi swagger, whose multi-version strings
// ("17.2.12,18.1.3,18.2.1") list the first release of each train a field was backported to.
//
// Shared by the Controller client and the Controller emulator: the client parses what users and
// Controllers write (leniently, Parse), the emulator reads X-Avi-Version as a Controller does
// (exactly, ParseExact) and names versions in its errors as the Controller does ("v22_1_3").
#ifndef NSXALB_PLUGIN_CONTROLLER_VERSION_H_
#define NSXALB_PLUGIN_CONTROLLER_VERSION_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace nsxalb::controller {

// A dotted numeric version such as 22.1.3. Missing trailing components compare as 0, so
// "22.1" == "22.1.0".
class ApiVersion {
 public:
  ApiVersion() = default;

  // major.minor.patch, e.g. ApiVersion(22, 1, 3).
  ApiVersion(int major, int minor, int patch) : parts_{major, minor, patch} {}

  // Parses "22.1.3". A build suffix after the numbers is ignored ("22.1.3-9096",
  // "22.1.3(9096)", "22.1.3 build 1"). At least major.minor is required; each component is
  // at most 9 digits. Errors are InvalidArgument and quote the text.
  static absl::StatusOr<ApiVersion> Parse(std::string_view text);

  // Parses exactly "MAJOR.MINOR" or "MAJOR.MINOR.PATCH" (digits and dots only; surrounding
  // whitespace is ignored), as a Controller reads X-Avi-Version. The result always has three
  // components ("30.2" gives 30.2.0). Errors are InvalidArgument and quote the text.
  static absl::StatusOr<ApiVersion> ParseExact(std::string_view text);

  // The numeric components, most significant first.
  const std::vector<int>& parts() const { return parts_; }

  // True when no version was parsed (a default-constructed value).
  bool empty() const { return parts_.empty(); }

  // "major.minor" of this version, the release train ("22.1" for 22.1.3).
  std::string Train() const;

  // Dotted form, e.g. "22.1.3".
  std::string ToString() const;

  // The Controller's tag form, e.g. "v22_1_3", as in its "introduced in later versions" errors.
  // Always at least three components ("v22_1_0" for 22.1).
  std::string ToTag() const;

  // Three-way comparison: negative, zero or positive.
  int Compare(const ApiVersion& other) const;

  friend bool operator==(const ApiVersion& a, const ApiVersion& b) { return a.Compare(b) == 0; }
  friend bool operator!=(const ApiVersion& a, const ApiVersion& b) { return a.Compare(b) != 0; }
  friend bool operator<(const ApiVersion& a, const ApiVersion& b) { return a.Compare(b) < 0; }
  friend bool operator<=(const ApiVersion& a, const ApiVersion& b) { return a.Compare(b) <= 0; }
  friend bool operator>(const ApiVersion& a, const ApiVersion& b) { return a.Compare(b) > 0; }
  friend bool operator>=(const ApiVersion& a, const ApiVersion& b) { return a.Compare(b) >= 0; }

 private:
  std::vector<int> parts_;
};

// When a field became available: one version, or several for backports
// ("17.2.12,18.1.3,18.2.1" means 17.2.12 on the 17.2 train, 18.1.3 on 18.1, and 18.2.1 onwards).
// An empty list means the field has always existed.
class IntroducedIn {
 public:
  IntroducedIn() = default;

  // Parses a comma-separated list of versions (empty text: always available).
  static absl::StatusOr<IntroducedIn> Parse(std::string_view text);

  // True when a Controller speaking API version `v` knows the field: `v` is at or above the
  // listed version of its own major.minor train, or above the last listed version.
  bool AvailableIn(const ApiVersion& v) const;

  // Empty when the field is available in `v` (AvailableIn); otherwise the version to name when
  // rejecting it: the listed version of v's own train, else the first listed version above `v`.
  std::optional<ApiVersion> FirstMissing(const ApiVersion& v) const;

  // The listed versions in order.
  const std::vector<ApiVersion>& versions() const { return versions_; }

  // Human-readable requirement: "21.1.3", or "17.2.12 on the 17.2 train, 18.1.3 on the 18.1
  // train, or 18.2.1 and later".
  std::string Describe() const;

 private:
  std::vector<ApiVersion> versions_;
};

}  // namespace nsxalb::controller

#endif  // NSXALB_PLUGIN_CONTROLLER_VERSION_H_
