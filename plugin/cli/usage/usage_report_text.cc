// `controller usage` as text.
#include "plugin/cli/usage/usage_report_text.h"

#include <cmath>
#include <cstdint>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "plugin/segroup/lifecycle/ses_view.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/rules.h"
#include "plugin/sizing/service_units.h"

namespace nsxalb::cli {
namespace {

using segroup::ObservedKey;
namespace lifecycle = ::nsxalb::segroup::lifecycle;

// A figure as the report prints it: rates and connections whole, Gbps to 0.01, CPU to 0.1%.
std::string FigureText(ObservedKey key, const std::optional<double>& value) {
  if (!value.has_value()) return "-";
  switch (key) {
    case ObservedKey::kThroughputGbps:
      return absl::StrFormat("%.2f Gbps", *value);
    case ObservedKey::kCpuPct:
      return sizing::FormatPercent(*value);
    default:
      return sizing::FormatInt(static_cast<int64_t>(std::llround(*value)));
  }
}

const char* KeyLabel(ObservedKey key) {
  switch (key) {
    case ObservedKey::kL7Rps:
      return "L7 RPS";
    case ObservedKey::kSslTps:
      return "SSL TPS (ECC + RSA)";
    case ObservedKey::kL4Cps:
      return "L4 CPS";
    case ObservedKey::kL4OpenConns:
      return "open connections";
    case ObservedKey::kThroughputGbps:
      return "throughput";
    case ObservedKey::kCpuPct:
      return "CPU (highest SE)";
  }
  return "";
}

std::string AtText(const std::optional<absl::Time>& at) {
  return at.has_value() ? segroup::UsageTimeText(*at) : "";
}

// "Service Units (service-units-now): 24 SUs now, 8 recommended, 16 reclaimable", or with the
// reason reclaimable is unknown or withheld.
std::string ServiceUnitsText(const segroup::ServiceUnitsUsage& su) {
  const auto units = [](const std::optional<double>& v) {
    return v.has_value() ? sizing::FormatServiceUnits(*v) : std::string("unknown");
  };
  std::string out =
      absl::StrCat("Service Units (", sizing::rules::kServiceUnitsNow, "): ", units(su.now),
                   " now, ", units(su.recommended), " recommended, ");
  if (su.reclaimable.has_value()) {
    absl::StrAppend(&out, sizing::FormatServiceUnits(*su.reclaimable), " reclaimable");
    // Withheld (rule observed-cpu-floor): the reason.
    if (!su.reason.empty()) absl::StrAppend(&out, " (", su.reason, ")");
  } else {
    absl::StrAppend(&out, "none called reclaimable: ", su.reason);
  }
  return out;
}

// "Forecast (forecast-days-to-target): web-se-1 reaches 80% in 27 days (2027-01-01) at +1.00 a
// day, R² 0.98 over 14 daily peaks", or "Forecast: none (<reason>)".
std::string ForecastText(const segroup::UsageReport& r) {
  const segroup::Forecast& f = r.forecast;
  if (!f.days_to_target.has_value()) return absl::StrCat("Forecast: none (", f.reason, ")");
  return absl::StrCat(
      "Forecast (", sizing::rules::kForecastDaysToTarget, "): ", r.forecast_subject, " reaches ",
      r.target_pct, "% in ", sizing::FormatCount(*f.days_to_target, "day", "days"),
      f.reaches_at.has_value()
          ? absl::StrCat(" (", absl::FormatTime("%Y-%m-%d", *f.reaches_at, absl::UTCTimeZone()),
                         ")")
          : "",
      absl::StrFormat(" at %+.2f a day, R² %.2f over %d daily peaks", f.slope_per_day.value_or(0),
                      f.r_squared.value_or(0), static_cast<int>(f.daily_peaks.size())));
}

// " (3 running, 1 matches the group's settings, 2 behind them: ses-behind-settings)", or "" when
// the report has no running SEs.
std::string RunningSesHeading(const segroup::UsageReport& r) {
  if (!r.running_ses.has_value() || r.running_ses->running.empty()) return "";
  const lifecycle::GroupSes& ses = *r.running_ses;
  return absl::StrCat(" (", ses.running.size(), " running, ", ses.matching,
                      sizing::Agree(ses.matching, " matches", " match"), " the group's settings, ",
                      ses.lagging.size(), " behind them",
                      ses.AnyLag() ? absl::StrCat(": ", sizing::rules::kSesBehindSettings) : "",
                      ")");
}

}  // namespace

std::string UsageReportText(const std::string& group, const segroup::UsageReport& r) {
  std::string out =
      absl::StrCat("SE group ", group, ": ", sizing::FormatSeCount(r.se_count), ", ",
                   segroup::UsageStatisticName(r.statistic), " over ",
                   segroup::UsageWindowProse(r.window), " at ", r.step_seconds, " s steps, ",
                   r.samples, " of ", r.expected_samples, " samples\n\nObserved (basis ", r.basis,
                   "; each rate the group's sum over its SEs at each timestamp):\n");
  for (ObservedKey key : segroup::kAllObservedKeys) {
    const segroup::ObservedPeak& peak = r.Observed(key);
    absl::StrAppend(&out, absl::StrFormat("  %-20s %14s  %s\n", KeyLabel(key),
                                          FigureText(key, peak.value), AtText(peak.at)));
  }
  if (!r.service_engines.empty()) {
    absl::StrAppend(&out, "\nService Engines", RunningSesHeading(r), ":\n");
  }
  const lifecycle::GroupSes none;
  const lifecycle::GroupSes& running = r.running_ses.has_value() ? *r.running_ses : none;
  for (const segroup::SeUsage& se : r.service_engines) {
    const lifecycle::RunningSe* listed = nullptr;
    for (const lifecycle::RunningSe& candidate : running.running) {
      if (candidate.uuid == se.uuid) listed = &candidate;
    }
    absl::StrAppend(&out, "  ", se.name.empty() ? se.uuid : se.name, " (", se.uuid, "): ");
    if (listed != nullptr) {
      absl::StrAppend(&out, lifecycle::ShapeText(*listed), ", ",
                      listed->enable_state.empty() ? "enable state unknown" : listed->enable_state,
                      ", ", listed->oper_state.empty() ? "oper state unknown" : listed->oper_state,
                      "; ", lifecycle::MatchText(running, *listed), "\n    ");
    } else {
      absl::StrAppend(&out, sizing::FormatVcpus(se.vcpus), ", ", sizing::FormatInt(se.memory_mb),
                      " MB, ");
    }
    absl::StrAppend(&out, "CPU peak ", FigureText(ObservedKey::kCpuPct, se.cpu.value),
                    se.cpu.at.has_value() ? absl::StrCat(" at ", AtText(se.cpu.at)) : "", ", ",
                    se.samples, " samples\n");
  }
  absl::StrAppend(&out, "\nCalibration (calibrate-cpu-to-observed): ");
  if (r.calibration.ratio.has_value()) {
    absl::StrAppend(&out, absl::StrFormat("observed CPU / model CPU = %.3f", *r.calibration.ratio),
                    " over ", r.calibration.samples, " samples",
                    r.calibration.applied ? " (applied: calibration-raises-cpu-bound-demand)"
                                          : " (not applied: a ratio below 1 never shrinks)",
                    "\n");
  } else {
    absl::StrAppend(&out, "none (no sample where the model puts an SE at 20% CPU or more)\n");
  }
  if (r.recommendation.has_value() && r.recommendation->summary.has_value()) {
    absl::StrAppend(&out, "Recommendation from the observed workload: ",
                    r.recommendation->summary->summary, "\n");
  }
  absl::StrAppend(&out, "\n", ServiceUnitsText(r.service_units), "\n", ForecastText(r), "\n");
  if (!r.findings.empty()) absl::StrAppend(&out, "\nFindings:\n");
  for (const segroup::Finding& f : r.findings) {
    absl::StrAppend(&out, "  ", segroup::FindingText(f), "\n");
  }
  return out;
}

}  // namespace nsxalb::cli
