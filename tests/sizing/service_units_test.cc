// Service Units: each rule by hand (service-units-per-se, service-units-at-planned-scale), and the
// recommendation's SUs at the max_se it plans in every HA mode.
#include "plugin/sizing/service_units.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "plugin/sizing/limits.h"
#include "plugin/sizing/recommend.h"
#include "plugin/sizing/rules.h"
#include "tests/sizing/test_workloads.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::sizing {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::HasSubstr;

ServiceUnitSettings Dps(int max_num_se_dps, bool per_app = false) {
  ServiceUnitSettings s;
  s.max_num_se_dps = max_num_se_dps;
  s.per_app = per_app;
  return s;
}

ServiceUnitSettings PerApp() {
  ServiceUnitSettings s;
  s.per_app = true;
  return s;
}

TEST(ServiceUnitsTest, OnePerVcpuByDefault) {
  // "By default, an eight-core SE will consume eight Service Units licenses."
  const Choice<double> su = ServiceUnitsPerSe(8, {});
  EXPECT_EQ(su.value, 8);
  EXPECT_EQ(su.rule, rules::kServiceUnitsPerSe);
  EXPECT_EQ(su.basis, Basis::kRule);
  EXPECT_EQ(su.reason, "8 vCPUs: 8 data-path processes = 8 SUs");
  EXPECT_EQ(ServiceUnitsPerSe(1, {}).value, 1);
  EXPECT_EQ(ServiceUnitsPerSe(1, {}).reason, "1 vCPU: 1 data-path process = 1 SU");
}

TEST(ServiceUnitsTest, MaxNumSeDpsCapsWhenSmaller) {
  // "... with max_num_se_dps = 4, only four Service Units licenses are consumed."
  const Choice<double> su = ServiceUnitsPerSe(8, Dps(4));
  EXPECT_EQ(su.value, 4);
  EXPECT_EQ(su.reason, "8 vCPUs, max_num_se_dps 4: 4 data-path processes = 4 SUs");
  // Larger than the vCPUs, or equal: the vCPUs count.
  EXPECT_EQ(ServiceUnitsPerSe(8, Dps(16)).value, 8);
  EXPECT_EQ(ServiceUnitsPerSe(8, Dps(16)).reason, "8 vCPUs: 8 data-path processes = 8 SUs");
  EXPECT_EQ(ServiceUnitsPerSe(8, Dps(8)).value, 8);
  EXPECT_EQ(ServiceUnitsPerSe(6, Dps(1)).value, 1);
}

TEST(ServiceUnitsTest, PerAppCountsEachVcpuAtAQuarter) {
  // "a 2-vCPU SE uses 0.5".
  const Choice<double> su = ServiceUnitsPerSe(2, PerApp());
  EXPECT_EQ(su.value, 0.5);
  EXPECT_EQ(su.reason, "2 vCPUs: 2 data-path processes x 0.25 (per_app) = 0.5 SU");
  EXPECT_EQ(ServiceUnitsPerSe(3, PerApp()).value, 0.75);
  EXPECT_EQ(ServiceUnitsPerSe(6, PerApp()).value, 1.5);
  // Both: 8 vCPUs, 4 data-path processes, at 25%: 1 SU.
  EXPECT_EQ(ServiceUnitsPerSe(8, Dps(4, true)).value, 1);
  EXPECT_EQ(ServiceUnitsPerSe(8, Dps(4, true)).reason,
            "8 vCPUs, max_num_se_dps 4: 4 data-path processes x 0.25 (per_app) = 1 SU");
}

TEST(ServiceUnitsTest, AtPlannedScaleIsPerSeTimesMaxSe) {
  const Choice<int> max_se = {3, Basis::kRule, rules::kMaxSe, "2 active + 1 buffer (N+M)"};
  const Choice<double> total = ServiceUnitsAtPlannedScale(ServiceUnitsPerSe(6, {}), max_se);
  EXPECT_EQ(total.value, 18);
  EXPECT_EQ(total.rule, rules::kServiceUnitsAtPlannedScale);
  EXPECT_EQ(total.reason, "max_se = 3 SEs (2 active + 1 buffer (N+M)) x 6 SUs = 18 SUs");
  // Quarters add up: 5 per_app SEs of 3 vCPUs are 5 x 0.75 = 3.75.
  const Choice<int> five = {5, Basis::kRule, rules::kMaxSe, ""};
  EXPECT_EQ(ServiceUnitsAtPlannedScale(ServiceUnitsPerSe(3, PerApp()), five).value, 3.75);
  EXPECT_EQ(ServiceUnitsAtPlannedScale(ServiceUnitsPerSe(3, PerApp()), five).reason,
            "max_se = 5 SEs x 0.75 SU = 3.75 SUs");
  const ServiceUnits both = ServiceUnitsOf(4, max_se, Dps(2));
  EXPECT_EQ(both.per_se.value, 2);
  EXPECT_EQ(both.at_planned_scale.value, 6);
}

TEST(ServiceUnitsTest, FormatToTheQuarter) {
  EXPECT_EQ(FormatServiceUnits(0), "0 SUs");
  EXPECT_EQ(FormatServiceUnits(0.25), "0.25 SU");
  EXPECT_EQ(FormatServiceUnits(0.5), "0.5 SU");
  EXPECT_EQ(FormatServiceUnits(1), "1 SU");
  EXPECT_EQ(FormatServiceUnits(1.25), "1.25 SUs");
  EXPECT_EQ(FormatServiceUnits(18), "18 SUs");
  EXPECT_EQ(FormatServiceUnits(1250.75), "1,250.75 SUs");
  EXPECT_EQ(FormatServiceUnits(64000), "64,000 SUs");
}

// The recommendation counts the SUs of the max_se it plans, with buffer_se and the HA mode as the
// sizing counts them (recommend.cc PlanScaleout).
TEST(ServiceUnitsTest, RecommendationInNPlusM) {
  // nsxt 150,000 RPS + 8,000 ECC TPS: 2 SEs of 6 vCPUs (recommend_test NsxtExampleFromTheIssue),
  // max_se 3 with the buffer SE: 3 x 6 = 18 SUs.
  const Recommendation r = MustRecommend(
      MakeWorkload(Platform::kNsxt, {{Metric::kL7Rps, 150000}, {Metric::kSslTpsEcc, 8000}}));
  ASSERT_EQ(r.max_se.value, 3);
  EXPECT_EQ(r.service_units.per_se.value, 6);
  EXPECT_EQ(r.service_units.at_planned_scale.value, 18);
  EXPECT_EQ(r.service_units.at_planned_scale.reason,
            "max_se = 3 SEs (2 active + 1 buffer (N+M)) x 6 SUs = 18 SUs");
}

TEST(ServiceUnitsTest, RecommendationFollowsBufferAndLicenceSettings) {
  // vcenter 13,000 ECC TPS: 2 SEs of 4 vCPUs (FewestSesThenSmallestSize). buffer_se 2: max_se 4,
  // 16 SUs; per_app: 4 x 1 = 4 SUs; max_num_se_dps 2: 4 x 2 = 8 SUs. The shape does not change.
  Workload w = MakeWorkload(Platform::kVcenter, {{Metric::kSslTpsEcc, 13000}});
  w.buffer_se = 2;
  Recommendation r = MustRecommend(w);
  ASSERT_EQ(r.se_count.value, 2);
  ASSERT_EQ(r.vcpus_per_se.value, 4);
  ASSERT_EQ(r.max_se.value, 4);
  EXPECT_EQ(r.service_units.at_planned_scale.value, 16);

  // per_app holds an SE to 2 virtual services (per-app-two-vs-per-se): the front ends plan
  // max_vs_per_se = 2 when it is unset, and the model refuses more.
  w.service_unit_settings.per_app = true;
  w.max_vs_per_se = kPerAppMaxVsPerSe;
  r = MustRecommend(w);
  EXPECT_EQ(r.vcpus_per_se.value, 4);
  EXPECT_EQ(r.service_units.per_se.value, 1);
  EXPECT_EQ(r.service_units.at_planned_scale.value, 4);

  w.service_unit_settings.per_app = false;
  w.max_vs_per_se = kDefaultMaxVsPerSe;
  w.service_unit_settings.max_num_se_dps = 2;
  r = MustRecommend(w);
  EXPECT_EQ(r.service_units.per_se.value, 2);
  EXPECT_EQ(r.service_units.at_planned_scale.value, 8);
}

TEST(ServiceUnitsTest, RecommendationInActiveActiveAndLegacy) {
  // Active/active nsxt 150,000 RPS: 2 SEs of 4 vCPUs, no buffer: 2 x 4 = 8 SUs.
  const Recommendation pair = MustRecommend(
      MakeWorkload(Platform::kNsxt, {{Metric::kL7Rps, 150000}}, 80, HaMode::kSharedPair));
  ASSERT_EQ(pair.vcpus_per_se.value, 4);
  ASSERT_EQ(pair.max_se.value, 2);
  EXPECT_EQ(pair.service_units.at_planned_scale.value, 8);
  // Legacy active/standby, vcenter 8,000 ECC TPS: 1 active SE of 5 vCPUs and the standby, which
  // runs too: 2 x 5 = 10 SUs.
  const Recommendation legacy = MustRecommend(MakeWorkload(
      Platform::kVcenter, {{Metric::kSslTpsEcc, 8000}}, 80, HaMode::kLegacyActiveStandby));
  ASSERT_EQ(legacy.vcpus_per_se.value, 5);
  ASSERT_EQ(legacy.max_se.value, 2);
  EXPECT_EQ(legacy.service_units.at_planned_scale.value, 10);
}

TEST(ServiceUnitsTest, GivenShape) {
  // 3 SEs of 8 vCPUs set by hand, buffer 1: max_se 4, 4 x 8 = 32 SUs.
  absl::StatusOr<Recommendation> r =
      RecommendForShape(MakeWorkload(Platform::kVcenter, {{Metric::kL7Rps, 10000}}), 8, 8192, 3);
  ASSERT_THAT(r, IsOk());
  ASSERT_EQ(r->max_se.value, 4);
  EXPECT_EQ(r->service_units.per_se.value, 8);
  EXPECT_EQ(r->service_units.at_planned_scale.value, 32);
}

TEST(ServiceUnitsTest, MaxNumSeDpsOutsideItsRangeIsAnError) {
  Workload w = MakeWorkload(Platform::kVcenter, {{Metric::kL7Rps, 10000}});
  for (int bad : {kMinNumSeDps - 1, kMaxNumSeDps + 1}) {
    w.service_unit_settings.max_num_se_dps = bad;
    EXPECT_THAT(Recommend(w),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("max_num_se_dps")))
        << bad;
  }
  w.service_unit_settings.max_num_se_dps = kMaxNumSeDps;
  EXPECT_THAT(Recommend(w), IsOk());
}

TEST(ServiceUnitsTest, PerAppHoldsAnSeToTwoVirtualServices) {
  // per-app-two-vs-per-se: max_vs_per_se 3 with per_app is an error naming max_vs_per_se; 2 is
  // fine, and so is 10 without per_app.
  Workload w = MakeWorkload(Platform::kVcenter, {{Metric::kL7Rps, 50000}});
  w.service_unit_settings.per_app = true;
  w.max_vs_per_se = 3;
  EXPECT_THAT(Recommend(w),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("max_vs_per_se")));
  w.max_vs_per_se = kPerAppMaxVsPerSe;
  EXPECT_THAT(Recommend(w), IsOk());
  w.service_unit_settings.per_app = false;
  w.max_vs_per_se = 10;
  EXPECT_THAT(Recommend(w), IsOk());
}

}  // namespace
}  // namespace nsxalb::sizing
