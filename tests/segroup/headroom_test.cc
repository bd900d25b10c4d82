// What a group costs and how long it lasts (plugin/segroup/usage/headroom.h): the Service Units
// now, recommended and reclaimable, the observed-capacity-unused and forecast-reaches-target
// findings, and how AnalyzeUsage (usage.h) fills the report's service_units and forecast and their
// JSON. Every expected figure is worked by hand in a comment beside it.
#include "plugin/segroup/usage/headroom.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "plugin/segroup/sizing_plan.h"
#include "plugin/segroup/usage/analyze.h"
#include "plugin/segroup/usage/compare.h"
#include "plugin/segroup/usage/forecast.h"
#include "plugin/sizing/rules.h"
#include "plugin/sizing/service_units.h"
#include "tests/segroup/usage_test_support.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::segroup {
namespace {

using ::nsxalb::testing::IsOk;
using ::testing::HasSubstr;
using ::testing::Not;

namespace sz = ::nsxalb::sizing;
namespace rules = ::nsxalb::sizing::rules;
using Json = nlohmann::json;
using usage_testing::AllText;
using usage_testing::Analyze;
using usage_testing::At;
using usage_testing::Constant;
using usage_testing::FindRule;
using usage_testing::Input;
using usage_testing::Iso;
using usage_testing::kMidnight;
using usage_testing::kNow;
using usage_testing::Response;
using usage_testing::Series;

// A series of (time, value) points.
Json SeriesAt(const std::string& metric, const std::string& entity,
              const std::vector<std::pair<absl::Time, double>>& points) {
  Json data = Json::array();
  for (const auto& [t, v] : points) data.push_back({{"timestamp", Iso(t)}, {"value", v}});
  return {{"header", {{"name", metric}, {"entity_uuid", entity}, {"units", "PER_SECOND"}}},
          {"data", data}};
}

ObservedSe Se(const std::string& name, int vcpus, int64_t memory_mb) {
  ObservedSe se;
  se.uuid = absl::StrCat(name, "-uuid");
  se.name = name;
  se.vcpus = vcpus;
  se.memory_mb = memory_mb;
  return se;
}

// `n` values of `base`, with `peak` at index `at`.
std::vector<std::optional<double>> Spike(int n, double base, int at, double peak) {
  std::vector<std::optional<double>> v(n, base);
  v[at] = peak;
  return v;
}

// ---- Service Units now (rule service-units-now).

TEST(HeadroomServiceUnitsTest, ServiceUnitsNowIsTheSumOverTheSesAtTheirRealVcpus) {
  // One SU per vCPU: 3 x 8 = 24.
  EXPECT_EQ(ServiceUnitsNow({8, 8, 8}, sz::ServiceUnitSettings()), 24);
  // Mixed sizes add up: 2 + 4 + 8 = 14.
  EXPECT_EQ(ServiceUnitsNow({2, 4, 8}, sz::ServiceUnitSettings()), 14);

  sz::ServiceUnitSettings dps;
  dps.max_num_se_dps = 4;
  // 4 data-path processes per 8-vCPU SE: 3 x 4 = 12.
  EXPECT_EQ(ServiceUnitsNow({8, 8, 8}, dps), 12);
  // max_num_se_dps above the vCPUs keeps one per vCPU: 2 + 4 = 6.
  EXPECT_EQ(ServiceUnitsNow({2, 4}, dps), 6);

  sz::ServiceUnitSettings per_app;
  per_app.per_app = true;
  // A quarter SU per vCPU: 24 x 0.25 = 6.
  EXPECT_EQ(ServiceUnitsNow({8, 8, 8}, per_app), 6);
  per_app.max_num_se_dps = 4;
  // Both: 3 SEs x 4 processes x 0.25 = 3.
  EXPECT_EQ(ServiceUnitsNow({8, 8, 8}, per_app), 3);

  // An SE whose vCPUs are not known makes the sum unknown; so do no SEs.
  EXPECT_EQ(ServiceUnitsNow({8, 0, 8}, sz::ServiceUnitSettings()), std::nullopt);
  EXPECT_EQ(ServiceUnitsNow({}, sz::ServiceUnitSettings()), std::nullopt);
}

TEST(HeadroomServiceUnitsTest, LicenceSettingsAreReadByAviFieldName) {
  const sz::ServiceUnitSettings both =
      LicenceSettingsOf({{"max_num_se_dps", 4}, {"per_app", true}});
  EXPECT_EQ(both.max_num_se_dps, 4);
  EXPECT_TRUE(both.per_app);
  // The same settings give the figures above: 3 x 4 x 0.25 = 3.
  EXPECT_EQ(ServiceUnitsNow({8, 8, 8}, both), 3);

  const sz::ServiceUnitSettings none = LicenceSettingsOf(Json::object());
  EXPECT_EQ(none.max_num_se_dps, std::nullopt);
  EXPECT_FALSE(none.per_app);
  // Null, a string or a non-object count as unset.
  const sz::ServiceUnitSettings odd =
      LicenceSettingsOf({{"max_num_se_dps", nullptr}, {"per_app", "true"}});
  EXPECT_EQ(odd.max_num_se_dps, std::nullopt);
  EXPECT_FALSE(odd.per_app);
  EXPECT_EQ(LicenceSettingsOf(Json::array()).max_num_se_dps, std::nullopt);
  EXPECT_FALSE(LicenceSettingsOf(nullptr).per_app);
}

// ---- Reclaimable (rule reclaim-needs-half-the-samples).

TEST(HeadroomReclaimTest, ReclaimableIsNowLessRecommendedFromAFullEnoughWindow) {
  // 24 - 8 = 16.
  ServiceUnitsUsage su = ReclaimableServiceUnits(24, 8, 2016, 2016);
  EXPECT_EQ(su.now, 24);
  EXPECT_EQ(su.recommended, 8);
  EXPECT_EQ(su.reclaimable, 16);
  EXPECT_EQ(su.reason, "");

  // A recommendation above the SUs now reclaims nothing: max(0, 24 - 30) = 0.
  su = ReclaimableServiceUnits(24, 30, 2016, 2016);
  EXPECT_EQ(su.reclaimable, 0);
  EXPECT_EQ(su.reason, "");

  // Exactly half the samples is enough (1,008 x 2 = 2,016); one fewer is not.
  EXPECT_EQ(ReclaimableServiceUnits(24, 8, 1008, 2016).reclaimable, 16);
  EXPECT_EQ(ReclaimableServiceUnits(24, 8, 1007, 2016).reclaimable, std::nullopt);

  // 1,000 of 2,016 is fewer than half: no figure, and the reason names the rule.
  su = ReclaimableServiceUnits(24, 8, 1000, 2016);
  EXPECT_EQ(su.now, 24);
  EXPECT_EQ(su.recommended, 8);
  EXPECT_EQ(su.reclaimable, std::nullopt);
  EXPECT_THAT(su.reason, HasSubstr("1,000 of 2,016"));
  EXPECT_THAT(su.reason, HasSubstr(rules::kReclaimNeedsHalfTheSamples));
  EXPECT_EQ(std::string(rules::kReclaimNeedsHalfTheSamples), "reclaim-needs-half-the-samples");

  // Unknown SUs now, or no recommendation: a reason, no figure.
  su = ReclaimableServiceUnits(std::nullopt, 8, 2016, 2016);
  EXPECT_EQ(su.reclaimable, std::nullopt);
  EXPECT_NE(su.reason, "");
  EXPECT_THAT(su.reason, HasSubstr("not known"));
  su = ReclaimableServiceUnits(24, std::nullopt, 2016, 2016);
  EXPECT_EQ(su.reclaimable, std::nullopt);
  EXPECT_THAT(su.reason, HasSubstr("no recommendation"));
}

// ---- observed-capacity-unused, through AnalyzeUsage.

// The acceptance case: 2 SEs of 6 vCPUs (nsxt) whose L7 RPS summed at most 20,000 and
// whose CPU was at most 12% over 7 days at 300 s steps (2,016 points, all inside the window): each
// SE carries 5,000 RPS at 6% CPU, and 10,000 at 12% at index 1,000.
Json QuietResponse(int points) {
  const int at = points / 2;
  Response r;
  for (const char* se : {"se-1-uuid", "se-2-uuid"}) {
    r.Se(se, Series("se_stats.avg_cpu_usage", se, Spike(points, 6, at, 12)));
    r.Vs(se, Series("l7_client.avg_complete_responses", "*", Spike(points, 5000, at, 10000)));
  }
  return r.json();
}

const Json kSharedBufferOne = {{"ha_mode", "HA_MODE_SHARED"}, {"buffer_se", 1}};
const Json kDeclared400k = {{"l7_rps", 400000}};

std::vector<ObservedSe> TwoSixVcpuSes() { return {Se("se-1", 6, 12288), Se("se-2", 6, 12288)}; }

// The declared plan: 400,000 L7 RPS on 3 SEs of 6 vCPUs (nsxt 205,000 RPS each: 400,000 /
// 615,000 = 65.0%, within 80%); max_se = 3 active + 1 buffer = 4, so 4 x 6 = 24 SUs.
SizingPlan Declared400k() {
  SizingInput in;
  in.settings = kSharedBufferOne;
  in.settings["vcpus_per_se"] = 6;
  in.settings["min_scaleout_per_vs"] = 3;
  in.workload = kDeclared400k;
  return PlanSizing(in, sz::Platform::kNsxt);
}

TEST(HeadroomCapacityUnusedTest, AGroupDeclaredForFarMoreThanItCarriedCanGiveSusBack) {
  const UsageReport r = Analyze(Input(TwoSixVcpuSes(), QuietResponse(2016), absl::Hours(24 * 7),
                                      kSharedBufferOne, kDeclared400k));
  // The window is full: 7 x 24 x 12 = 2,016 samples.
  EXPECT_EQ(r.samples, 2016);
  EXPECT_EQ(r.expected_samples, 2016);
  ASSERT_TRUE(r.Observed(ObservedKey::kL7Rps).value.has_value());
  EXPECT_EQ(*r.Observed(ObservedKey::kL7Rps).value, 20000);  // 10,000 + 10,000
  EXPECT_EQ(*r.Observed(ObservedKey::kCpuPct).value, 12);
  // 10,000 RPS on one 6-vCPU SE is 10,000 / 205,000 = 4.9% predicted, under the 20% a calibration
  // sample needs: the recommendation is sized from the raw 20,000.
  EXPECT_FALSE(r.calibration.ratio.has_value());

  // From the rates alone: 20,000 / 80% = 25,000 needed; the smallest nsxt SE (1 vCPU, 60,000
  // RPS) carries it alone at 20,000 / 60,000 = 33.3%. But the SEs used 12% x 6 + 12% x 6 = 1.44
  // vCPUs at their peak (index 1,000), more than 1 vCPU holds at 80% (0.8): rule
  // observed-cpu-floor raises the demand until the active SEs hold them. 1 SE of 2 vCPUs holds
  // 1.6; N+M with buffer_se 1 plans max_se = 2, so 2 x 2 = 4 SUs.
  ASSERT_TRUE(r.recommendation.has_value());
  ASSERT_TRUE(r.recommendation->planned_shape.has_value()) << r.observed_workload.dump();
  ASSERT_TRUE(r.recommendation->summary.has_value());
  const sz::Recommendation& shape = *r.recommendation->planned_shape;
  ASSERT_TRUE(r.cpu_floor.used_vcpus.has_value());
  EXPECT_NEAR(*r.cpu_floor.used_vcpus, 1.44, 1e-9);
  EXPECT_GT(r.cpu_floor.raise, 1);
  EXPECT_TRUE(r.cpu_floor.met);
  EXPECT_EQ(shape.vcpus_per_se.value, 2);
  EXPECT_EQ(shape.se_count.value, 1);
  EXPECT_EQ(shape.max_se.value, 2);
  ASSERT_TRUE(r.recommendation->summary->service_units.has_value());
  EXPECT_EQ(*r.recommendation->summary->service_units,
            shape.max_se.value * shape.vcpus_per_se.value);
  EXPECT_EQ(*r.recommendation->summary->service_units, 4);

  // Now: 2 SEs x 6 vCPUs = 12 SUs; recommended 4; reclaimable 12 - 4 = 8.
  EXPECT_EQ(r.service_units.now, 12);
  EXPECT_EQ(r.service_units.recommended, 4);
  EXPECT_EQ(r.service_units.reclaimable, 8);
  EXPECT_EQ(r.service_units.reason, "");
  const Json j = UsageReportJson(r);
  EXPECT_EQ(j["service_units"]["now"], 12);
  EXPECT_EQ(j["service_units"]["recommended"], 4);
  EXPECT_EQ(j["service_units"]["reclaimable"], 8);
  EXPECT_TRUE(j["service_units"]["reason"].is_null());

  const SizingPlan declared = Declared400k();
  ASSERT_TRUE(declared.summary.has_value()) << AllText(declared.findings);
  ASSERT_TRUE(declared.summary->service_units.has_value());
  EXPECT_EQ(*declared.summary->service_units, 24);

  // 8 SUs is at least 2 and at least 25% of 12 (3): the finding.
  const std::optional<Finding> f = CapacityUnusedFinding(r, declared);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->finding.rule, rules::kObservedCapacityUnused);
  EXPECT_EQ(f->finding.rule, "observed-capacity-unused");
  EXPECT_EQ(f->finding.severity, sz::Severity::kWarning);
  EXPECT_FALSE(f->policy_dependent);
  EXPECT_FALSE(FindingIsError(*f, SizingPolicy::kEnforce, false));
  // vcpus_per_se is hand-set to 6, above the 2 the observed load needs: the finding stands there.
  EXPECT_EQ(f->attribute, "vcpus_per_se");
  EXPECT_EQ(f->finding.summary,
            "2 SEs of 6 vCPUs (12 SUs) carried an observed peak that 2 SEs of 2 vCPUs (4 SUs, the "
            "buffer SE included) carry at 51.1%: 8 SUs reclaimable");
  EXPECT_THAT(f->finding.detail, HasSubstr("Over the last 7 days"));
  EXPECT_THAT(f->finding.detail, HasSubstr("consumed 12 SUs (rule service-units-now)"));
  EXPECT_THAT(f->finding.detail, HasSubstr("the observed load needs 4 SUs"));
  EXPECT_THAT(f->finding.detail,
              HasSubstr("The declared workload plans 24 SUs, the observed load needs 4 SUs"));
}

TEST(HeadroomCapacityUnusedTest, WithEverythingRecommendedTheFindingStandsAtTheWorkload) {
  const UsageReport r = Analyze(Input(TwoSixVcpuSes(), QuietResponse(2016), absl::Hours(24 * 7),
                                      kSharedBufferOne, kDeclared400k));
  // No size set by hand: 400,000 / 80% = 500,000 is more than one 6-vCPU SE (205,000), so the
  // fewest SEs of 6 that carry it, 3 (615,000; 2 give 410,000), then the fewest vCPUs with which
  // 3 SEs still do: 5 (interpolated 179,000 each, 3 x 179,000 = 537,000; 3 of 4 give 459,000).
  // max_se 3 + 1 buffer = 4, 4 x 5 = 20 SUs.
  SizingInput in;
  in.settings = kSharedBufferOne;
  in.workload = kDeclared400k;
  const SizingPlan declared = PlanSizing(in, sz::Platform::kNsxt);
  ASSERT_TRUE(declared.summary.has_value()) << AllText(declared.findings);
  ASSERT_TRUE(declared.planned_shape.has_value());
  EXPECT_EQ(declared.planned_shape->vcpus_per_se.value, 5);
  EXPECT_EQ(declared.planned_shape->max_se.value, 4);
  EXPECT_EQ(declared.summary->service_units, 20);
  const std::optional<Finding> f = CapacityUnusedFinding(r, declared);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->attribute, "workload");
  EXPECT_THAT(f->finding.detail, HasSubstr("The declared workload plans 20 SUs"));
  // A declared plan without a workload has no SUs to compare: the detail does not say it.
  const std::optional<Finding> bare =
      CapacityUnusedFinding(r, PlanSizing(SizingInput(), sz::Platform::kNsxt));
  ASSERT_TRUE(bare.has_value());
  EXPECT_THAT(bare->finding.detail, Not(HasSubstr("declared workload plans")));
}

TEST(HeadroomCapacityUnusedTest, NothingBelowTheThresholds) {
  // 3 SEs of 1 vCPU carrying the same 20,000 (7,000 + 7,000 + 6,000 at the peak): now 3 SUs, the
  // recommendation 2 (as above), so 1 SU reclaimable: under kMinReclaimServiceUnits (2).
  const int n = 2016, at = 1000;
  const Json response =
      Response()
          .Vs("se-1-uuid",
              Series("l7_client.avg_complete_responses", "*", Spike(n, 3000, at, 7000)))
          .Vs("se-2-uuid",
              Series("l7_client.avg_complete_responses", "*", Spike(n, 3000, at, 7000)))
          .Vs("se-3-uuid",
              Series("l7_client.avg_complete_responses", "*", Spike(n, 3000, at, 6000)))
          .json();
  const UsageReport small =
      Analyze(Input({Se("se-1", 1, 2048), Se("se-2", 1, 2048), Se("se-3", 1, 2048)}, response,
                    absl::Hours(24 * 7), kSharedBufferOne, kDeclared400k));
  EXPECT_EQ(*small.Observed(ObservedKey::kL7Rps).value, 20000);
  EXPECT_EQ(small.service_units.now, 3);
  EXPECT_EQ(small.service_units.recommended, 2);
  EXPECT_EQ(small.service_units.reclaimable, 1);
  EXPECT_EQ(CapacityUnusedFinding(small, Declared400k()), std::nullopt);

  // The thresholds, on the acceptance report with other figures: at least 2 SUs and at least 25%.
  UsageReport r = Analyze(Input(TwoSixVcpuSes(), QuietResponse(2016), absl::Hours(24 * 7),
                                kSharedBufferOne, kDeclared400k));
  ASSERT_TRUE(r.recommendation.has_value());
  const SizingPlan declared = Declared400k();
  r.service_units = ReclaimableServiceUnits(40, 31, 2016, 2016);  // 9 < 25% of 40 = 10
  EXPECT_EQ(CapacityUnusedFinding(r, declared), std::nullopt);
  r.service_units = ReclaimableServiceUnits(40, 30, 2016, 2016);  // 10 = 25% of 40
  ASSERT_TRUE(CapacityUnusedFinding(r, declared).has_value());
  EXPECT_THAT(CapacityUnusedFinding(r, declared)->finding.summary,
              HasSubstr("(40 SUs) carried an observed peak"));
  EXPECT_THAT(CapacityUnusedFinding(r, declared)->finding.summary,
              HasSubstr(": 10 SUs reclaimable"));
  r.service_units = ReclaimableServiceUnits(3, 1.25, 2016, 2016);  // 1.75 < 2
  EXPECT_EQ(CapacityUnusedFinding(r, declared), std::nullopt);
  r.service_units = ReclaimableServiceUnits(3, 1, 2016, 2016);  // 2 >= 2, and >= 0.75
  EXPECT_TRUE(CapacityUnusedFinding(r, declared).has_value());
  r.service_units = ReclaimableServiceUnits(12, 20, 2016, 2016);  // 0
  EXPECT_EQ(CapacityUnusedFinding(r, declared), std::nullopt);
}

TEST(HeadroomCapacityUnusedTest, AWindowWithFewerThanHalfItsSamplesReclaimsNothing) {
  // 1,000 timestamps of 2,016: the same peaks, but fewer than half the samples.
  const UsageReport r = Analyze(Input(TwoSixVcpuSes(), QuietResponse(1000), absl::Hours(24 * 7),
                                      kSharedBufferOne, kDeclared400k));
  EXPECT_EQ(r.samples, 1000);
  EXPECT_EQ(r.service_units.now, 12);
  EXPECT_EQ(r.service_units.recommended, 4);
  EXPECT_EQ(r.service_units.reclaimable, std::nullopt);
  EXPECT_THAT(r.service_units.reason, HasSubstr(rules::kReclaimNeedsHalfTheSamples));
  EXPECT_EQ(CapacityUnusedFinding(r, Declared400k()), std::nullopt);
  const Json j = UsageReportJson(r);
  EXPECT_TRUE(j["service_units"]["reclaimable"].is_null());
  ASSERT_TRUE(j["service_units"]["reason"].is_string());
  EXPECT_THAT(j["service_units"]["reason"].get<std::string>(), HasSubstr("1,000 of 2,016"));
}

// ---- observed-cpu-floor, through AnalyzeUsage.

// The estate scenario's hot group (issue 40): 2 SEs of 2 vCPUs at 45% CPU, each carrying 4,000
// L7 RPS, over 7 days at 300 s steps; hot-se-1 peaked at 92% at index 150, hot-se-2 at 151.
Json HotResponse() {
  Response r;
  int at = 150;
  for (const char* se : {"hot-se-1-uuid", "hot-se-2-uuid"}) {
    r.Se(se, Series("se_stats.avg_cpu_usage", se, Spike(2016, 45, at++, 92)));
    r.Vs(se, Series("l7_client.avg_complete_responses", "*", Constant(2016, 4000)));
  }
  return r.json();
}

std::vector<ObservedSe> TwoHotSes() { return {Se("hot-se-1", 2, 4096), Se("hot-se-2", 2, 4096)}; }

TEST(HeadroomCpuFloorTest, AGroupThatRanAt92PercentReclaimsNothing) {
  // Worked in docs/sizing.md ("The observed CPU floor"). 4,000 RPS on a 2-vCPU nsxt SE is far
  // under the 20% a calibration sample needs: no calibration, and the rates alone (8,000 RPS)
  // would fit 1 SE of 1 vCPU + 1 buffer = 2 SUs, "2 of 4 SUs reclaimable".
  const UsageReport r =
      Analyze(Input(TwoHotSes(), HotResponse(), absl::Hours(24 * 7), kSharedBufferOne));
  EXPECT_FALSE(r.calibration.applied);
  EXPECT_EQ(*r.Observed(ObservedKey::kCpuPct).value, 92);
  // The vCPUs used at their peak: at index 150, 92% x 2 + 45% x 2 = 1.84 + 0.90 = 2.74 (the same
  // at 151).
  ASSERT_TRUE(r.cpu_floor.used_vcpus.has_value());
  EXPECT_NEAR(*r.cpu_floor.used_vcpus, 2.74, 1e-9);
  // At 80% they need 2.74 / 0.8 = 3.425 active vCPUs: not 1 SE of 3 (2.4 held), but 1 SE of 4
  // (3.2 held), with its buffer SE: max_se 2 x 4 = 8 SUs.
  ASSERT_TRUE(r.recommendation.has_value());
  ASSERT_TRUE(r.recommendation->planned_shape.has_value()) << r.observed_workload.dump();
  const sz::Recommendation& shape = *r.recommendation->planned_shape;
  EXPECT_GT(r.cpu_floor.raise, 1);
  EXPECT_TRUE(r.cpu_floor.met);
  EXPECT_GE(shape.se_count.value * shape.vcpus_per_se.value * 0.8, 2.74);
  EXPECT_EQ(shape.se_count.value, 1);
  EXPECT_EQ(shape.vcpus_per_se.value, 4);
  EXPECT_EQ(r.service_units.recommended, 8);
  // Now 2 x 2 = 4 SUs. At risk (an SE over the target): 0 reclaimable, and why.
  EXPECT_EQ(r.service_units.now, 4);
  EXPECT_EQ(r.service_units.reclaimable, 0);
  EXPECT_EQ(r.service_units.reason,
            "hot-se-1 ran at 92% CPU, over the group's 80% target: a group at risk gives nothing "
            "back (rule observed-cpu-floor)");
  const Json j = UsageReportJson(r);
  EXPECT_EQ(j["service_units"]["reclaimable"], 0);
  EXPECT_THAT(j["service_units"]["reason"].get<std::string>(), HasSubstr("observed-cpu-floor"));
  // The floor is stated among the findings.
  const Finding* floor = FindRule(r.findings, rules::kObservedCpuFloor);
  ASSERT_NE(floor, nullptr);
  EXPECT_EQ(floor->finding.summary,
            "The recommendation holds the CPU the SEs used: 2.74 vCPUs at their peak");
  // No observed-capacity-unused warning for it.
  EXPECT_FALSE(CapacityUnusedFinding(r, Declared400k()).has_value());
}

TEST(HeadroomCpuFloorTest, WithoutCpuBoundDemandTheFloorIsNotMetAndNothingIsReclaimed) {
  // 1 SE of 4 vCPUs at 70% CPU (under the 80% target: not at risk) whose only observed rate is
  // open connections, which the model does not put on the CPU: the vCPUs used are 70% x 4 = 2.8,
  // the recommendation for the connections alone holds less, and there is no CPU-bound demand to
  // raise. The floor is not met: 0 reclaimable, and why.
  Response resp;
  resp.Se("se-1-uuid", Series("se_stats.avg_cpu_usage", "se-1-uuid", Constant(12, 70)));
  resp.Vs("se-1-uuid", Series("l4_client.max_open_conns", "*", Constant(12, 1000)));
  const UsageReport r =
      Analyze(Input({Se("se-1", 4, 8192)}, resp.json(), absl::Hours(1), kSharedBufferOne));
  ASSERT_TRUE(r.recommendation.has_value() && r.recommendation->planned_shape.has_value());
  const sz::Recommendation& shape = *r.recommendation->planned_shape;
  EXPECT_LT(shape.se_count.value * shape.vcpus_per_se.value * 0.8, 2.8);
  EXPECT_EQ(r.cpu_floor.raise, 1);
  EXPECT_FALSE(r.cpu_floor.met);
  EXPECT_EQ(AtRiskReason(r, kDefaultForecastDays), "");
  EXPECT_EQ(r.service_units.reclaimable, 0);
  EXPECT_EQ(r.service_units.reason,
            "the recommendation does not hold the 2.80 vCPUs the SEs used at their peak at the "
            "80% target (rule observed-cpu-floor)");
}

TEST(HeadroomCpuFloorTest, AtRiskWithholdsEvenWhenTheFloorHolds) {
  // Rule estate-group-at-risk through AtRiskReason: an SE over the target, else a forecast within
  // forecast_days.
  UsageReport r;
  r.target_pct = 80;
  r.service_units = ReclaimableServiceUnits(24, 8, 2016, 2016);
  SeUsage se;
  se.name = "se-1";
  se.cpu.value = 80;  // at the target is not over it
  r.service_engines.push_back(se);
  EXPECT_EQ(AtRiskReason(r, 30), "");
  WithholdReclaim(r, 30);
  EXPECT_EQ(r.service_units.reclaimable, 16);
  EXPECT_EQ(r.service_units.reason, "");

  r.forecast.days_to_target = 20;
  EXPECT_EQ(AtRiskReason(r, 19), "");
  EXPECT_EQ(AtRiskReason(r, 30), "the forecast reaches 80% in 20 days, within 30");
  WithholdReclaim(r, 30);
  EXPECT_EQ(r.service_units.reclaimable, 0);
  EXPECT_EQ(r.service_units.reason,
            "the forecast reaches 80% in 20 days, within 30: a group at risk gives nothing back "
            "(rule observed-cpu-floor)");

  // Unknown stays unknown, with its own reason.
  UsageReport unknown = r;
  unknown.service_units = ReclaimableServiceUnits(std::nullopt, 8, 2016, 2016);
  WithholdReclaim(unknown, 30);
  EXPECT_FALSE(unknown.service_units.reclaimable.has_value());
  EXPECT_EQ(unknown.service_units.reason, "the vCPUs of the group's SEs are not known");
}

TEST(HeadroomCpuFloorTest, ACalibratedRecommendationThatHoldsTheCpuIsUnaffected) {
  // 1 SE of 4 vCPUs (nsxt, 153,000 RPS at 100%) carrying 100,000 RPS at 70% CPU: the model
  // predicts 100,000 / 153,000 = 65.4%, ratio 70 / 65.4 = 1.071, calibration applied. The
  // vCPUs used: 70% x 4 = 2.8; the calibrated recommendation, 107,100 RPS at 80%, needs more
  // than one 4-vCPU SE gives at 80% (122,400): whatever it plans, its active SEs hold 2.8 vCPUs
  // at 80% (3.5 active vCPUs or more), so the floor raises nothing.
  Response resp;
  resp.Se("se-1-uuid", Series("se_stats.avg_cpu_usage", "se-1-uuid", Constant(12, 70)));
  resp.Vs("se-1-uuid", Series("l7_client.avg_complete_responses", "*", Constant(12, 100000)));
  const UsageReport r = Analyze(Input({Se("se-1", 4, 8192)}, resp.json(), absl::Hours(1)));
  EXPECT_TRUE(r.calibration.applied);
  ASSERT_TRUE(r.cpu_floor.used_vcpus.has_value());
  EXPECT_NEAR(*r.cpu_floor.used_vcpus, 2.8, 1e-9);
  EXPECT_EQ(r.cpu_floor.raise, 1);
  EXPECT_TRUE(r.cpu_floor.met);
  EXPECT_EQ(FindRule(r.findings, rules::kObservedCpuFloor), nullptr);
  // The observed workload is the calibrated one alone: 100,000 x the ratio.
  EXPECT_NEAR(r.observed_workload["l7_rps"].get<double>(), 100000 * *r.calibration.ratio, 1);
  ASSERT_TRUE(r.recommendation.has_value() && r.recommendation->planned_shape.has_value());
  const sz::Recommendation& shape = *r.recommendation->planned_shape;
  EXPECT_GE(shape.se_count.value * shape.vcpus_per_se.value * 0.8, 2.8);
}

// ---- forecast-reaches-target, through AnalyzeUsage.

// 14 days of hourly CPU of one SE, ending at kMidnight: the points at window start + k hours,
// k = 1..336 (the exclusive start drops k = 0). Day d (0-13) peaks at 40 + d (at 14:00), its
// other hours at 30 + d; the point at kMidnight itself (44) is the last point, and ends the period
// of Nov 27, whose peak (53) it does not change.
Json RisingCpuResponse(double first_peak, double per_day, int days = 14) {
  const absl::Time start = kMidnight - absl::Hours(24 * days);
  std::vector<std::pair<absl::Time, double>> points;
  for (int k = 1; k <= 24 * days; ++k) {
    const int day = k / 24, hour = k % 24;
    const double peak = first_peak + per_day * day;
    points.emplace_back(start + absl::Hours(k), hour == 14 ? peak : peak - 10);
  }
  return Response().Se("web-se-1-uuid", SeriesAt("se_stats.avg_cpu_usage", "", points)).json();
}

TEST(HeadroomForecastTest, ADailyPeakRisingAPointADayReaches80PercentIn27Days) {
  const UsageReport r =
      Analyze(Input({Se("web-se-1", 4, 8192)}, RisingCpuResponse(40, 1), absl::Hours(24 * 14),
                    {{"max_cpu_usage", 80}}, nullptr, kMidnight));
  // 14 days at 3600 s steps: 336 samples, all present.
  EXPECT_EQ(r.step_seconds, 3600);
  EXPECT_EQ(r.samples, 336);
  EXPECT_EQ(r.expected_samples, 336);
  EXPECT_EQ(r.target_pct, 80);
  // Peaks 40, 41, ..., 53: the line y = 40 + x fits exactly (slope 1, R² 1); at the last day
  // (x = 13) it is at 53, and reaches 80 at x = 40: (80 - 53) / 1 = 27 days after the last point
  // (Nov 28 00:00), Dec 25. Each period is named by its end: Nov 15 00:00 ends Nov 14's.
  const Forecast& f = r.forecast;
  ASSERT_TRUE(f.days_to_target.has_value()) << f.reason;
  EXPECT_EQ(*f.days_to_target, 27);
  EXPECT_EQ(f.measure, "cpu_pct");
  EXPECT_EQ(f.measure, kCpuForecastMeasure);
  ASSERT_EQ(f.daily_peaks.size(), 14u);
  EXPECT_EQ(f.daily_peaks.front().day, At(2026, 11, 15, 0, 0));
  EXPECT_DOUBLE_EQ(f.daily_peaks.front().value, 40);
  EXPECT_EQ(f.daily_peaks.back().day, At(2026, 11, 28, 0, 0));
  EXPECT_DOUBLE_EQ(f.daily_peaks.back().value, 53);
  ASSERT_TRUE(f.slope_per_day.has_value());
  EXPECT_NEAR(*f.slope_per_day, 1, 1e-9);
  EXPECT_NEAR(*f.r_squared, 1, 1e-9);
  EXPECT_EQ(f.reaches_at, At(2026, 12, 25, 0, 0));
  EXPECT_EQ(f.reason, "");
  EXPECT_EQ(r.forecast_subject, "web-se-1");

  const Json j = UsageReportJson(r);
  EXPECT_EQ(j["forecast"]["days_to_target"], 27);
  EXPECT_EQ(j["forecast"]["reaches_on"], "2026-12-25");
  EXPECT_EQ(j["forecast"]["measure"], "cpu_pct");
  EXPECT_EQ(j["forecast"]["subject"], "web-se-1");
  EXPECT_EQ(j["forecast"]["target_pct"], 80);
  EXPECT_EQ(j["forecast"]["slope_per_day"], 1);
  EXPECT_EQ(j["forecast"]["r_squared"], 1);
  ASSERT_EQ(j["forecast"]["daily_peaks"].size(), 14u);
  EXPECT_EQ(j["forecast"]["daily_peaks"][0]["day"], "2026-11-15");
  EXPECT_EQ(j["forecast"]["daily_peaks"][0]["value"], 40);
  EXPECT_EQ(j["forecast"]["daily_peaks"][13]["day"], "2026-11-28");
  EXPECT_EQ(j["forecast"]["daily_peaks"][13]["value"], 53);
  EXPECT_TRUE(j["forecast"]["reason"].is_null());
  // No rate was observed, so no recommendation: the SUs now (1 x 4) but nothing reclaimable.
  EXPECT_EQ(j["service_units"]["now"], 4);
  EXPECT_TRUE(j["service_units"]["recommended"].is_null());
  EXPECT_TRUE(j["service_units"]["reclaimable"].is_null());
  EXPECT_TRUE(j["service_units"]["reason"].is_string());

  // Within the default 30 forecast days (27 <= 30): the warning at the workload.
  EXPECT_EQ(kDefaultForecastDays, 30);
  const std::optional<Finding> warn = ForecastFinding(r, kDefaultForecastDays);
  ASSERT_TRUE(warn.has_value());
  EXPECT_EQ(warn->finding.rule, rules::kForecastReachesTarget);
  EXPECT_EQ(warn->finding.rule, "forecast-reaches-target");
  EXPECT_EQ(warn->attribute, "workload");
  EXPECT_EQ(warn->finding.severity, sz::Severity::kWarning);
  EXPECT_FALSE(warn->policy_dependent);
  EXPECT_THAT(warn->finding.summary, HasSubstr("14-day trend"));
  EXPECT_THAT(warn->finding.summary, HasSubstr("web-se-1 reaches"));
  EXPECT_THAT(warn->finding.summary, HasSubstr("27 days"));
  EXPECT_THAT(warn->finding.summary, HasSubstr("(Dec 25)"));
  EXPECT_THAT(warn->finding.summary, HasSubstr("80%"));
  EXPECT_THAT(warn->finding.detail, HasSubstr("forecast_days (30)"));
  EXPECT_THAT(warn->finding.detail, HasSubstr("80% target"));
  // The boundary: 27 days warns within 27, not within 26 or 20.
  EXPECT_TRUE(ForecastFinding(r, 27).has_value());
  EXPECT_EQ(ForecastFinding(r, 26), std::nullopt);
  EXPECT_EQ(ForecastFinding(r, 20), std::nullopt);
}

TEST(HeadroomForecastTest, TheTargetIsTheGroupsMaxCpuUsage) {
  // At max_cpu_usage 70 the same line reaches the target (70 - 53) / 1 = 17 days after Nov 27.
  const UsageReport r =
      Analyze(Input({Se("web-se-1", 4, 8192)}, RisingCpuResponse(40, 1), absl::Hours(24 * 14),
                    {{"max_cpu_usage", 70}}, nullptr, kMidnight));
  EXPECT_EQ(r.target_pct, 70);
  EXPECT_EQ(r.forecast.days_to_target, 17);
  EXPECT_EQ(UsageReportJson(r)["forecast"]["target_pct"], 70);
  const std::optional<Finding> warn = ForecastFinding(r, 20);
  ASSERT_TRUE(warn.has_value());
  EXPECT_THAT(warn->finding.summary, HasSubstr("17 days"));
}

TEST(HeadroomForecastTest, AFlatSeriesOrAShortWindowGivesNoForecastAndSaysWhy) {
  // Flat peaks (40 every day): the slope is 0, the peaks do not grow.
  const UsageReport flat =
      Analyze(Input({Se("web-se-1", 4, 8192)}, RisingCpuResponse(40, 0), absl::Hours(24 * 14),
                    {{"max_cpu_usage", 80}}, nullptr, kMidnight));
  EXPECT_EQ(flat.forecast.days_to_target, std::nullopt);
  EXPECT_EQ(flat.forecast.daily_peaks.size(), 14u);
  Json j = UsageReportJson(flat);
  EXPECT_TRUE(j["forecast"]["days_to_target"].is_null());
  ASSERT_TRUE(j["forecast"]["reason"].is_string()) << j["forecast"].dump();
  EXPECT_THAT(j["forecast"]["reason"].get<std::string>(), HasSubstr("do not grow"));
  EXPECT_EQ(ForecastFinding(flat, kDefaultForecastDays), std::nullopt);

  // A 3-day window, rising: shorter than 7 days, so no forecast at all.
  const UsageReport short_window =
      Analyze(Input({Se("web-se-1", 4, 8192)}, RisingCpuResponse(40, 5, 3), absl::Hours(72),
                    {{"max_cpu_usage", 80}}, nullptr, kMidnight));
  EXPECT_EQ(short_window.forecast.days_to_target, std::nullopt);
  j = UsageReportJson(short_window);
  EXPECT_TRUE(j["forecast"]["days_to_target"].is_null());
  EXPECT_TRUE(j["forecast"]["daily_peaks"].empty());
  ASSERT_TRUE(j["forecast"]["reason"].is_string()) << j["forecast"].dump();
  EXPECT_THAT(j["forecast"]["reason"].get<std::string>(), HasSubstr("shorter than 7 days"));
  EXPECT_EQ(ForecastFinding(short_window, kDefaultForecastDays), std::nullopt);
}

// ---- observed-peak-above-declared names the recommendation.

TEST(HeadroomRecommendationTextTest, ObservedAboveDeclaredNamesTheRecommendationsShapeAndSus) {
  // 2 SEs of 6 vCPUs, each 150,000 RPS at index 200 of 288 (24 hours): the group's peak is
  // 300,000, at kNow - 87 x 300 s = Nov 28 07:45 UTC. No CPU series, so no calibration.
  const int n = 288, at = 200;
  const Json response =
      Response()
          .Vs("se-1-uuid",
              Series("l7_client.avg_complete_responses", "*", Spike(n, 100000, at, 150000)))
          .Vs("se-2-uuid",
              Series("l7_client.avg_complete_responses", "*", Spike(n, 100000, at, 150000)))
          .json();
  const Json declared_workload = {{"l7_rps", 250000}};
  const UsageReport r = Analyze(
      Input(TwoSixVcpuSes(), response, absl::Hours(24), kSharedBufferOne, declared_workload));
  EXPECT_EQ(*r.Observed(ObservedKey::kL7Rps).value, 300000);
  // The recommendation: 300,000 / 80% = 375,000; one SE of at most 6 vCPUs carries 205,000, so
  // 2 SEs of 6 (410,000, 73.2%; 2 of 4 give only 306,000); max_se 2 + 1 buffer = 3, 3 x 6 = 18; the
  // text names the buffer SE the SUs count.
  ASSERT_TRUE(r.recommendation.has_value());
  ASSERT_TRUE(r.recommendation->planned_shape.has_value());
  EXPECT_EQ(r.recommendation->planned_shape->se_count.value, 2);
  EXPECT_EQ(r.recommendation->planned_shape->vcpus_per_se.value, 6);
  EXPECT_EQ(r.recommendation->planned_shape->max_se.value, 3);
  EXPECT_EQ(RecommendationText(r), "2 SEs of 6 vCPUs + 1 buffer SE, 18 SUs");
  // Now 2 x 6 = 12 SUs, less than the 18 recommended: nothing reclaimable, no finding.
  EXPECT_EQ(r.service_units.now, 12);
  EXPECT_EQ(r.service_units.recommended, 18);
  EXPECT_EQ(r.service_units.reclaimable, 0);

  SizingInput in;
  in.settings = kSharedBufferOne;
  in.workload = declared_workload;
  const SizingPlan declared = PlanSizing(in, sz::Platform::kNsxt);
  EXPECT_EQ(CapacityUnusedFinding(r, declared), std::nullopt);
  const std::vector<Finding> found = CompareWithDeclared(r, declared, 80);
  const Finding* above = FindRule(found, rules::kObservedAboveDeclared);
  ASSERT_NE(above, nullptr) << AllText(found);
  EXPECT_EQ(above->attribute, "workload.l7_rps");
  EXPECT_EQ(above->finding.summary,
            "declared 250,000 L7 RPS; observed peak 300,000 (Nov 28 07:45 UTC, 24 hours)");
  EXPECT_THAT(above->finding.detail,
              HasSubstr("size from the observed load (its recommendation: 2 SEs of 6 vCPUs + 1 "
                        "buffer SE, 18 SUs)."));

  // A report without a recommendation: the detail names none.
  UsageReport bare;
  bare.window = absl::Hours(24);
  bare.observed[static_cast<int>(ObservedKey::kL7Rps)].value = 300000;
  EXPECT_EQ(RecommendationText(bare), "");
  const std::vector<Finding> plain = CompareWithDeclared(bare, declared, 80);
  const Finding* no_rec = FindRule(plain, rules::kObservedAboveDeclared);
  ASSERT_NE(no_rec, nullptr) << AllText(plain);
  EXPECT_THAT(no_rec->finding.detail, Not(HasSubstr("its recommendation")));
  EXPECT_THAT(no_rec->finding.detail, HasSubstr("size from the observed load."));
}

}  // namespace
}  // namespace nsxalb::segroup
