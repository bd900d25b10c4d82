// Implementation of values.h.
#include "plugin/segroup/usage/values.h"

#include <cmath>
#include <cstdint>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace nsxalb::segroup::usage_internal {

using Json = nlohmann::json;

std::string Clip(std::string_view s, size_t n) {
  if (s.size() <= n) return std::string(s);
  size_t end = n;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return absl::StrCat(std::string(s.substr(0, end)), "...");
}

std::string Quote(const Json& j) { return Clip(j.dump(-1, ' ', true), 40); }

Json NumberJson(double v) {
  if (std::trunc(v) == v && std::fabs(v) < 9e15) return static_cast<int64_t>(v);
  return v;
}

std::string PercentText(double pct) {
  double tenth = std::round(pct * 10) / 10;
  if (!std::isfinite(tenth)) tenth = pct;  // pct * 10 overflowed
  if (tenth == 0) tenth = 0;               // -0.0 would print as "-0"
  // Past 10^15 (or for inf and nan) a tenth is not a digit any more: %g's exponent form.
  if (!(std::fabs(tenth) < 1e15)) return absl::StrFormat("%g%%", tenth);
  if (tenth == std::trunc(tenth)) return absl::StrFormat("%.0f%%", tenth);
  return absl::StrFormat("%.1f%%", tenth);
}

absl::StatusOr<std::optional<int>> WholeMember(const Json& object, const char* name,
                                               const std::string& display) {
  if (!object.is_object()) return std::optional<int>();
  auto it = object.find(name);
  if (it == object.end() || it->is_null()) return std::optional<int>();
  if (it->is_number()) {
    const double d = it->get<double>();
    if (std::isfinite(d) && std::trunc(d) == d && d >= std::numeric_limits<int>::min() &&
        d <= std::numeric_limits<int>::max()) {
      return std::optional<int>(static_cast<int>(d));
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat(display, " must be a whole number, got ", Quote(*it)));
}

std::optional<double> NumberMember(const Json& object, const char* name) {
  if (!object.is_object()) return std::nullopt;
  auto it = object.find(name);
  if (it == object.end() || !it->is_number()) return std::nullopt;
  const double d = it->get<double>();
  if (!std::isfinite(d) || d < 0) return std::nullopt;
  return d;
}

std::string StepText(int step_seconds) {
  return step_seconds % 3600 == 0 ? absl::StrCat(step_seconds / 3600, "-hour")
                                  : absl::StrCat(step_seconds / 60, "-minute");
}

}  // namespace nsxalb::segroup::usage_internal
