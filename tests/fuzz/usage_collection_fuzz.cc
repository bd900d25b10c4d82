// libFuzzer entry point for the analytics collection response (plugin/segroup/usage/): the body
// of `POST /api/analytics/metrics/collection`, read as the client reads every Controller body
// (controller::ParseJsonLimited), then AnalyzeUsage for a two-SE group (one SE of a size the model
// knows, one of 0 vCPUs) over a 24-hour window with each statistic and over 14 days (the headroom
// forecast), CompareWithDeclared and the headroom findings against a declared plan, and
// UsageReportJson. The same bytes also go through the streaming decoder (decode.h: yajl, pushed in
// chunks of 1-64 bytes, the size taken from the first byte) and through nlohmann's sax_parse into
// another decoder.
//
// Contract: AnalyzeUsage never fails on the response; every observed figure is finite and >= 0,
// cpu_pct at most 100, and its time inside the window; no SE has more samples than the group; a
// calibration ratio is finite and positive with at least one sample; every finding is a warning
// with a rule; a forecast has a day count within 0-365 or a reason, finite figures and R² within
// 0-1; reclaimable SUs are finite and >= 0; the report's JSON serializes (valid UTF-8) and parses
// back. The streaming decoder never crashes on any bytes, and when both it and nlohmann's
// sax_parse accept them, the two give the same report. A violation aborts.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/response.h"
#include "plugin/segroup/sizing_plan.h"
#include "plugin/segroup/usage/analyze.h"
#include "plugin/segroup/usage/compare.h"
#include "plugin/segroup/usage/decode.h"

namespace {

namespace seg = ::nsxalb::segroup;
using Json = nlohmann::json;

void Check(bool ok) {
  if (!ok) std::abort();
}

const seg::SizingPlan& DeclaredPlan() {
  static const seg::SizingPlan* const plan = [] {
    seg::SizingInput in;
    in.settings = {{"min_scaleout_per_vs", 2}};
    in.workload = {{"l7_rps", 100000}, {"ssl_tps_ecc", 2000}};
    return new seg::SizingPlan(seg::PlanSizing(in, nsxalb::sizing::Platform::kNsxt));
  }();
  return *plan;
}

// The two-SE group's input over a day.
seg::UsageInput DayInput(absl::Time now) {
  seg::UsageInput in;
  in.ses = {{"se-1", "se-1", 4, 8192}, {"se-2", "se-2", 0, 0}};
  in.query.window = absl::Hours(24);
  in.now = now;
  in.platform = nsxalb::sizing::Platform::kNsxt;
  in.settings = {{"max_cpu_usage", 80}};
  return in;
}

// The report of a decoder's answer, as JSON.
Json ReportOf(const seg::UsageInput& in, const seg::usage_internal::CollectionDecoder& d) {
  absl::StatusOr<seg::UsageReport> r = seg::AnalyzeDecoded(in, d, {0, 1}, 0);
  Check(r.ok());
  return seg::UsageReportJson(*r);
}

// The bytes streamed through yajl and parsed by nlohmann's SAX parser: no crash, and the same
// report when both accept them.
void CheckStreaming(std::string_view text, absl::Time now) {
  const seg::UsageInput in = DayInput(now);
  const int64_t start = absl::ToUnixSeconds(now - in.query.window);
  const int64_t stop = absl::ToUnixSeconds(now);
  seg::usage_internal::CollectionDecoder pushed(in.ses, start, stop);
  const size_t chunk = text.empty() ? 1 : 1 + static_cast<unsigned char>(text[0]) % 64;
  absl::Status fed = absl::OkStatus();
  for (size_t at = 0; at < text.size() && fed.ok(); at += chunk) {
    fed = pushed.Feed(text.substr(at, chunk));
  }
  if (fed.ok()) fed = pushed.Finish();
  seg::usage_internal::CollectionDecoder parsed(in.ses, start, stop);
  const bool parsed_ok = Json::sax_parse(text, &parsed);
  if (fed.ok() && parsed_ok) Check(ReportOf(in, pushed) == ReportOf(in, parsed));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  CheckStreaming(text,
                 absl::FromCivil(absl::CivilMinute(2026, 11, 28, 15, 0), absl::UTCTimeZone()));
  absl::StatusOr<Json> body = nsxalb::controller::ParseJsonLimited(text);
  if (!body.ok()) return 0;
  const absl::Time now =
      absl::FromCivil(absl::CivilMinute(2026, 11, 28, 15, 0), absl::UTCTimeZone());
  // Each statistic over a day, and the maximum over 14 days (the headroom forecast's input).
  const std::pair<seg::UsageStatistic, absl::Duration> kQueries[] = {
      {seg::UsageStatistic::kMax, absl::Hours(24)},
      {seg::UsageStatistic::kP99, absl::Hours(24)},
      {seg::UsageStatistic::kP95, absl::Hours(24)},
      {seg::UsageStatistic::kMax, absl::Hours(24 * 14)}};
  for (const auto& [statistic, window] : kQueries) {
    seg::UsageInput in;
    in.ses = {{"se-1", "se-1", 4, 8192}, {"se-2", "se-2", 0, 0}};
    in.collection_response = *body;
    in.query.window = window;
    in.query.statistic = statistic;
    in.now = now;
    in.platform = nsxalb::sizing::Platform::kNsxt;
    in.settings = {{"max_cpu_usage", 80}};
    in.declared_workload = {{"l7_rps", 100000}, {"ssl_tps_ecc", 2000}};
    absl::StatusOr<seg::UsageReport> r = seg::AnalyzeUsage(in);
    Check(r.ok());
    for (seg::ObservedKey key : seg::kAllObservedKeys) {
      const seg::ObservedPeak& p = r->Observed(key);
      Check(p.value.has_value() == p.at.has_value());
      if (!p.value.has_value()) continue;
      Check(std::isfinite(*p.value) && *p.value >= 0);
      Check(*p.at > now - in.query.window && *p.at <= now);
    }
    const seg::ObservedPeak& cpu = r->Observed(seg::ObservedKey::kCpuPct);
    Check(!cpu.value.has_value() || *cpu.value <= 100);
    for (const seg::SeUsage& se : r->service_engines) Check(se.samples <= r->samples);
    if (r->calibration.ratio.has_value()) {
      Check(std::isfinite(*r->calibration.ratio) && *r->calibration.ratio > 0);
      Check(r->calibration.samples > 0);
    }
    for (const seg::Finding& f : r->findings) {
      Check(f.finding.severity == nsxalb::sizing::Severity::kWarning);
      Check(!f.finding.rule.empty());
    }
    for (const seg::Finding& f : seg::CompareWithDeclared(*r, DeclaredPlan(), 80)) {
      Check(f.policy_dependent && !f.finding.rule.empty());
    }
    // The forecast: finite, a day count within 0-365 or a reason, R² within 0-1; the headroom
    // findings are warnings no policy makes errors.
    const seg::Forecast& f = r->forecast;
    Check(f.days_to_target.has_value() != !f.reason.empty());
    if (f.days_to_target.has_value()) {
      Check(*f.days_to_target >= 0 && *f.days_to_target <= seg::kMaxForecastDays);
    }
    if (f.slope_per_day.has_value()) Check(std::isfinite(*f.slope_per_day));
    if (f.r_squared.has_value()) {
      Check(std::isfinite(*f.r_squared) && *f.r_squared >= 0 && *f.r_squared <= 1 + 1e-9);
    }
    for (const seg::DailyPeak& p : f.daily_peaks) Check(std::isfinite(p.value));
    const seg::ServiceUnitsUsage& su = r->service_units;
    if (su.reclaimable.has_value()) Check(std::isfinite(*su.reclaimable) && *su.reclaimable >= 0);
    for (const std::optional<seg::Finding>& h :
         {seg::CapacityUnusedFinding(*r, DeclaredPlan()), seg::ForecastFinding(*r, 365)}) {
      if (h.has_value()) Check(!h->policy_dependent && !h->finding.rule.empty());
    }
    const std::string dumped = seg::UsageReportJson(*r).dump();  // throws on invalid UTF-8
    Check(Json::parse(dumped, nullptr, false).is_object());
  }
  return 0;
}
