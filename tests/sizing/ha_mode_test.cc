// HA modes and virtual-service slots: the active SE count, max_se and min_scaleout_per_vs each mode
// gives, the findings for settings that contradict the mode, and the legacy active/standby limit.
#include "plugin/sizing/ha_mode.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "plugin/sizing/recommend.h"
#include "plugin/sizing/rules.h"
#include "plugin/sizing/validate.h"
#include "tests/sizing/test_workloads.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::sizing {
namespace {

using ::nsxalb::testing::IsOk;

using ::testing::HasSubstr;
using ::testing::Not;

// A workload at the default target utilization, in `mode`.
Workload MakeInHaMode(Platform p, std::vector<std::pair<Metric, double>> demand, HaMode mode) {
  return MakeWorkload(p, demand, kDefaultTargetUtilizationPct, mode);
}

std::vector<Finding> WithRule(const Validation& v, const std::string& rule) {
  std::vector<Finding> out;
  for (const Finding& f : v.findings) {
    if (f.rule == rule) out.push_back(f);
  }
  return out;
}

TEST(HaModeTest, NamesRoundTrip) {
  for (HaMode m : {HaMode::kShared, HaMode::kSharedPair, HaMode::kLegacyActiveStandby}) {
    absl::StatusOr<HaMode> parsed = ParseHaMode(HaModeName(m));
    ASSERT_THAT(parsed, IsOk());
    EXPECT_EQ(*parsed, m);
  }
  absl::StatusOr<HaMode> bad = ParseHaMode("ACTIVE_ACTIVE");
  ASSERT_THAT(bad, Not(IsOk()));
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("HA_MODE_SHARED_PAIR"));
  EXPECT_THAT(ParseHaMode("ha_mode_shared"), Not(IsOk()));  // Avi's enum is exact
}

TEST(HaModeTest, NPlusMAddsTheBuffer) {
  const Recommendation r =
      MustRecommend(MakeInHaMode(Platform::kNsxt, {{Metric::kL7Rps, 50000}}, HaMode::kShared));
  EXPECT_EQ(r.se_count.value, 1);
  EXPECT_EQ(r.max_se.value, 2);
  EXPECT_EQ(r.max_se.rule, rules::kMaxSe);
  EXPECT_EQ(r.buffer_se, 1);
  EXPECT_EQ(r.min_scaleout_per_vs.value, 1);
}

TEST(HaModeTest, LegacyActiveStandbyIsOneActiveAndTwoSes) {
  const Recommendation r = MustRecommend(
      MakeInHaMode(Platform::kNsxt, {{Metric::kL7Rps, 50000}}, HaMode::kLegacyActiveStandby));
  EXPECT_EQ(r.se_count.value, 1);
  EXPECT_EQ(r.max_se.value, 2);
  EXPECT_EQ(r.max_se.rule, rules::kLegacyOneActive);
  EXPECT_EQ(r.buffer_se, 0);
  EXPECT_EQ(r.min_scaleout_per_vs.value, 1);
  EXPECT_EQ(r.vcpus_per_se.value, 2);  // 50,000 needs 62,500: 94,000 at 2 vCPUs
  EXPECT_TRUE(r.carried);
}

TEST(HaModeTest, LegacyActiveStandbyCannotScaleOut) {
  // 400,000 RPS needs 500,000; one 6-vCPU nsxt SE gives 205,000.
  const Workload w =
      MakeInHaMode(Platform::kNsxt, {{Metric::kL7Rps, 400000}}, HaMode::kLegacyActiveStandby);
  const Recommendation r = MustRecommend(w);
  EXPECT_EQ(r.se_count.value, 1);
  EXPECT_EQ(r.vcpus_per_se.value, 6);
  EXPECT_EQ(r.max_se.value, 2);
  EXPECT_FALSE(r.carried);
  const Validation v = Validate(w, Settings{});
  EXPECT_TRUE(v.under_sized);
  const std::vector<Finding> limit = WithRule(v, rules::kLegacyOneActive);
  ASSERT_EQ(limit.size(), 1u);
  EXPECT_THAT(limit[0].detail, HasSubstr("HA_MODE_LEGACY_ACTIVE_STANDBY has one active SE and no "
                                         "scale-out"));
  // What N+M would need: 500,000 / 205,000 -> 3 SEs, of 5 vCPUs (179,000 each), max_se 4.
  EXPECT_THAT(limit[0].detail, HasSubstr("In HA_MODE_SHARED (N+M) it needs 3 SEs of 5 vCPUs each "
                                         "(max_se 4)"));
  EXPECT_THAT(limit[0].detail, Not(HasSubstr("run ")));
  EXPECT_TRUE(WithRule(v, rules::kUnderDelivery).empty());
}

TEST(HaModeTest, ActiveActiveHasTwoActiveSesAndNoBuffer) {
  const Workload w = MakeInHaMode(Platform::kNsxt, {{Metric::kL7Rps, 50000}}, HaMode::kSharedPair);
  const Recommendation r = MustRecommend(w);
  EXPECT_GE(r.se_count.value, 2);
  EXPECT_EQ(r.max_se.value, r.se_count.value);
  EXPECT_EQ(r.max_se.rule, rules::kActiveActive);
  EXPECT_EQ(r.buffer_se, 0);
  EXPECT_GE(r.min_scaleout_per_vs.value, 2);
  // One SE lost: the other carries 50,000 within 100%. 2 SEs of 1 vCPU (60,000) do: 83.3%.
  EXPECT_EQ(r.se_count.value, 2);
  EXPECT_EQ(r.vcpus_per_se.value, 1);
  EXPECT_EQ(r.vcpus_per_se.rule, rules::kSmallestAtLeastCount);
  EXPECT_TRUE(SurvivesOneSeLoss(w, 1, 2048, 2));
}

TEST(HaModeTest, ActiveActiveSizesForTheLossOfOneSe) {
  // 150,000 RPS at 80% on 2 SEs needs 93,750 each (2 vCPUs: 94,000 would do), but one SE alone
  // must carry 150,000 within 100%: 6 vCPUs (205,000); 4 give 153,000 which also does.
  const Workload w = MakeInHaMode(Platform::kNsxt, {{Metric::kL7Rps, 150000}}, HaMode::kSharedPair);
  const Recommendation r = MustRecommend(w);
  EXPECT_EQ(r.se_count.value, 2);
  EXPECT_EQ(r.vcpus_per_se.value, 4);
  EXPECT_FALSE(SurvivesOneSeLoss(w, 3, 6144, 2));  // 3 vCPUs: 123,500 < 150,000
  Workload shared = w;
  shared.ha_mode = HaMode::kShared;
  EXPECT_EQ(MustRecommend(shared).vcpus_per_se.value, 6);  // one SE, 73.2%
}

TEST(HaModeTest, SettingsThatContradictTheModeAreFound) {
  Settings pair;
  pair.se_count = 1;
  pair.max_se = 1;
  const Validation v =
      Validate(MakeInHaMode(Platform::kNsxt, {{Metric::kL7Rps, 1000}}, HaMode::kSharedPair), pair);
  std::vector<Finding> found = WithRule(v, rules::kHaModeSettings);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].attribute, "se_count");
  EXPECT_EQ(found[1].attribute, "max_se");

  Settings legacy;
  legacy.se_count = 2;
  legacy.max_se = 3;
  const Validation l = Validate(
      MakeInHaMode(Platform::kNsxt, {{Metric::kL7Rps, 1000}}, HaMode::kLegacyActiveStandby),
      legacy);
  found = WithRule(l, rules::kHaModeSettings);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].attribute, "se_count");
  EXPECT_EQ(found[1].attribute, "max_se");
  EXPECT_THAT(found[1].detail, HasSubstr("Set max_se = 2"));

  Settings fine;
  fine.max_se = 2;
  EXPECT_TRUE(WithRule(Validate(MakeInHaMode(Platform::kNsxt, {{Metric::kL7Rps, 1000}},
                                             HaMode::kLegacyActiveStandby),
                                fine),
                       rules::kHaModeSettings)
                  .empty());
}

TEST(HaModeTest, ActiveActiveSettingsThatDoNotSurviveALossAreUnderSized) {
  Settings s;
  s.vcpus_per_se = 2;
  s.se_count = 2;
  // 150,000 RPS on 2 SEs of 2 vCPUs: 79.8% each, but one alone would run 159.6%.
  const Validation v =
      Validate(MakeInHaMode(Platform::kNsxt, {{Metric::kL7Rps, 150000}}, HaMode::kSharedPair), s);
  EXPECT_TRUE(v.under_sized);
  const std::vector<Finding> found = WithRule(v, rules::kActiveActive);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].attribute, "se_count");
  EXPECT_THAT(found[0].summary, HasSubstr("Losing one of 2 SEs would put the rest at CPU 159.6%"));
}

TEST(VirtualServiceSlotsTest, TwentyFiveServicesAtTenPerSeNeedThreeActive) {
  Workload w = MakeInHaMode(Platform::kNsxt, {{Metric::kL7Rps, 1000}}, HaMode::kShared);
  w.virtual_services = 25;
  w.max_vs_per_se = 10;
  EXPECT_EQ(LeastActiveSes(w), 3);
  const Recommendation r = MustRecommend(w);
  EXPECT_EQ(r.se_count.value, 3);
  EXPECT_EQ(r.max_se.value, 4);
  EXPECT_EQ(r.min_scaleout_per_vs.value, 1);  // 25 services over 3 SEs, each on one
  EXPECT_EQ(r.vcpus_per_se.value, 1);
  EXPECT_EQ(r.vcpus_per_se.rule, rules::kSmallestAtLeastCount);
  EXPECT_THAT(r.se_count.reason, HasSubstr("25 virtual services at 10 per SE"));
  // Active/active places each on 2 SEs: 50 placements need 5.
  w.ha_mode = HaMode::kSharedPair;
  EXPECT_EQ(LeastActiveSes(w), 5);
  EXPECT_EQ(MustRecommend(w).max_se.value, 5);
  // Legacy active/standby: one active SE whatever the services (validation reports the slots).
  w.ha_mode = HaMode::kLegacyActiveStandby;
  EXPECT_EQ(LeastActiveSes(w), 1);
}

TEST(VirtualServiceSlotsTest, ADemandThatNeedsMoreSesThanTheSlotsWins) {
  Workload w = MakeInHaMode(Platform::kNsxt, {{Metric::kL7Rps, 600000}}, HaMode::kShared);
  w.virtual_services = 3;
  const Recommendation r = MustRecommend(w);
  EXPECT_EQ(r.se_count.value, 4);             // 600,000 needs 750,000: 4 x 205,000
  EXPECT_EQ(r.min_scaleout_per_vs.value, 2);  // ceil(4 / 3)
}

TEST(VirtualServiceSlotsTest, AGivenMaxSeWithoutSlotsIsUnderSized) {
  Workload w = MakeInHaMode(Platform::kNsxt, {{Metric::kL7Rps, 1000}}, HaMode::kShared);
  w.virtual_services = 25;
  Settings s;
  s.max_se = 3;  // 2 active + 1 buffer: 20 slots for 25 services
  const Validation v = Validate(w, s);
  EXPECT_TRUE(v.under_sized);
  const std::vector<Finding> found = WithRule(v, rules::kVsSlots);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].attribute, "max_se");
  EXPECT_THAT(found[0].summary, HasSubstr("slots for 20 of 25"));
  EXPECT_THAT(found[0].detail, HasSubstr("Set max_se = 4"));
  EXPECT_TRUE(rules::IsUnderSizing(found[0].rule));
}

TEST(VirtualServiceSlotsTest, AGivenMinScaleoutIsCheckedAgainstTheMode) {
  Workload w = MakeInHaMode(Platform::kNsxt, {{Metric::kL7Rps, 1000}}, HaMode::kSharedPair);
  w.virtual_services = 3;
  Settings s;
  s.min_scaleout_per_vs = 1;  // active/active places each on 2 SEs
  Validation v = Validate(w, s);
  std::vector<Finding> found = WithRule(v, rules::kHaModeSettings);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].attribute, "min_scaleout_per_vs");
  EXPECT_THAT(found[0].summary, HasSubstr("fewer than 2 SEs"));
  EXPECT_TRUE(v.under_sized);
  s.min_scaleout_per_vs = 2;
  EXPECT_TRUE(WithRule(Validate(w, s), rules::kHaModeSettings).empty());

  w.ha_mode = HaMode::kLegacyActiveStandby;
  found = WithRule(Validate(w, s), rules::kHaModeSettings);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].attribute, "min_scaleout_per_vs");
  EXPECT_THAT(found[0].summary, HasSubstr("one SE is active"));

  s.min_scaleout_per_vs = 0;
  std::vector<std::string> errors;
  for (const Finding& f : Validate(w, s).findings) {
    if (f.severity == Severity::kError) errors.push_back(f.attribute);
  }
  EXPECT_THAT(errors, ::testing::ElementsAre("min_scaleout_per_vs"));
}

TEST(VirtualServiceSlotsTest, AGivenMinScaleoutCountsItsPlacements) {
  // 25 services each on 2 SEs at 10 per SE: 50 placements need 5 active SEs, not the 3 of one
  // SE each.
  Workload w = MakeInHaMode(Platform::kNsxt, {{Metric::kL7Rps, 1000}}, HaMode::kShared);
  w.virtual_services = 25;
  w.max_vs_per_se = 10;
  EXPECT_EQ(LeastActiveSes(w), 3);
  EXPECT_EQ(LeastActiveSes(w, 2), 5);
  Settings s;
  s.min_scaleout_per_vs = 2;
  EXPECT_EQ(Validate(w, s).se_count, 5);
  s.max_se = 4;  // 3 active + 1 buffer: 30 slots for 50 placements
  const Validation v = Validate(w, s);
  EXPECT_TRUE(v.under_sized);
  const std::vector<Finding> found = WithRule(v, rules::kVsSlots);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_THAT(found[0].summary, HasSubstr("slots for 30 of 50"));
  EXPECT_THAT(found[0].detail, HasSubstr("each on 2 SEs"));
  EXPECT_THAT(found[0].detail, HasSubstr("Set max_se = 6"));
  // More SEs per service than the group has active SEs cannot be placed either.
  w.virtual_services = 2;
  s.min_scaleout_per_vs = 4;
  s.max_se = 4;  // 3 active
  EXPECT_EQ(WithRule(Validate(w, s), rules::kVsSlots).size(), 1u);
  s.max_se = 5;  // 4 active
  EXPECT_TRUE(WithRule(Validate(w, s), rules::kVsSlots).empty());
}

TEST(VirtualServiceSlotsTest, InputsOutOfRangeNameTheirAttribute) {
  Workload w = MakeInHaMode(Platform::kNsxt, {{Metric::kL7Rps, 1000}}, HaMode::kShared);
  w.virtual_services = 0;
  w.max_vs_per_se = 0;
  std::vector<std::string> attributes;
  for (const Finding& f : CheckWorkload(w)) attributes.push_back(f.attribute);
  EXPECT_THAT(attributes,
              ::testing::UnorderedElementsAre("max_vs_per_se", "workload.virtual_services"));
  // More services than 1000 SEs can hold.
  w.virtual_services = 20000;
  w.max_vs_per_se = 10;
  absl::StatusOr<Recommendation> r = Recommend(w);
  ASSERT_THAT(r, Not(IsOk()));
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("workload.virtual_services"));
}

}  // namespace
}  // namespace nsxalb::sizing
