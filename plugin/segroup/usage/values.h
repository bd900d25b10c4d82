// Values the observed-load code reads from JSON and writes into findings and reports: numbers of
// members, clipped quotes of the Controller's text, percents. Internal to plugin/segroup/usage.
#ifndef NSXALB_PLUGIN_SEGROUP_USAGE_VALUES_H_
#define NSXALB_PLUGIN_SEGROUP_USAGE_VALUES_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace nsxalb::segroup::usage_internal {

// At most `n` bytes of `s`, cut at a UTF-8 character boundary, with "..." when cut: keys and
// values from the response are quoted in findings, and a finding stays one readable line.
std::string Clip(std::string_view s, size_t n = 64);

// A JSON value for a finding: ASCII (escaped), clipped.
std::string Quote(const nlohmann::json& j);

// A number for a JSON report: integral values as integers.
nlohmann::json NumberJson(double v);

// "91%" or "91.4%": a percent to a tenth, without a trailing ".0" (never "-0%"; past 10^15, or
// for inf and nan, %g's form).
std::string PercentText(double pct);

// A whole-number member of a JSON object: nullopt when absent or null; InvalidArgument naming
// `display` when it is not a whole number within int.
absl::StatusOr<std::optional<int>> WholeMember(const nlohmann::json& object, const char* name,
                                               const std::string& display);

// A number member >= 0, or nullopt.
std::optional<double> NumberMember(const nlohmann::json& object, const char* name);

// "5-minute" or "1-hour": a step in words.
std::string StepText(int step_seconds);

}  // namespace nsxalb::segroup::usage_internal

#endif  // NSXALB_PLUGIN_SEGROUP_USAGE_VALUES_H_
