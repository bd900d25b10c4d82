// The observed-load analysis (plugin/segroup/usage/): query parsing, the collection request, the
// group's peaks (the peak of the sum), the statistics, calibration, the recommendation from the
// observed load, every malformed-response case, the comparison with the declared plan, the
// report JSON, and the worked calibration example of docs/sizing.md.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/civil_time.h"
#include "nlohmann/json.hpp"
#include "plugin/common/limits.h"
#include "plugin/controller/errors.h"
#include "plugin/segroup/usage/analyze.h"
#include "plugin/segroup/usage/compare.h"
#include "plugin/sizing/capacity.h"
#include "plugin/sizing/cpu_budget.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/recommend.h"
#include "plugin/sizing/rules.h"
#include "tests/segroup/usage_test_support.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::segroup {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::Not;

namespace sz = ::nsxalb::sizing;
namespace rules = ::nsxalb::sizing::rules;
using Json = nlohmann::json;
using ::testing::HasSubstr;
using usage_testing::AllText;
using usage_testing::Analyze;
using usage_testing::At;
using usage_testing::Constant;
using usage_testing::FindRule;
using usage_testing::Input;
using usage_testing::Iso;
using usage_testing::kNow;
using usage_testing::Response;
using usage_testing::Series;

std::vector<ObservedSe> TwoSes(int vcpus = 4, int64_t memory_mb = 8192) {
  return {{"se-1-uuid", "se-1", vcpus, memory_mb}, {"se-2-uuid", "se-2", vcpus, memory_mb}};
}

// ---- Query parsing and the request.

TEST(UsageQueryTest, StatisticIsOneOfThree) {
  EXPECT_EQ(*ParseUsageStatistic("max"), UsageStatistic::kMax);
  EXPECT_EQ(*ParseUsageStatistic("p99"), UsageStatistic::kP99);
  EXPECT_EQ(*ParseUsageStatistic("p95"), UsageStatistic::kP95);
  for (const char* bad : {"MAX", "p90", "", "mean"}) {
    absl::StatusOr<UsageStatistic> s = ParseUsageStatistic(bad);
    ASSERT_THAT(s, Not(IsOk())) << bad;
    EXPECT_THAT(s, StatusIs(absl::StatusCode::kInvalidArgument));
    EXPECT_THAT(s.status().message(), HasSubstr("\"max\", \"p99\" or \"p95\""));
  }
  EXPECT_STREQ(UsageStatisticName(UsageStatistic::kP95), "p95");
}

TEST(UsageQueryTest, WindowIsAGoDurationOrDaysWithinOneHourToThirtyDays) {
  EXPECT_EQ(*ParseUsageWindow("24h"), absl::Hours(24));
  EXPECT_EQ(*ParseUsageWindow("90m"), absl::Minutes(90));
  EXPECT_EQ(*ParseUsageWindow("1h30m"), absl::Minutes(90));
  EXPECT_EQ(*ParseUsageWindow("7d"), absl::Hours(24 * 7));
  EXPECT_EQ(*ParseUsageWindow("30d"), absl::Hours(24 * 30));
  EXPECT_EQ(*ParseUsageWindow("1h"), absl::Hours(1));
  EXPECT_EQ(*ParseUsageWindow("720h"), absl::Hours(720));
  for (const char* bad : {"59m", "31d", "721h", "0d", "-1h", "inf", "30d1s"}) {
    absl::StatusOr<absl::Duration> w = ParseUsageWindow(bad);
    ASSERT_THAT(w, Not(IsOk())) << bad;
    EXPECT_THAT(w.status().message(), HasSubstr("from 1h to 30d")) << bad;
  }
  for (const char* bad : {"", "abc", "7", "d", "7days", "1e400h"}) {
    absl::StatusOr<absl::Duration> w = ParseUsageWindow(bad);
    ASSERT_THAT(w, Not(IsOk())) << bad;
    EXPECT_THAT(w.status().message(), HasSubstr("from 1h to 30d")) << bad;
  }
  EXPECT_EQ(UsageWindowText(absl::Hours(24 * 7)), "7d");
  EXPECT_EQ(UsageWindowText(absl::Hours(24)), "1d");
  EXPECT_EQ(UsageWindowText(absl::Minutes(90)), "1h30m");
  EXPECT_EQ(UsageWindowProse(absl::Hours(24 * 7)), "7 days");
  EXPECT_EQ(UsageWindowProse(absl::Hours(24)), "24 hours");
  EXPECT_EQ(UsageWindowProse(absl::Hours(1)), "1 hour");
  EXPECT_EQ(UsageWindowProse(absl::Minutes(90)), "90 minutes");
}

TEST(UsageQueryTest, StepIsFiveMinutesUpToSevenDaysAndAnHourBeyond) {
  EXPECT_EQ(UsageStepSeconds(absl::Hours(1)), 300);
  EXPECT_EQ(UsageStepSeconds(absl::Hours(24 * 7)), 300);
  EXPECT_EQ(UsageStepSeconds(absl::Hours(24 * 7) + absl::Hours(1)), 3600);
  EXPECT_EQ(UsageExpectedSamples(absl::Hours(24)), 288);
  EXPECT_EQ(UsageExpectedSamples(absl::Hours(24 * 7)), limits::kMaxUsagePointsPerSeries);
  EXPECT_EQ(UsageExpectedSamples(absl::Hours(24 * 30)), 720);
  EXPECT_EQ(UsageExpectedSamples(absl::Minutes(90)), 18);
}

TEST(UsageQueryTest, OneCollectionRequestForTheGroup) {
  UsageQuery q;
  q.window = absl::Hours(24);
  const Json body = UsageCollectionRequest(TwoSes(), q, kNow);
  ASSERT_TRUE(body["metric_requests"].is_array());
  ASSERT_EQ(body["metric_requests"].size(), 3u);
  const Json& se = body["metric_requests"][0];
  EXPECT_EQ(se["id"], "se-stats");
  EXPECT_EQ(se["entity_uuid"], "se-1-uuid,se-2-uuid");
  EXPECT_EQ(se["metric_id"], "se_stats.avg_cpu_usage");
  EXPECT_EQ(se["step"], 300);
  EXPECT_EQ(se["limit"], 288);
  EXPECT_EQ(se["start"], "2026-11-27T15:00:00Z");
  EXPECT_EQ(se["stop"], "2026-11-28T15:00:00Z");
  EXPECT_EQ(se["pad_missing_data"], false);
  const Json& vs = body["metric_requests"][2];
  EXPECT_EQ(vs["id"], "vs-on:se-2-uuid");
  EXPECT_EQ(vs["entity_uuid"], "*");
  EXPECT_EQ(vs["serviceengine_uuid"], "se-2-uuid");
  EXPECT_EQ(vs["aggregate_entity"], true);
  EXPECT_EQ(vs["metric_id"],
            "l7_client.avg_complete_responses,l7_client.avg_ssl_handshakes_new,"
            "l4_client.avg_new_established_conns,l4_client.max_open_conns,"
            "l4_client.avg_bandwidth");
  EXPECT_EQ(vs["limit"], 288);
  q.window = absl::Hours(24 * 30);
  const Json month = UsageCollectionRequest(TwoSes(), q, kNow);
  EXPECT_EQ(month["metric_requests"][0]["step"], 3600);
  EXPECT_EQ(month["metric_requests"][0]["limit"], 720);
}

// ---- The acceptance figures.

// SE 1's RPS peaks at 120,000 and SE 2's at 110,000 at different times; their sum peaks at
// 200,000. SE 1's CPU peaks at 91% with a null gap.
Json AcceptanceResponse() {
  std::vector<std::optional<double>> rps1 = Constant(288, 50000), rps2 = Constant(288, 50000);
  rps1[100] = 120000;
  rps2[100] = 40000;  // sum 160,000
  rps2[200] = 110000;
  rps1[200] = 50000;  // sum 160,000
  rps1[250] = 100000;
  rps2[250] = 100000;  // sum 200,000: the group's peak
  std::vector<std::optional<double>> cpu1 = Constant(288, 40), cpu2 = Constant(288, 35);
  for (int i = 50; i < 60; ++i) cpu1[i] = std::nullopt;
  cpu1[100] = 91;
  cpu2[250] = 70;
  return Response()
      .Se("se-1-uuid", Series("se_stats.avg_cpu_usage", "se-1-uuid", cpu1))
      .Se("se-2-uuid", Series("se_stats.avg_cpu_usage", "se-2-uuid", cpu2))
      .Vs("se-1-uuid", Series("l7_client.avg_complete_responses", "*", rps1))
      .Vs("se-2-uuid", Series("l7_client.avg_complete_responses", "*", rps2))
      .json();
}

TEST(UsageAnalysisTest, TheGroupPeakIsThePeakOfTheSumNotTheSumOfPeaks) {
  const UsageReport r = Analyze(
      Input(TwoSes(), AcceptanceResponse(), absl::Hours(24), Json::object(), {{"l7_rps", 100000}}));
  EXPECT_EQ(r.se_count, 2);
  EXPECT_EQ(r.step_seconds, 300);
  EXPECT_EQ(r.samples, 288);
  EXPECT_EQ(r.expected_samples, 288);
  EXPECT_EQ(r.basis, "observed");
  ASSERT_TRUE(r.Observed(ObservedKey::kL7Rps).value.has_value());
  EXPECT_EQ(*r.Observed(ObservedKey::kL7Rps).value, 200000);
  EXPECT_EQ(*r.Observed(ObservedKey::kL7Rps).at, kNow - absl::Seconds(37 * 300));
  ASSERT_TRUE(r.Observed(ObservedKey::kCpuPct).value.has_value());
  EXPECT_EQ(*r.Observed(ObservedKey::kCpuPct).value, 91);
  EXPECT_EQ(*r.Observed(ObservedKey::kCpuPct).at, kNow - absl::Seconds(187 * 300));
  EXPECT_FALSE(r.Observed(ObservedKey::kSslTps).value.has_value());
  ASSERT_EQ(r.service_engines.size(), 2u);
  EXPECT_EQ(*r.service_engines[0].cpu.value, 91);
  EXPECT_EQ(*r.service_engines[1].cpu.value, 70);
  EXPECT_EQ(r.service_engines[0].samples, 288);
  // The gap is not a bad point, and not a missing sample (the RPS series has the timestamps).
  EXPECT_EQ(FindRule(r.findings, rules::kBadPoints), nullptr) << AllText(r.findings);
  EXPECT_EQ(FindRule(r.findings, rules::kFewerSamples), nullptr) << AllText(r.findings);
  // The recommendation is sized for the observed 200,000 at the group's target, raised by the
  // calibration (SE 1 runs 40% CPU where the tables predict 50,000 / 153,000 = 32.7%).
  ASSERT_TRUE(r.recommendation.has_value());
  ASSERT_TRUE(r.calibration.ratio.has_value());
  EXPECT_TRUE(r.calibration.applied);
  EXPECT_NEAR(r.observed_workload["l7_rps"].get<double>(), 200000 * *r.calibration.ratio, 0.001);
  EXPECT_EQ(r.observed_workload["target_utilization"], 80);
  ASSERT_TRUE(r.recommendation->summary.has_value()) << r.observed_workload.dump();
  EXPECT_THAT(r.recommendation->summary->summary, HasSubstr(" L7 RPS at "));
  const Json j = UsageReportJson(r);
  EXPECT_EQ(j["observed"]["l7_rps"], 200000);
  EXPECT_TRUE(j["observed"]["l7_rps"].is_number_integer());
  EXPECT_EQ(j["observed"]["cpu_pct"], 91);
  EXPECT_TRUE(j["observed"]["ssl_tps"].is_null());
  EXPECT_EQ(j["observed_at"]["l7_rps"], "2026-11-28T11:55:00Z");
  EXPECT_TRUE(j["observed_at"]["ssl_tps"].is_null());
  EXPECT_EQ(j["se_count"], 2);
  EXPECT_EQ(j["window"], "1d");
  EXPECT_EQ(j["statistic"], "max");
  EXPECT_EQ(j["basis"], "observed");
  EXPECT_EQ(j["service_engines"][0]["cpu_peak_pct"], 91);
  EXPECT_EQ(j["service_engines"][0]["cpu_peak_at"], "2026-11-27T23:25:00Z");
  EXPECT_EQ(j["service_engines"][0]["vcpus"], 4);
  EXPECT_EQ(j["service_engines"][0]["name"], "se-1");
  EXPECT_EQ(j["calibration"]["rule"], "calibrate-cpu-to-observed");
  EXPECT_FALSE(j["recommendation"].is_null());
  EXPECT_TRUE(j["recommendation"]["vcpus_per_se"].is_number_integer());
  EXPECT_TRUE(j["findings"].is_array());
}

TEST(UsageAnalysisTest, CompareWithDeclaredWarnsAtTheWorkloadLine) {
  const Json declared = {{"l7_rps", 100000}};
  const UsageReport r =
      Analyze(Input(TwoSes(), AcceptanceResponse(), absl::Hours(24), Json::object(), declared));
  SizingInput in;
  in.settings = {{"min_scaleout_per_vs", 2}};
  in.workload = declared;
  const SizingPlan plan = PlanSizing(in, sz::Platform::kNsxt);
  ASSERT_TRUE(plan.workload.has_value());
  const std::vector<Finding> found = CompareWithDeclared(r, plan, 80);
  const Finding* rps = FindRule(found, rules::kObservedAboveDeclared);
  ASSERT_NE(rps, nullptr) << AllText(found);
  EXPECT_EQ(rps->attribute, "workload.l7_rps");
  EXPECT_EQ(rps->finding.summary,
            "declared 100,000 L7 RPS; observed peak 200,000 (Nov 28 11:55 UTC, 24 hours)");
  EXPECT_TRUE(rps->policy_dependent);
  const Finding* cpu = FindRule(found, rules::kObservedCpuAboveTarget);
  ASSERT_NE(cpu, nullptr) << AllText(found);
  EXPECT_EQ(cpu->attribute, "workload");
  EXPECT_EQ(cpu->finding.summary,
            "SE se-1 peaked at 91% CPU (Nov 27 23:25 UTC) against the group's 80% target");
  EXPECT_EQ(found.size(), 2u) << AllText(found);  // SE 2's 70% is within the target
  // The enforce gate: an error only for a plan that changes the group.
  EXPECT_TRUE(FindingIsError(*rps, SizingPolicy::kEnforce, false));
  EXPECT_FALSE(FindingIsError(*rps, SizingPolicy::kEnforce, true));
  EXPECT_FALSE(FindingIsError(*rps, SizingPolicy::kWarn, false));
  EXPECT_TRUE(rules::IsUnderSizing(rules::kObservedAboveDeclared));
  // A higher declared workload and target: nothing to say.
  in.workload = {{"l7_rps", 250000}, {"target_utilization", 90}};
  const SizingPlan enough = PlanSizing(in, sz::Platform::kNsxt);
  EXPECT_EQ(FindRule(CompareWithDeclared(r, enough, 90), rules::kObservedAboveDeclared), nullptr);
  // Without a declared workload there is nothing to compare.
  EXPECT_TRUE(CompareWithDeclared(r, PlanSizing(SizingInput(), sz::Platform::kNsxt), 80).empty());
}

TEST(UsageAnalysisTest, PercentilesByNearestRank) {
  std::vector<std::optional<double>> values;
  for (int i = 1; i <= 100; ++i) values.push_back(101 - i);  // 100 down to 1
  const auto analyze = [&](UsageStatistic s) {
    UsageInput in =
        Input({{"se-1-uuid", "se-1", 4, 8192}},
              Response()
                  .Vs("se-1-uuid", Series("l4_client.avg_new_established_conns", "*", values))
                  .json(),
              absl::Hours(24));
    in.query.statistic = s;
    return Analyze(in);
  };
  const UsageReport max = analyze(UsageStatistic::kMax);
  EXPECT_EQ(*max.Observed(ObservedKey::kL4Cps).value, 100);
  EXPECT_EQ(*max.Observed(ObservedKey::kL4Cps).at, kNow - absl::Seconds(99 * 300));
  const UsageReport p99 = analyze(UsageStatistic::kP99);
  EXPECT_EQ(*p99.Observed(ObservedKey::kL4Cps).value, 99);
  EXPECT_EQ(*p99.Observed(ObservedKey::kL4Cps).at, kNow - absl::Seconds(98 * 300));
  const UsageReport p95 = analyze(UsageStatistic::kP95);
  EXPECT_EQ(*p95.Observed(ObservedKey::kL4Cps).value, 95);
  // 20 points: rank ceil(0.95 x 20) = 19, the second largest; p99: rank 20, the largest.
  values.assign(20, 0.0);
  for (int i = 0; i < 20; ++i) values[i] = i + 1;
  EXPECT_EQ(*analyze(UsageStatistic::kP95).Observed(ObservedKey::kL4Cps).value, 19);
  EXPECT_EQ(*analyze(UsageStatistic::kP99).Observed(ObservedKey::kL4Cps).value, 20);
  // Compare words the figure by its statistic.
  SizingInput in;
  in.workload = {{"l4_cps", 10}};
  const std::vector<Finding> found =
      CompareWithDeclared(analyze(UsageStatistic::kP95), PlanSizing(in, sz::Platform::kNsxt), 80);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_THAT(found[0].finding.summary, HasSubstr("declared 10 L4 CPS; observed p95 19 ("));
}

TEST(UsageAnalysisTest, ThroughputIsInGbpsAsTheDeclaredKindAndHandshakesAreSplitAsDeclared) {
  const Json response =
      Response()
          .Vs("se-1-uuid", Series("l4_client.avg_bandwidth", "*", {2.5e9, 4e9}))
          .Vs("se-2-uuid", Series("l4_client.avg_bandwidth", "*", {1.5e9, 1e9}))
          .Vs("se-1-uuid", Series("l7_client.avg_ssl_handshakes_new", "*", {1000, 2000}))
          .json();
  // Undeclared: handshakes are seen, so L7 SSL throughput, and all RSA.
  UsageReport r = Analyze(Input(TwoSes(), response, absl::Hours(1)));
  EXPECT_DOUBLE_EQ(*r.Observed(ObservedKey::kThroughputGbps).value, 5);
  EXPECT_EQ(r.throughput_key, "l7_ssl_gbps");
  EXPECT_EQ(r.ecc_share, 0);
  EXPECT_EQ(r.observed_workload["l7_ssl_gbps"], 5);
  EXPECT_EQ(r.observed_workload["ssl_tps_rsa"], 2000);
  EXPECT_FALSE(r.observed_workload.contains("ssl_tps_ecc"));
  const Finding* split = FindRule(r.findings, rules::kHandshakeSplit);
  ASSERT_NE(split, nullptr);
  EXPECT_THAT(split->finding.detail, HasSubstr("2,000 SSL TPS are taken as RSA (the costlier)"));
  // Declared: 3:1 ECC:RSA and L7 throughput.
  r = Analyze(Input(TwoSes(), response, absl::Hours(1), Json::object(),
                    {{"ssl_tps_ecc", 3000}, {"ssl_tps_rsa", 1000}, {"l7_gbps", 2}}));
  EXPECT_EQ(r.throughput_key, "l7_gbps");
  EXPECT_DOUBLE_EQ(r.ecc_share, 0.75);
  EXPECT_EQ(r.observed_workload["ssl_tps_ecc"], 1500);
  EXPECT_EQ(r.observed_workload["ssl_tps_rsa"], 500);
  EXPECT_EQ(r.observed_workload["l7_gbps"], 5);
  EXPECT_THAT(FindRule(r.findings, rules::kHandshakeSplit)->finding.detail,
              HasSubstr("taken as 75% ECC and 25% RSA"));
  // No handshakes: L4 throughput, and no split finding.
  r = Analyze(Input(
      TwoSes(), Response().Vs("se-1-uuid", Series("l4_client.avg_bandwidth", "*", {1e9})).json(),
      absl::Hours(1)));
  EXPECT_EQ(r.throughput_key, "l4_gbps");
  EXPECT_EQ(FindRule(r.findings, rules::kHandshakeSplit), nullptr);
}

// ---- Calibration.

TEST(UsageCalibrationTest, MedianOfObservedOverPredictedWherePredictedIsAtLeast20) {
  // nsxt 4C/8G: 153,000 RPS. 76,500 RPS is 50%, 30,600 20%, 15,300 10%, 122,400 80%.
  const std::vector<std::optional<double>> rps = {76500, 30600, 15300, 122400, 76500};
  const std::vector<std::optional<double>> cpu = {60, 30, 50, 88, std::nullopt};
  const Json response = Response()
                            .Se("se-1-uuid", Series("se_stats.avg_cpu_usage", "se-1-uuid", cpu))
                            .Vs("se-1-uuid", Series("l7_client.avg_complete_responses", "*", rps))
                            .json();
  const UsageReport r = Analyze(Input({{"se-1-uuid", "se-1", 4, 8192}}, response, absl::Hours(1)));
  // Ratios 1.2, 1.5, (10%: left out), 1.1, (no CPU): the median of three is 1.2.
  ASSERT_TRUE(r.calibration.ratio.has_value());
  EXPECT_NEAR(*r.calibration.ratio, 1.2, 1e-9);
  EXPECT_EQ(r.calibration.samples, 3);
  EXPECT_TRUE(r.calibration.applied);
  // The recommendation's CPU-bound demand is raised by it: 122,400 x 1.2.
  EXPECT_NEAR(r.observed_workload["l7_rps"].get<double>(), 146880, 1e-6);
  EXPECT_EQ(UsageReportJson(r)["calibration"]["ratio"], 1.2);
}

TEST(UsageCalibrationTest, ARatioBelowOneIsReportedAndNotApplied) {
  const Json response =
      Response()
          .Se("se-1-uuid", Series("se_stats.avg_cpu_usage", "se-1-uuid", {25, 40}))
          .Vs("se-1-uuid", Series("l7_client.avg_complete_responses", "*", {76500, 122400}))
          .json();
  const UsageReport r = Analyze(Input({{"se-1-uuid", "se-1", 4, 8192}}, response, absl::Hours(1)));
  ASSERT_TRUE(r.calibration.ratio.has_value());
  EXPECT_NEAR(*r.calibration.ratio, (0.5 + 0.5) / 2, 1e-9);
  EXPECT_FALSE(r.calibration.applied);
  EXPECT_EQ(r.observed_workload["l7_rps"], 122400);
}

TEST(UsageCalibrationTest, AZeroCpuBesideTrafficIsLeftOut) {
  // 76,500 RPS is 50% of nsxt 4C/8G. A 0% reading beside it would be a ratio of 0: left out, so
  // the ratio is positive (1.2 from the one real reading) and a zero-only SE has none.
  const Json response =
      Response()
          .Se("se-1-uuid", Series("se_stats.avg_cpu_usage", "se-1-uuid", {0, 60}))
          .Vs("se-1-uuid", Series("l7_client.avg_complete_responses", "*", {76500, 76500}))
          .json();
  UsageReport r = Analyze(Input({{"se-1-uuid", "se-1", 4, 8192}}, response, absl::Hours(1)));
  ASSERT_TRUE(r.calibration.ratio.has_value());
  EXPECT_NEAR(*r.calibration.ratio, 1.2, 1e-9);
  EXPECT_EQ(r.calibration.samples, 1);
  const Json zeros =
      Response()
          .Se("se-1-uuid", Series("se_stats.avg_cpu_usage", "se-1-uuid", {0, 0}))
          .Vs("se-1-uuid", Series("l7_client.avg_complete_responses", "*", {76500, 76500}))
          .json();
  r = Analyze(Input({{"se-1-uuid", "se-1", 4, 8192}}, zeros, absl::Hours(1)));
  EXPECT_FALSE(r.calibration.ratio.has_value());
  EXPECT_EQ(r.calibration.samples, 0);
  EXPECT_FALSE(r.calibration.applied);
}

TEST(UsageCalibrationTest, NoneWithoutSamplesOrWithoutAKnownSize) {
  // Only low predictions.
  const Json low = Response()
                       .Se("se-1-uuid", Series("se_stats.avg_cpu_usage", "se-1-uuid", {5}))
                       .Vs("se-1-uuid", Series("l7_client.avg_complete_responses", "*", {1000}))
                       .json();
  UsageReport r = Analyze(Input({{"se-1-uuid", "se-1", 4, 8192}}, low, absl::Hours(1)));
  EXPECT_FALSE(r.calibration.ratio.has_value());
  EXPECT_EQ(r.calibration.samples, 0);
  EXPECT_TRUE(UsageReportJson(r)["calibration"]["ratio"].is_null());
  // Absurd sizes: not calibrated, said in a finding, never a crash.
  for (const ObservedSe& se : std::vector<ObservedSe>{{"se-1-uuid", "se-1", 0, 0},
                                                      {"se-1-uuid", "se-1", 100000, 8192},
                                                      {"se-1-uuid", "se-1", 4, int64_t{1} << 50},
                                                      {"se-1-uuid", "se-1", -3, -1}}) {
    const Json busy = Response()
                          .Se("se-1-uuid", Series("se_stats.avg_cpu_usage", "se-1-uuid", {50}))
                          .Vs("se-1-uuid", Series("l7_client.avg_complete_responses", "*", {76500}))
                          .json();
    r = Analyze(Input({se}, busy, absl::Hours(1)));
    EXPECT_FALSE(r.calibration.ratio.has_value());
    const Finding* f = FindRule(r.findings, rules::kCalibrate);
    ASSERT_NE(f, nullptr) << se.vcpus;
    EXPECT_THAT(f->finding.detail, HasSubstr("se-1"));
  }
}

TEST(UsageCalibrationTest, AShapeTheCalibrationOverloadsIsReported) {
  // 1 SE of 4 vCPUs (nsxt, 153,000 RPS) carries 110,000 at 71.9%; at 1.2x, 86.3% is over 80%.
  SizingInput in;
  in.settings = {{"vcpus_per_se", 4}, {"min_scaleout_per_vs", 1}};
  in.workload = {{"l7_rps", 110000}};
  const SizingPlan plan = PlanSizing(in, sz::Platform::kNsxt);
  ASSERT_TRUE(plan.planned_shape.has_value());
  UsageReport r;
  r.window = absl::Hours(24);
  r.calibration.ratio = 1.2;
  r.calibration.samples = 40;
  std::vector<Finding> found = CompareWithDeclared(r, plan, 80);
  const Finding* f = FindRule(found, rules::kCalibrationUnderSized);
  ASSERT_NE(f, nullptr) << AllText(found);
  EXPECT_EQ(f->attribute, "workload");
  EXPECT_TRUE(f->policy_dependent);
  EXPECT_THAT(f->finding.summary, HasSubstr("1.20x the CPU the tables predict"));
  EXPECT_THAT(f->finding.summary, HasSubstr("planned 1 SE of 4 vCPUs"));
  EXPECT_THAT(f->finding.detail, HasSubstr("86.3% CPU against the 80% target"));
  // 1.05x still fits (75.5%).
  r.calibration.ratio = 1.05;
  EXPECT_EQ(FindRule(CompareWithDeclared(r, plan, 80), rules::kCalibrationUnderSized), nullptr);
  // A ratio below 1 never says anything.
  r.calibration.ratio = 0.5;
  EXPECT_TRUE(CompareWithDeclared(r, plan, 80).empty());
}

// ---- Missing data.

TEST(UsageMissingDataTest, NoSes) {
  const UsageReport r = Analyze(Input({}, nullptr, absl::Hours(24)));
  EXPECT_EQ(r.se_count, 0);
  const Finding* f = FindRule(r.findings, rules::kUsageNoSes);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->finding.severity, sz::Severity::kWarning);
  EXPECT_FALSE(r.recommendation.has_value());
  EXPECT_TRUE(UsageReportJson(r)["recommendation"].is_null());
}

TEST(UsageMissingDataTest, AnalyticsUnavailableIsAWarning) {
  for (int http : {403, 404, 500, 503}) {
    const absl::Status status =
        controller::HttpError(http, "POST /api/analytics/metrics/collection", "{\"error\":\"no\"}");
    const UsageReport r = UsageUnavailableReport(TwoSes(), UsageQuery(), status);
    EXPECT_EQ(r.se_count, 2);
    EXPECT_EQ(r.samples, 0);
    EXPECT_EQ(r.expected_samples, 2016);
    ASSERT_EQ(r.findings.size(), 1u);
    const Finding& f = r.findings[0];
    EXPECT_EQ(f.finding.rule, rules::kAnalyticsUnavailable);
    EXPECT_EQ(f.finding.severity, sz::Severity::kWarning);
    EXPECT_FALSE(FindingIsError(f, SizingPolicy::kEnforce, false));
    EXPECT_THAT(f.finding.detail, HasSubstr(absl::StrCat("HTTP ", http)));
    const Json j = UsageReportJson(r);
    EXPECT_TRUE(j["observed"]["l7_rps"].is_null());
    EXPECT_EQ(j["window"], "7d");
  }
  EXPECT_THAT(AnalyticsUnavailableFinding(absl::UnavailableError("")).finding.detail,
              HasSubstr("UNAVAILABLE"));
}

TEST(UsageMissingDataTest, FewerSamplesThanTheWindowSaysHowMany) {
  const Json response =
      Response()
          .Vs("se-1-uuid", Series("l7_client.avg_complete_responses", "*", Constant(200, 1000)))
          .json();
  const UsageReport r = Analyze(Input(TwoSes(), response, absl::Hours(24)));
  EXPECT_EQ(r.samples, 200);
  const Finding* f = FindRule(r.findings, rules::kFewerSamples);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->finding.summary, "Observed 200 of 288 samples");
  EXPECT_THAT(f->finding.detail, HasSubstr("24 hours at 5-minute steps holds 288"));
  // A null response (nothing read) is no samples, not a crash.
  const UsageReport none = Analyze(Input(TwoSes(), nullptr, absl::Hours(24)));
  EXPECT_EQ(none.samples, 0);
  EXPECT_NE(FindRule(none.findings, rules::kFewerSamples), nullptr);
  EXPECT_FALSE(none.recommendation.has_value());
}

TEST(UsageMissingDataTest, PointsAreCappedToTheMostRecent) {
  // One-minute points over 3 days: more than the cap, all inside a 7-day window.
  const int n = limits::kMaxUsagePointsPerSeries + 1000;
  std::vector<std::optional<double>> values(n, 10.0);
  values[0] = 999;      // the oldest point, cut by the cap
  values[n - 1] = 500;  // the newest
  const Json response =
      Response()
          .Vs("se-1-uuid", Series("l7_client.avg_complete_responses", "*", values, kNow, 60))
          .json();
  const UsageReport r =
      Analyze(Input({{"se-1-uuid", "se-1", 4, 8192}}, response, absl::Hours(24 * 7)));
  EXPECT_EQ(r.samples, limits::kMaxUsagePointsPerSeries);
  EXPECT_EQ(*r.Observed(ObservedKey::kL7Rps).value, 500);
  const Finding* f = FindRule(r.findings, rules::kUsagePointsCapped);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->finding.summary, "Read the most recent 2,016 points of 1 series");
  EXPECT_THAT(f->finding.detail, HasSubstr("1,000 older of 3,016 points"));
}

// ---- Malformed responses: never a crash; the finding names the JSON path.

std::string BadPointsText(const UsageReport& r) {
  std::string out;
  for (const Finding& f : r.findings) {
    if (f.finding.rule == rules::kBadPoints)
      absl::StrAppend(&out, f.finding.summary, ". ", f.finding.detail, "\n");
  }
  return out;
}

UsageReport AnalyzeBody(const Json& body) {
  return Analyze(Input({{"se-1", "se-1", 4, 8192}}, body, absl::Hours(1)));
}

TEST(UsageMalformedTest, StructuralProblemsNameTheirPath) {
  EXPECT_THAT(BadPointsText(AnalyzeBody(Json::array())), HasSubstr("the response is array"));
  EXPECT_THAT(BadPointsText(AnalyzeBody({{"other", 1}})), HasSubstr("the response has no series"));
  EXPECT_THAT(BadPointsText(AnalyzeBody({{"series", "x"}})), HasSubstr("series is string"));
  EXPECT_THAT(BadPointsText(AnalyzeBody({{"series", {{"se-stats", 3}}}})),
              HasSubstr("series.se-stats is number"));
  EXPECT_THAT(BadPointsText(AnalyzeBody({{"series", {{"se-stats", {{"se-1", {{"a", 1}}}}}}}})),
              HasSubstr("series.se-stats.se-1 is object, not a list"));
  EXPECT_THAT(BadPointsText(AnalyzeBody({{"series", {{"se-stats", {{"se-1", {1}}}}}}})),
              HasSubstr("series.se-stats.se-1[0] is number"));
  EXPECT_THAT(
      BadPointsText(AnalyzeBody({{"series", {{"se-stats", {{"se-1", {{{"data", {}}}}}}}}}})),
      HasSubstr("series.se-stats.se-1[0].header is missing"));
  EXPECT_THAT(BadPointsText(AnalyzeBody(
                  {{"series", {{"vs-on:se-1", {{"*", {{{"header", {{"name", 5}}}}}}}}}}})),
              HasSubstr("series.vs-on:se-1.*[0].header.name is missing or not a string"));
  Json data_not_list = Series("se_stats.avg_cpu_usage", "se-1", {1});
  data_not_list["data"] = "many";
  EXPECT_THAT(BadPointsText(AnalyzeBody(Response().Se("se-1", data_not_list).json())),
              HasSubstr("series.se-stats.se-1[0].data is string, not a list"));
}

TEST(UsageMalformedTest, BadPointsAreDroppedWithTheirPath) {
  Json s = Series("se_stats.avg_cpu_usage", "se-1", {10, 20, 30, 40, 50, 60, 70, 80, 90, 15});
  s["data"][3]["value"] = "abc";
  s["data"][4]["value"] = -5;
  s["data"][5]["value"] = std::numeric_limits<double>::quiet_NaN();
  s["data"][6]["value"] = 150;  // CPU above 100%
  s["data"][7]["timestamp"] = "yesterday";
  s["data"][8]["timestamp"] = "2026-02-30T00:00:00Z";
  s["data"][1]["timestamp"] = s["data"][0]["timestamp"];  // a duplicate: the first is kept
  s["data"].push_back({{"timestamp", "2026-11-28T15:05:00Z"}, {"value", 99}});  // the future
  s["data"].push_back({{"timestamp", "2026-11-28T13:55:00Z"}, {"value", 99}});  // before
  s["data"].push_back(7);
  s["data"].push_back({{"timestamp", "2026-11-28T14:00:00.000Z"}});  // no value: a gap
  const UsageReport r = AnalyzeBody(Response().Se("se-1", s).json());
  const std::string text = BadPointsText(r);
  EXPECT_THAT(text, HasSubstr("Dropped 10 points"));
  EXPECT_THAT(text, HasSubstr("2 not a number"));
  EXPECT_THAT(text, HasSubstr("1 negative"));
  EXPECT_THAT(text, HasSubstr("1 NaN or infinite"));
  EXPECT_THAT(text, HasSubstr("1 absurd"));
  EXPECT_THAT(text, HasSubstr("2 no readable timestamp"));
  EXPECT_THAT(text, HasSubstr("2 outside the window"));
  EXPECT_THAT(text, HasSubstr("1 duplicated"));
  EXPECT_THAT(text, HasSubstr("the first at series.se-stats.se-1[0].data[3].value (\"abc\")"));
  // 10 (kept over the duplicate's 20), 30 and 15 remain.
  EXPECT_EQ(r.service_engines[0].samples, 3);
  EXPECT_EQ(*r.Observed(ObservedKey::kCpuPct).value, 30);
}

TEST(UsageMalformedTest, UnknownMetricsAndEntitiesAreIgnored) {
  const Json body = Response()
                        .Se("se-1", Series("se_stats.avg_something_new", "se-1", {1, 2}))
                        .Se("se-9", Series("se_stats.avg_cpu_usage", "se-9", {99}))
                        .Vs("se-9", Series("l7_client.avg_complete_responses", "*", {5}))
                        .json();
  Json with_other = body;
  with_other["series"]["someone-else"] = {{"x", 1}};
  const UsageReport r = AnalyzeBody(with_other);
  EXPECT_EQ(BadPointsText(r), "");
  EXPECT_FALSE(r.Observed(ObservedKey::kCpuPct).value.has_value());
  EXPECT_FALSE(r.Observed(ObservedKey::kL7Rps).value.has_value());
}

TEST(UsageMalformedTest, SeriesAreAttributedAsTheRequestsSay) {
  // se-stats: by header.entity_uuid, else the key; vs-on: the SE whatever the key, and the
  // virtual services' series on one SE add up.
  Json keyed_elsewhere = Series("se_stats.avg_cpu_usage", "se-2-uuid", {60});
  const Json body =
      Response()
          .Se("aggregate", keyed_elsewhere)
          .Vs("se-1-uuid", Series("l7_client.avg_complete_responses", "virtualservice-a", {1000}),
              "virtualservice-a")
          .Vs("se-1-uuid", Series("l7_client.avg_complete_responses", "virtualservice-b", {500}),
              "virtualservice-b")
          .json();
  const UsageReport r = Analyze(Input(TwoSes(), body, absl::Hours(1)));
  EXPECT_FALSE(r.service_engines[0].cpu.value.has_value());
  EXPECT_EQ(*r.service_engines[1].cpu.value, 60);
  EXPECT_EQ(*r.Observed(ObservedKey::kL7Rps).value, 1500);
  // Absurd values are dropped, and huge sums never overflow into a crash.
  const Json huge = Response()
                        .Vs("se-1-uuid", Series("l4_client.max_open_conns", "*", {1e300, 9e14}))
                        .Vs("se-2-uuid", Series("l4_client.max_open_conns", "*", {9e14, 9e14}))
                        .json();
  const UsageReport h = Analyze(Input(TwoSes(), huge, absl::Hours(1)));
  EXPECT_EQ(*h.Observed(ObservedKey::kL4OpenConns).value, 1.8e15);
  EXPECT_THAT(BadPointsText(h), HasSubstr("1 absurd"));
  ASSERT_TRUE(h.recommendation.has_value());  // a plan the model cannot carry, not a crash
}

TEST(UsageMalformedTest, BadSettingsAreAnErrorNamingTheSetting) {
  UsageInput in = Input(TwoSes(), nullptr, absl::Hours(1));
  in.settings = {{"max_cpu_usage", "high"}};
  absl::StatusOr<UsageReport> r = AnalyzeUsage(in);
  ASSERT_THAT(r, Not(IsOk()));
  EXPECT_THAT(r.status().message(), HasSubstr("max_cpu_usage"));
  in.settings = {{"max_cpu_usage", 70}};
  in.query.window = absl::Minutes(5);
  r = AnalyzeUsage(in);
  ASSERT_THAT(r, Not(IsOk()));
  EXPECT_THAT(r.status().message(), HasSubstr("from 1h to 30d"));
}

TEST(UsageTargetTest, WorkloadTargetThenMaxCpuUsageThenEighty) {
  EXPECT_EQ(UsageTargetPct(Json::object(), nullptr), 80);
  EXPECT_EQ(UsageTargetPct({{"max_cpu_usage", 60}}, nullptr), 60);
  EXPECT_EQ(UsageTargetPct({{"max_cpu_usage", 60}}, {{"target_utilization", 70}}), 70);
  EXPECT_EQ(UsageTargetPct({{"max_cpu_usage", nullptr}}, {{"l7_rps", 1}}), 80);
  // The observed recommendation is sized at that target.
  UsageInput in = Input(TwoSes(), AcceptanceResponse(), absl::Hours(24));
  in.settings = {{"max_cpu_usage", 60}, {"ha_mode", "HA_MODE_SHARED_PAIR"}};
  const UsageReport r = Analyze(in);
  EXPECT_EQ(r.observed_workload["target_utilization"], 60);
  ASSERT_TRUE(r.recommendation.has_value() && r.recommendation->planned_shape.has_value());
  EXPECT_EQ(r.recommendation->planned_shape->ha_mode, sz::HaMode::kSharedPair);
}

// ---- The worked example of docs/sizing.md ("Observed load", "A worked calibration").

std::string ReadDocs() {
  std::ifstream f(std::string(NSXALB_SOURCE_DIR) + "/docs/sizing.md");
  std::stringstream ss;
  ss << f.rdbuf();
  std::string text = ss.str();
  for (char& c : text) c = c == '\n' ? ' ' : c;  // however the prose is wrapped
  return text;
}

TEST(UsageDocsTest, TheWorkedCalibrationExampleIsWhatTheCodeComputes) {
  // One nsxt SE of 4 vCPUs / 8 GB; declared 4,100 ECC and 1,500 RSA TPS.
  struct Row {
    int minute;
    double tps, rps, cpu;
  };
  const std::vector<Row> rows = {
      {45, 2240, 30600, 72}, {50, 1120, 15300, 39}, {55, 560, 7650, 25}, {60, 2240, 61200, 88}};
  std::vector<std::optional<double>> tps, rps, cpu;
  for (const Row& row : rows) {
    tps.push_back(row.tps);
    rps.push_back(row.rps);
    cpu.push_back(row.cpu);
  }
  const Json declared = {{"ssl_tps_ecc", 4100}, {"ssl_tps_rsa", 1500}, {"l7_rps", 50000}};
  const Json body = Response()
                        .Se("se-1-uuid", Series("se_stats.avg_cpu_usage", "se-1-uuid", cpu))
                        .Vs("se-1-uuid", Series("l7_client.avg_ssl_handshakes_new", "*", tps))
                        .Vs("se-1-uuid", Series("l7_client.avg_complete_responses", "*", rps))
                        .json();
  const UsageReport r = Analyze(
      Input({{"se-1-uuid", "se-1", 4, 8192}}, body, absl::Hours(1), Json::object(), declared));
  const std::string docs = ReadDocs();
  ASSERT_FALSE(docs.empty());

  // Each row of the docs' table, with the prediction computed by the model here.
  absl::StatusOr<sz::SeCapacity> capacity = sz::CapacityOf(sz::Platform::kNsxt, 4, 8192);
  ASSERT_THAT(capacity, IsOk());
  for (const Row& row : rows) {
    sz::Workload w;
    w.platform = sz::Platform::kNsxt;
    w.demand.Set(sz::Metric::kSslTpsEcc, row.tps * 4100 / 5600);
    w.demand.Set(sz::Metric::kSslTpsRsa, row.tps * 1500 / 5600);
    w.demand.Set(sz::Metric::kL7Rps, row.rps);
    const double predicted = sz::CpuLoadOf(sz::LoadsOn(w, *capacity, 1), 80).utilization_pct;
    const std::string ratio =
        predicted >= 20 ? absl::StrFormat("%.2f", row.cpu / predicted) : std::string("(below 20%)");
    const std::string line =
        absl::StrCat(row.minute == 60 ? std::string("15:00") : absl::StrCat("14:", row.minute),
                     " | ", sz::FormatInt(static_cast<int64_t>(row.tps)), " | ",
                     sz::FormatInt(static_cast<int64_t>(row.tps * 4100 / 5600 + 0.5)), " + ",
                     sz::FormatInt(static_cast<int64_t>(row.tps * 1500 / 5600 + 0.5)), " | ",
                     sz::FormatInt(static_cast<int64_t>(row.rps)), " | ",
                     sz::FormatPercent(predicted), " | ", row.cpu, "% | ", ratio, " |");
    EXPECT_NE(docs.find(line), std::string::npos) << line;
  }
  ASSERT_TRUE(r.calibration.ratio.has_value());
  EXPECT_NEAR(*r.calibration.ratio, 1.2, 1e-9);
  EXPECT_EQ(r.calibration.samples, 3);
  EXPECT_NE(docs.find("the median of 1.10, 1.20 and 1.30 is **1.20** over 3 samples"),
            std::string::npos);
  // The recommendation the docs quote.
  ASSERT_TRUE(r.recommendation.has_value() && r.recommendation->summary.has_value());
  EXPECT_NE(docs.find(absl::StrCat("`", r.recommendation->summary->summary, "`")),
            std::string::npos)
      << r.recommendation->summary->summary;
  EXPECT_NE(docs.find(absl::StrCat("`", r.observed_workload.dump(), "`")), std::string::npos)
      << r.observed_workload.dump();
}

}  // namespace
}  // namespace nsxalb::segroup
