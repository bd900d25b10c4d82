// Implementation of analyze.h: the analysis of one group, from the decoded samples to the report.
// Each step is its own file in this folder: decode.h, series.h, calibration.h, recommendation.h,
// headroom.h, forecast_measures.h.
#include "plugin/segroup/usage/analyze.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/common/limits.h"
#include "plugin/common/status_macros.h"
#include "plugin/segroup/usage/calibration.h"
#include "plugin/segroup/usage/decode.h"
#include "plugin/segroup/usage/forecast_measures.h"
#include "plugin/segroup/usage/recommendation.h"
#include "plugin/segroup/usage/series.h"
#include "plugin/segroup/usage/values.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/rules.h"

namespace nsxalb::segroup {
namespace {

namespace sz = ::nsxalb::sizing;
namespace rules = ::nsxalb::sizing::rules;
using usage_internal::DecodeNotes;
using usage_internal::kDropCount;
using usage_internal::kDropText;
using usage_internal::PercentText;
using usage_internal::StepText;

// The findings about the data: malformed parts, dropped points, capped series, missing samples,
// the handshake split and the SEs without a calibration.
void AddDataFindings(const DecodeNotes& notes, const std::vector<std::string>& uncalibrated,
                     bool handshakes_seen, const ObservedPeak& tps, UsageReport& r) {
  if (notes.malformed_count > 0) {
    r.findings.push_back(ObservedLoadWarning(
        rules::kBadPoints, "", "Part of the metrics response is not readable",
        absl::StrCat(
            notes.malformed_count, notes.malformed_count == 1 ? " part was" : " parts were",
            " skipped: ", absl::StrJoin(notes.malformed, "; "),
            notes.malformed_count > static_cast<int>(notes.malformed.size()) ? "; ..." : "", ".")));
  }
  if (const int dropped = notes.DroppedTotal(); dropped > 0) {
    std::vector<std::string> why;
    for (int d = 0; d < kDropCount; ++d) {
      if (notes.dropped[d] > 0) why.push_back(absl::StrCat(notes.dropped[d], " ", kDropText[d]));
    }
    r.findings.push_back(ObservedLoadWarning(
        rules::kBadPoints, "",
        absl::StrCat("Dropped ", sz::FormatInt(dropped), dropped == 1 ? " point" : " points",
                     " of the metrics response"),
        absl::StrCat("Dropped: ", absl::StrJoin(why, ", "), "; the first at ", notes.first_dropped,
                     ". The figures are taken from the remaining points.")));
  }
  if (notes.capped_series > 0) {
    r.findings.push_back(ObservedLoadWarning(
        rules::kUsagePointsCapped, "",
        absl::StrCat("Read the most recent ", sz::FormatInt(limits::kMaxUsagePointsPerSeries),
                     " points of ", notes.capped_series, " series"),
        absl::StrCat(sz::FormatInt(notes.capped_points), " older of ",
                     sz::FormatInt(notes.points_before_cap), " points were not read (at most ",
                     sz::FormatInt(limits::kMaxUsagePointsPerSeries),
                     " per series); a peak among them is not seen.")));
  }
  if (r.samples < r.expected_samples) {
    r.findings.push_back(ObservedLoadWarning(
        rules::kFewerSamples, "",
        absl::StrCat("Observed ", sz::FormatInt(r.samples), " of ",
                     sz::FormatInt(r.expected_samples), " samples"),
        absl::StrCat("A window of ", UsageWindowProse(r.window), " at ", StepText(r.step_seconds),
                     " steps holds ", sz::FormatInt(r.expected_samples),
                     "; a peak among the missing ones is not seen (analytics off for a time, or "
                     "SEs newer than the window).")));
  }
  if (handshakes_seen) {
    const std::string amount = absl::StrCat(
        sz::FormatValue(sz::Metric::kSslTpsEcc, *tps.value, sz::Rounding::kUp), " SSL TPS");
    r.findings.push_back(ObservedLoadWarning(
        rules::kHandshakeSplit, "workload", "The metrics do not split ECC and RSA handshakes",
        r.ecc_share > 0
            ? absl::StrCat("The observed ", amount, " are taken as ",
                           PercentText(r.ecc_share * 100), " ECC and ",
                           PercentText((1 - r.ecc_share) * 100),
                           " RSA, as the declared workload splits them.")
            : absl::StrCat("The observed ", amount,
                           " are taken as RSA (the costlier), as the workload declares no "
                           "handshakes.")));
  }
  if (!uncalibrated.empty()) {
    r.findings.push_back(ObservedLoadWarning(
        rules::kCalibrate, "", "Some SEs have no size the model knows",
        absl::StrCat("Not calibrated: ", absl::StrJoin(uncalibrated, ", "), "; the model needs ",
                     sz::VcpuRangeText(), " vCPUs and ", sz::MemoryRangeText(), " MB.")));
  }
}

}  // namespace

absl::StatusOr<UsageReport> AnalyzeUsage(const UsageInput& in) {
  usage_internal::CollectionDecoder decoder(in.ses, absl::ToUnixSeconds(in.now - in.query.window),
                                            absl::ToUnixSeconds(in.now));
  decoder.DecodeDocument(in.collection_response);
  std::vector<size_t> all(in.ses.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  return AnalyzeDecoded(in, decoder, all, 0);
}

absl::StatusOr<UsageReport> AnalyzeDecoded(const UsageInput& in,
                                           const usage_internal::CollectionDecoder& decoder,
                                           const std::vector<size_t>& se_indexes, size_t group) {
  // max_cpu_usage is only checked here (UsageTargetPct reads it).
  NSXALB_RETURN_IF_ERROR(
      usage_internal::WholeMember(in.settings, "max_cpu_usage", "max_cpu_usage").status());
  if (in.query.window < kMinUsageWindow || in.query.window > kMaxUsageWindow) {
    return absl::InvalidArgumentError(
        absl::StrCat("window must be from ", UsageWindowText(kMinUsageWindow), " to ",
                     UsageWindowText(kMaxUsageWindow), ", got ", UsageWindowText(in.query.window)));
  }
  UsageReport r = EmptyUsageReport(in.ses, in.query);
  const int target = UsageTargetPct(in.settings, in.declared_workload);
  r.target_pct = target;
  if (in.ses.empty()) {
    r.findings.push_back(ObservedLoadWarning(
        rules::kUsageNoSes, "", "The group has no Service Engines",
        "There is no observed load to compare with the declared workload; it appears once the "
        "group places a virtual service."));
    return r;
  }

  usage_internal::SeSamplesOfGroup per_se;
  per_se.reserve(se_indexes.size());
  for (size_t i : se_indexes) per_se.push_back(&decoder.SamplesOf(i));
  const usage_internal::GroupSamples group_load =
      usage_internal::AddSeriesFigures(per_se, in.query.statistic, r);

  // Assumptions.
  const ObservedPeak& tps = r.Observed(ObservedKey::kSslTps);
  const bool handshakes_seen = tps.value.has_value() && *tps.value > 0;
  r.ecc_share = usage_internal::EccShare(in.declared_workload);
  r.throughput_key = usage_internal::ThroughputKey(in.declared_workload, handshakes_seen);
  const sz::Metric throughput = *sz::MetricFromKey(r.throughput_key);

  const std::vector<std::string> uncalibrated =
      usage_internal::Calibrate(in, per_se, throughput, target, r);
  usage_internal::RecommendFromObserved(in, per_se, target, r);

  // What the group costs now and from its observed load, and how long its headroom lasts.
  std::vector<int> vcpus;
  vcpus.reserve(in.ses.size());
  for (const ObservedSe& se : in.ses) vcpus.push_back(se.vcpus);
  r.service_units =
      ReclaimableServiceUnits(ServiceUnitsNow(vcpus, LicenceSettingsOf(in.settings)),
                              r.recommendation.has_value() && r.recommendation->summary.has_value()
                                  ? r.recommendation->summary->service_units
                                  : std::nullopt,
                              r.samples, r.expected_samples);
  usage_internal::AddForecast(in, per_se, group_load, r);
  // Rule observed-cpu-floor: nothing reclaimable from a group at risk (at the default
  // forecast_days; the estate applies its own) or whose recommendation misses the floor.
  WithholdReclaim(r, kDefaultForecastDays);

  AddDataFindings(decoder.NotesOfGroup(group), uncalibrated, handshakes_seen, tps, r);
  if (std::optional<Finding> floor = usage_internal::CpuFloorFinding(r)) {
    r.findings.push_back(*std::move(floor));
  }
  return r;
}

}  // namespace nsxalb::segroup
