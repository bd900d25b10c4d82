// Parsing and comparison of Avi API versions.
#include "emulator/api_version.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace nsxalb::emulator {

std::string ApiVersion::ToString() const { return absl::StrCat(major, ".", minor, ".", patch); }

std::string ApiVersion::ToTag() const { return absl::StrCat("v", major, "_", minor, "_", patch); }

absl::StatusOr<ApiVersion> ParseApiVersion(absl::string_view text) {
  std::vector<absl::string_view> parts = absl::StrSplit(absl::StripAsciiWhitespace(text), '.');
  ApiVersion v;
  int* slots[] = {&v.major, &v.minor, &v.patch};
  bool ok = parts.size() == 2 || parts.size() == 3;
  for (size_t i = 0; ok && i < parts.size(); ++i) {
    ok = !parts[i].empty() && parts[i].size() <= 4 &&
         std::all_of(parts[i].begin(), parts[i].end(),
                     [](char c) { return c >= '0' && c <= '9'; }) &&
         absl::SimpleAtoi(parts[i], slots[i]);
  }
  if (!ok) {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid version \"", text, "\" (expected MAJOR.MINOR.PATCH, e.g. 22.1.3)"));
  }
  return v;
}

absl::StatusOr<std::vector<ApiVersion>> ParseIntroducedIn(absl::string_view spec) {
  std::vector<ApiVersion> out;
  if (spec.empty()) return out;
  for (absl::string_view part : absl::StrSplit(spec, ',')) {
    absl::StatusOr<ApiVersion> v = ParseApiVersion(part);
    if (!v.ok()) return v.status();
    out.push_back(*v);
  }
  std::sort(out.begin(), out.end());
  return out;
}

absl::optional<ApiVersion> FirstMissingVersion(const std::vector<ApiVersion>& introduced,
                                               const ApiVersion& version) {
  if (introduced.empty()) return absl::nullopt;
  for (const ApiVersion& v : introduced) {
    if (v.major == version.major && v.minor == version.minor) {
      if (v <= version) return absl::nullopt;
      return v;
    }
  }
  if (introduced.back() < version) return absl::nullopt;
  for (const ApiVersion& v : introduced) {
    if (version < v) return v;
  }
  return introduced.back();
}

}  // namespace nsxalb::emulator
