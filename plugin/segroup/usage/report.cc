// Implementation of report.h.
#include "plugin/segroup/usage/report.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "plugin/controller/errors.h"
#include "plugin/segroup/lifecycle/ses_view.h"
#include "plugin/segroup/usage/values.h"
#include "plugin/sizing/figure.h"
#include "plugin/sizing/recommend.h"
#include "plugin/sizing/rules.h"

namespace nsxalb::segroup {
namespace {

namespace sz = ::nsxalb::sizing;
namespace rules = ::nsxalb::sizing::rules;
using Json = nlohmann::json;
using usage_internal::NumberJson;
using usage_internal::WholeMember;

Json PeakJson(const std::optional<double>& v) { return v.has_value() ? NumberJson(*v) : Json(); }
Json TimeJson(const std::optional<absl::Time>& t) {
  return t.has_value() ? Json(UsageIsoTime(*t)) : Json();
}

}  // namespace

Finding ObservedLoadWarning(const char* rule, std::string attribute, std::string summary,
                            std::string detail, bool policy_dependent) {
  sz::Finding f;
  f.severity = sz::Severity::kWarning;
  f.attribute = attribute;
  f.rule = rule;
  f.summary = std::move(summary);
  f.detail = std::move(detail);
  return Finding{std::move(f), std::move(attribute), policy_dependent};
}

const char* ObservedKeyName(ObservedKey key) {
  switch (key) {
    case ObservedKey::kL7Rps:
      return "l7_rps";
    case ObservedKey::kSslTps:
      return "ssl_tps";
    case ObservedKey::kL4Cps:
      return "l4_cps";
    case ObservedKey::kL4OpenConns:
      return "l4_open_conns";
    case ObservedKey::kThroughputGbps:
      return "throughput_gbps";
    case ObservedKey::kCpuPct:
      return "cpu_pct";
  }
  return "";
}

int UsageTargetPct(const Json& settings, const Json& declared_workload) {
  for (const auto& [object, name] :
       {std::pair<const Json*, const char*>{&declared_workload, "target_utilization"},
        std::pair<const Json*, const char*>{&settings, "max_cpu_usage"}}) {
    absl::StatusOr<std::optional<int>> v = WholeMember(*object, name, name);
    if (v.ok() && v->has_value()) return **v;
  }
  return sz::kDefaultTargetUtilizationPct;
}

Finding AnalyticsUnavailableFinding(const absl::Status& status) {
  const std::optional<int> http = controller::HttpStatusOf(status);
  std::string why = std::string(status.message());
  if (why.empty()) why = absl::StatusCodeToString(status.code());
  if (http.has_value() && why.find(absl::StrCat("HTTP ", *http)) == std::string::npos) {
    why = absl::StrCat("HTTP ", *http, ": ", why);
  }
  return ObservedLoadWarning(
      rules::kAnalyticsUnavailable, "", "The Controller's analytics are unavailable",
      absl::StrCat("The metrics request failed (", why,
                   "); the observed load is not known, and the plan goes on without "
                   "it."));
}

std::string SeLabel(const SeUsage& se) { return se.name.empty() ? se.uuid : se.name; }

UsageReport EmptyUsageReport(const std::vector<ObservedSe>& ses, const UsageQuery& query) {
  UsageReport r;
  r.se_count = static_cast<int>(ses.size());
  r.window = query.window;
  r.statistic = query.statistic;
  r.step_seconds = UsageStepSeconds(query.window);
  r.expected_samples = UsageExpectedSamples(query.window);
  r.basis = sz::BasisName(sz::Basis::kObserved);
  for (const ObservedSe& se : ses) {
    SeUsage u;
    u.uuid = se.uuid;
    u.name = se.name;
    u.vcpus = se.vcpus;
    u.memory_mb = se.memory_mb;
    r.service_engines.push_back(std::move(u));
  }
  // Until the analysis says otherwise: nothing was observed.
  r.service_units.reason = "no observed load";
  r.forecast.reason = "no observed load";
  return r;
}

UsageReport UsageUnavailableReport(const std::vector<ObservedSe>& ses, const UsageQuery& query,
                                   const absl::Status& status) {
  UsageReport r = EmptyUsageReport(ses, query);
  r.findings.push_back(AnalyticsUnavailableFinding(status));
  return r;
}

Json UsageReportJson(const UsageReport& r) {
  Json observed = Json::object(), observed_at = Json::object();
  for (ObservedKey key : kAllObservedKeys) {
    observed[ObservedKeyName(key)] = PeakJson(r.Observed(key).value);
    observed_at[ObservedKeyName(key)] = TimeJson(r.Observed(key).at);
  }
  Json ses = Json::array();
  for (const SeUsage& se : r.service_engines) {
    ses.push_back(Json{{"uuid", se.uuid},
                       {"name", se.name},
                       {"vcpus", se.vcpus},
                       {"memory_mb", se.memory_mb},
                       {"cpu_peak_pct", PeakJson(se.cpu.value)},
                       {"cpu_peak_at", TimeJson(se.cpu.at)},
                       {"samples", se.samples}});
    ses.back().update(
        lifecycle::SeMatchJson(r.running_ses.value_or(lifecycle::GroupSes{}), se.uuid));
  }
  Json calibration = {{"ratio", r.calibration.ratio.has_value()
                                    ? Json(std::round(*r.calibration.ratio * 1000) / 1000)
                                    : Json()},
                      {"samples", r.calibration.samples},
                      {"applied", r.calibration.applied},
                      {"rule", rules::kCalibrate}};
  Json recommendation;
  if (r.recommendation.has_value()) {
    const SizingPlan& plan = *r.recommendation;
    recommendation = Json{
        {"vcpus_per_se", nullptr},        {"memory_per_se", nullptr}, {"se_count", nullptr},
        {"min_scaleout_per_vs", nullptr}, {"max_se", nullptr},        {"binding_metric", nullptr},
        {"utilization_pct", nullptr},     {"service_units", nullptr}, {"summary", nullptr}};
    if (plan.summary.has_value() && plan.planned_shape.has_value()) {
      const sz::Recommendation& shape = *plan.planned_shape;
      const Json summary = SizingSummaryJson(*plan.summary);
      recommendation["vcpus_per_se"] = shape.vcpus_per_se.value;
      recommendation["memory_per_se"] = shape.memory_per_se.value;
      recommendation["se_count"] = plan.summary->se_count;
      auto per_vs = plan.recommended.find("min_scaleout_per_vs");
      recommendation["min_scaleout_per_vs"] =
          per_vs != plan.recommended.end() ? per_vs->second : Json(shape.min_scaleout_per_vs.value);
      recommendation["max_se"] = shape.max_se.value;
      recommendation["binding_metric"] = summary["binding_metric"];
      recommendation["utilization_pct"] = summary["utilization_pct"];
      recommendation["service_units"] = summary["service_units"];
      recommendation["summary"] = plan.summary->summary;
    }
    std::vector<std::string> lines;
    for (const InputError& e : plan.input_errors) {
      lines.push_back(absl::StrCat("error [", e.attribute, "] ", e.summary, ". ", e.detail));
    }
    for (const Finding& f : plan.findings) lines.push_back(FindingText(f));
    recommendation["findings"] = lines;
    recommendation["workload"] = r.observed_workload;
  }
  const auto units = [](const std::optional<double>& v) { return v ? NumberJson(*v) : Json(); };
  const ServiceUnitsUsage& su = r.service_units;
  Json service_units = {{"now", units(su.now)},
                        {"recommended", units(su.recommended)},
                        {"reclaimable", units(su.reclaimable)},
                        {"reason", su.reason.empty() ? Json() : Json(su.reason)}};
  const Forecast& f = r.forecast;
  Json daily_peaks = Json::array();
  for (const DailyPeak& p : f.daily_peaks) {
    daily_peaks.push_back(Json{{"day", absl::FormatTime("%Y-%m-%d", p.day, absl::UTCTimeZone())},
                               {"value", NumberJson(std::round(p.value * 100) / 100)}});
  }
  const auto rounded = [](const std::optional<double>& v, double scale) {
    return v ? NumberJson(std::round(*v * scale) / scale) : Json();
  };
  Json forecast = {{"days_to_target", f.days_to_target ? Json(*f.days_to_target) : Json()},
                   {"reaches_on", f.reaches_at ? Json(absl::FormatTime("%Y-%m-%d", *f.reaches_at,
                                                                       absl::UTCTimeZone()))
                                               : Json()},
                   {"measure", f.measure.empty() ? Json() : Json(f.measure)},
                   {"subject", r.forecast_subject.empty() ? Json() : Json(r.forecast_subject)},
                   {"target_pct", r.target_pct},
                   {"slope_per_day", rounded(f.slope_per_day, 1000)},
                   {"r_squared", rounded(f.r_squared, 1000)},
                   {"daily_peaks", std::move(daily_peaks)},
                   {"reason", f.reason.empty() ? Json() : Json(f.reason)}};
  std::vector<std::string> findings;
  for (const Finding& f : r.findings) findings.push_back(FindingText(f));
  return Json{{"se_count", r.se_count},
              {"window", UsageWindowText(r.window)},
              {"statistic", UsageStatisticName(r.statistic)},
              {"step_seconds", r.step_seconds},
              {"samples", r.samples},
              {"expected_samples", r.expected_samples},
              {"basis", r.basis},
              {"observed", std::move(observed)},
              {"observed_at", std::move(observed_at)},
              {"service_engines", std::move(ses)},
              {"ses_behind_settings",
               r.running_ses.has_value() ? Json(r.running_ses->lagging.size()) : Json()},
              {"calibration", std::move(calibration)},
              {"assumptions",
               {{"ecc_share", NumberJson(std::round(r.ecc_share * 1000) / 1000)},
                {"throughput_key", r.throughput_key},
                {"rules", {rules::kHandshakeSplit, rules::kThroughputKind}}}},
              {"recommendation", std::move(recommendation)},
              {"service_units", std::move(service_units)},
              {"forecast", std::move(forecast)},
              {"findings", std::move(findings)}};
}

}  // namespace nsxalb::segroup
