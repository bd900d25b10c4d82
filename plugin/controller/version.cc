// Implementation of version.h.
#include "plugin/controller/version.h"

#include <algorithm>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "plugin/common/status_macros.h"

namespace nsxalb::controller {

namespace {

// Reads dotted numbers ("22.1.3") from the start of `s`, each at most 9 digits, and stops at the
// first character that does not continue the version. `*end` is set to the index after the last
// digit read.
std::vector<int> ScanDottedNumbers(const std::string& s, size_t* end) {
  std::vector<int> parts;
  size_t i = 0;
  *end = 0;
  while (i < s.size()) {
    size_t start = i;
    while (i < s.size() && absl::ascii_isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == start || i - start > 9) break;
    parts.push_back(std::stoi(s.substr(start, i - start)));
    *end = i;
    if (i < s.size() && s[i] == '.' && i + 1 < s.size() &&
        absl::ascii_isdigit(static_cast<unsigned char>(s[i + 1]))) {
      ++i;
      continue;
    }
    break;
  }
  return parts;
}

}  // namespace

absl::StatusOr<ApiVersion> ApiVersion::Parse(std::string_view text) {
  std::string s(absl::StripAsciiWhitespace(std::string(text)));
  // A leading "v" is tolerated ("v22.1.3"); underscores are the Controller's error-text spelling
  // ("v22_1_3").
  if (!s.empty() && (s[0] == 'v' || s[0] == 'V')) s.erase(0, 1);
  std::replace(s.begin(), s.end(), '_', '.');
  ApiVersion v;
  size_t end = 0;
  v.parts_ = ScanDottedNumbers(s, &end);
  if (v.parts_.size() < 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("not a version number (want dotted numbers such as 22.1.3): \"",
                     std::string(text.substr(0, 64)), "\""));
  }
  return v;
}

absl::StatusOr<ApiVersion> ApiVersion::ParseExact(std::string_view text) {
  std::string s(absl::StripAsciiWhitespace(std::string(text)));
  ApiVersion v;
  size_t end = 0;
  v.parts_ = ScanDottedNumbers(s, &end);
  if (end != s.size() || v.parts_.size() < 2 || v.parts_.size() > 3) {
    return absl::InvalidArgumentError(absl::StrCat("invalid version \"",
                                                   std::string(text.substr(0, 64)),
                                                   "\" (expected MAJOR.MINOR.PATCH, e.g. 22.1.3)"));
  }
  v.parts_.resize(3, 0);
  return v;
}

std::string ApiVersion::Train() const {
  if (parts_.size() < 2) return ToString();
  return absl::StrCat(parts_[0], ".", parts_[1]);
}

std::string ApiVersion::ToString() const { return absl::StrJoin(parts_, "."); }

std::string ApiVersion::ToTag() const {
  std::vector<int> parts = parts_;
  if (parts.size() < 3) parts.resize(3, 0);
  return absl::StrCat("v", absl::StrJoin(parts, "_"));
}

int ApiVersion::Compare(const ApiVersion& other) const {
  size_t n = std::max(parts_.size(), other.parts_.size());
  for (size_t i = 0; i < n; ++i) {
    int a = i < parts_.size() ? parts_[i] : 0;
    int b = i < other.parts_.size() ? other.parts_[i] : 0;
    if (a != b) return a < b ? -1 : 1;
  }
  return 0;
}

absl::StatusOr<IntroducedIn> IntroducedIn::Parse(std::string_view text) {
  IntroducedIn in;
  for (absl::string_view piece :
       absl::StrSplit(absl::string_view(text.data(), text.size()), ',', absl::SkipWhitespace())) {
    NSXALB_ASSIGN_OR_RETURN(auto v,
                            ApiVersion::Parse(std::string_view(piece.data(), piece.size())));
    in.versions_.push_back(std::move(v));
  }
  std::sort(in.versions_.begin(), in.versions_.end());
  return in;
}

bool IntroducedIn::AvailableIn(const ApiVersion& v) const { return !FirstMissing(v).has_value(); }

std::optional<ApiVersion> IntroducedIn::FirstMissing(const ApiVersion& v) const {
  if (versions_.empty()) return std::nullopt;
  const std::string train = v.Train();
  for (const ApiVersion& listed : versions_) {
    if (listed.Train() == train) {
      if (v >= listed) return std::nullopt;
      return listed;
    }
  }
  if (v > versions_.back()) return std::nullopt;
  for (const ApiVersion& listed : versions_) {
    if (v < listed) return listed;
  }
  return versions_.back();
}

std::string IntroducedIn::Describe() const {
  if (versions_.empty()) return "any version";
  if (versions_.size() == 1) return versions_[0].ToString();
  std::vector<std::string> parts;
  for (size_t i = 0; i + 1 < versions_.size(); ++i) {
    parts.push_back(
        absl::StrCat(versions_[i].ToString(), " on the ", versions_[i].Train(), " train"));
  }
  return absl::StrCat(absl::StrJoin(parts, ", "), ", or ", versions_.back().ToString(),
                      " and later");
}

}  // namespace nsxalb::controller
