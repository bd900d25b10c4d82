#include "plugin/sizing/format.h"

#include <cmath>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace nsxalb::sizing {
namespace {

// Guards against binary noise such as 8299.999999 when rounding.
constexpr double kEpsilon = 1e-6;

double RoundTo(double value, double step, Rounding rounding) {
  const double scaled = value / step;
  return (rounding == Rounding::kDown ? std::floor(scaled + kEpsilon)
                                      : std::ceil(scaled - kEpsilon)) *
         step;
}

}  // namespace

std::string FormatInt(int64_t value) {
  // The magnitude in unsigned arithmetic: -INT64_MIN does not fit an int64_t.
  const uint64_t magnitude =
      value < 0 ? uint64_t{0} - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  std::string digits = absl::StrCat(magnitude);
  std::string out;
  const int n = static_cast<int>(digits.size());
  for (int i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return value < 0 ? "-" + out : out;
}

double RoundForDisplay(Metric metric, double base_value, Rounding rounding) {
  const MetricInfo& info = InfoOf(metric);
  if (info.kind == MetricKind::kThroughput) {
    // 0.01 Gbps = 10 Mbps steps.
    return RoundTo(base_value, 10, rounding) / static_cast<double>(info.base_per_display);
  }
  return RoundTo(base_value, 1, rounding);
}

std::string FormatValue(Metric metric, double base_value, Rounding rounding) {
  const double shown = RoundForDisplay(metric, base_value, rounding);
  const bool throughput = InfoOf(metric).kind == MetricKind::kThroughput;
  // Past the range of int64_t (a demand of 1e300 is valid input) llround has no defined result.
  if (!(std::fabs(shown) < 1e15)) {
    return absl::StrCat(absl::StrFormat("%.6g", shown), throughput ? " Gbps" : "");
  }
  if (throughput) {
    const int64_t cents = std::llround(shown * 100);
    const int64_t whole = cents / 100;
    const int64_t frac = cents % 100;
    std::string text = FormatInt(whole);
    if (frac != 0) {
      absl::StrAppend(&text, ".",
                      frac % 10 == 0 ? absl::StrCat(frac / 10) : absl::StrFormat("%02d", frac));
    }
    return absl::StrCat(text, " Gbps");
  }
  return FormatInt(static_cast<int64_t>(std::llround(shown)));
}

std::string FormatAmount(Metric metric, double base_value, Rounding rounding) {
  return absl::StrCat(FormatValue(metric, base_value, rounding), " ", InfoOf(metric).label);
}

double BaseFromDisplay(Metric metric, double display_value) {
  const int64_t per = InfoOf(metric).base_per_display;
  if (per == 1) return display_value;
  return std::round(display_value * static_cast<double>(per) * 1000) / 1000;
}

double DisplayFromBase(Metric metric, double base_value) {
  return base_value / static_cast<double>(InfoOf(metric).base_per_display);
}

std::string FormatPercent(double percent) { return absl::StrFormat("%.1f%%", percent); }

std::string FormatCount(int64_t count, const char* one, const char* many) {
  return absl::StrCat(count, " ", Agree(count, one, many));
}

const char* Agree(int64_t count, const char* one, const char* many) {
  return count == 1 ? one : many;
}

std::string FormatSeCount(int64_t se_count) { return FormatCount(se_count, "SE", "SEs"); }

std::string FormatVcpus(int64_t vcpus) { return FormatCount(vcpus, "vCPU", "vCPUs"); }

std::string FormatShape(int64_t se_count, int64_t vcpus) {
  return absl::StrCat(FormatSeCount(se_count), " of ", FormatVcpus(vcpus));
}

}  // namespace nsxalb::sizing
