// plugin/segroup/lifecycle/rollout_capacity.h: the capacity guard's figures with SEs out, on the
// checkout story of docs/sizing.md ("Running SEs behind the settings"): 300,000 L7 RPS + 6,000
// ECC SSL TPS on nsxt, planned at 3 SEs of 5 vCPUs, running on 3 SEs of 4 vCPUs (measured 153,000
// RPS and 8,200 ECC TPS each).
#include "plugin/segroup/lifecycle/rollout_capacity.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "plugin/segroup/lifecycle/match.h"
#include "plugin/segroup/lifecycle/roll_decision.h"
#include "plugin/segroup/sizing_plan.h"
#include "tests/segroup/lifecycle/lifecycle_test_support.h"

namespace nsxalb::segroup::lifecycle {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

// A running SE of `vcpus` and `memory_mb`.
RunningSe RunningOfShape(const std::string& name, int vcpus, int64_t memory_mb) {
  RunningSe se;
  se.uuid = absl::StrCat("se-", name);
  se.name = name;
  se.vcpus = vcpus;
  se.memory_mb = memory_mb;
  return se;
}

// The settings of the checkout plan's shape: 5 vCPUs, 10,240 MB.
const Json kCheckoutSettings = {{"vcpus_per_se", 5}, {"memory_per_se", 10240}};

// The checkout group: `shapes` running SEs, matched against 5 vCPUs and 10,240 MB.
GroupSes Checkout(const std::vector<std::pair<int, int64_t>>& shapes) {
  std::vector<RunningSe> running;
  for (size_t i = 0; i < shapes.size(); ++i) {
    running.push_back(
        RunningOfShape(absl::StrCat("checkout-se-", i + 1), shapes[i].first, shapes[i].second));
  }
  return MatchSettings(running, kCheckoutSettings, {});
}

// The roll's decision for `ses` when the Controller has no samples of their load, so the
// declared workload's `capacity` judges (the other guards pass: a licence with room, a cloud that
// creates SEs, one virtual service an SE and max_vs_per_se 1, so each leaving SE is replaced).
RollDecision DeclaredDecision(const GroupSes& ses, const CapacityFigures& capacity,
                              int max_unavailable = 1) {
  RollInput in;
  in.ses = ses;
  for (const RunningSe& se : ses.running) in.virtual_services[se.uuid] = {se.name + "-vs"};
  in.declared = capacity;
  in.ha_minimum_ses = capacity.ha_minimum_ses;
  in.placement.max_vs_per_se = 1;
  in.target = TargetShape{5, 10240};
  in.license.known = true;
  in.license.remaining_units = 100;
  in.cloud.creates_ses = true;
  in.max_unavailable = max_unavailable;
  return DecideRoll(in);
}

// Two of the three 4-vCPU SEs, with one out: 300,000 / (2 x 153,000) = 98.0% + 6,000 /
// (2 x 8,200) = 36.6%: 134.6% CPU, over the 80% target.
TEST(CapacityWithSesOutTest, OneOfThreeOutIsOverTheTarget) {
  const SizingPlan plan = CheckoutPlan();
  ASSERT_TRUE(plan.workload.has_value() && plan.planned_shape.has_value());
  ASSERT_EQ(plan.planned_shape->se_count.value, 3);
  const GroupSes ses = Checkout({{4, 8192}, {4, 8192}, {4, 8192}});
  ASSERT_EQ(ses.lagging.size(), 3u);
  const CapacityFigures c = CapacityWithSesOut(*plan.workload, *plan.planned_shape, ses, 1, 80);
  EXPECT_TRUE(c.known);
  EXPECT_EQ(c.running_ses, 3);
  EXPECT_EQ(c.ha_minimum_ses, 1);  // HA_MODE_SHARED
  EXPECT_EQ(c.target_percent, 80);
  EXPECT_NEAR(c.cpu_percent_out, 100.0 * 300000 / (2 * 153000) + 100.0 * 6000 / (2 * 8200), 1e-9);
  EXPECT_EQ(c.load, "the declared workload 6,000 ECC SSL TPS + 300,000 L7 RPS");
  EXPECT_EQ(c.basis, "measured");

  // Without samples of the SEs' load, the decision refuses with those figures, counting the SEs
  // as they run.
  const RollDecision refused = DeclaredDecision(ses, c);
  EXPECT_EQ(refused.verdict, RollVerdict::kRefused);
  EXPECT_EQ(refused.refused_by, "capacity");
  EXPECT_THAT(refused.refusal, HasSubstr("with 1 of 3 running SEs out, the 2 left"));
  EXPECT_THAT(refused.refusal, HasSubstr("at 134.6% CPU (measured), target 80%"));
}

// Open connections (a memory figure) bind: the figure says so rather than "CPU".
TEST(CapacityWithSesOutTest, AMetricThatIsNotCpuBoundIsNamed) {
  const SizingPlan plan = CheckoutPlan({{"l4_open_conns", 3000000}, {"l7_rps", 1000}});
  ASSERT_TRUE(plan.workload.has_value() && plan.planned_shape.has_value());
  const GroupSes ses = Checkout({{4, 8192}, {4, 8192}, {4, 8192}});
  const CapacityFigures c = CapacityWithSesOut(*plan.workload, *plan.planned_shape, ses, 1, 80);
  ASSERT_TRUE(c.known);
  EXPECT_EQ(c.measure, "of their L4 open connections capacity");
  const RollDecision decision = DeclaredDecision(ses, c);
  bool named = false;
  for (const GuardVerdict& g : decision.guards) {
    if (g.guard == "capacity") {
      named = g.figures.find("% of their L4 open connections capacity (") != std::string::npos;
    }
  }
  EXPECT_TRUE(named);
}

// Half the load, planned on 3 active SEs: the 2 left run 150,000 / 306,000 = 49.0% + 3,000 /
// 16,400 = 18.3%: 67.3%, within 80%; and with a plan of 1 active SE, that one SE carries it all.
TEST(CapacityWithSesOutTest, ALighterLoadPassesOnThePlansActiveSes) {
  const SizingPlan plan = CheckoutPlan({{"l7_rps", 150000}, {"ssl_tps_ecc", 3000}});
  ASSERT_TRUE(plan.workload.has_value() && plan.planned_shape.has_value());
  const GroupSes ses = Checkout({{4, 8192}, {4, 8192}, {4, 8192}});
  sizing::Recommendation planned = *plan.planned_shape;
  planned.se_count.value = 3;
  const CapacityFigures c = CapacityWithSesOut(*plan.workload, planned, ses, 1, 80);
  ASSERT_TRUE(c.known);
  EXPECT_NEAR(c.cpu_percent_out, 100.0 * 150000 / (2 * 153000) + 100.0 * 3000 / (2 * 8200), 1e-9);
  const RollDecision passes = DeclaredDecision(ses, c);
  EXPECT_EQ(passes.verdict, RollVerdict::kRoll) << passes.refusal;
  EXPECT_EQ(passes.load_basis, "declared");

  planned.se_count.value = 1;
  const CapacityFigures one = CapacityWithSesOut(*plan.workload, planned, ses, 1, 80);
  ASSERT_TRUE(one.known);
  EXPECT_NEAR(one.cpu_percent_out, 100.0 * 150000 / 153000 + 100.0 * 3000 / 8200, 1e-9);
}

// Never more out than lag: with one SE left to roll and max_unavailable 2, only 1 is out; the
// smallest running SE sets the shape, a replacement at 5 vCPUs does not raise it.
TEST(CapacityWithSesOutTest, OutIsAtMostTheSesThatLagAndTheSmallestShapeCounts) {
  const SizingPlan plan = CheckoutPlan();
  ASSERT_TRUE(plan.workload.has_value() && plan.planned_shape.has_value());
  const GroupSes ses = Checkout({{5, 10240}, {5, 10240}, {4, 8192}});
  ASSERT_EQ(ses.lagging.size(), 1u);
  const CapacityFigures c = CapacityWithSesOut(*plan.workload, *plan.planned_shape, ses, 2, 80);
  ASSERT_TRUE(c.known);
  EXPECT_NEAR(c.cpu_percent_out, 100.0 * 300000 / (2 * 153000) + 100.0 * 6000 / (2 * 8200), 1e-9);
  // Nothing lags: nothing is out, the 3 running SEs carry it (89.7%, as the finding says).
  const GroupSes settled = Checkout({{4, 8192}, {4, 8192}, {4, 8192}});
  const GroupSes none_lag = MatchSettings(settled.running, Json{{"vcpus_per_se", 4}}, {});
  ASSERT_TRUE(none_lag.lagging.empty());
  const CapacityFigures all =
      CapacityWithSesOut(*plan.workload, *plan.planned_shape, none_lag, 1, 80);
  ASSERT_TRUE(all.known);
  EXPECT_NEAR(all.cpu_percent_out, 100.0 * 300000 / (3 * 153000) + 100.0 * 6000 / (3 * 8200), 1e-9);
}

TEST(CapacityWithSesOutTest, UnknownWhenNoSeIsLeftNoSizeIsKnownOrNothingIsDemanded) {
  const SizingPlan plan = CheckoutPlan();
  ASSERT_TRUE(plan.workload.has_value() && plan.planned_shape.has_value());
  const GroupSes ses = Checkout({{4, 8192}, {4, 8192}, {4, 8192}});
  // All 3 out: none left; the HA minimum refuses, not the CPU.
  const CapacityFigures none_left =
      CapacityWithSesOut(*plan.workload, *plan.planned_shape, ses, 3, 80);
  EXPECT_FALSE(none_left.known);
  EXPECT_EQ(none_left.running_ses, 3);
  EXPECT_THAT(DeclaredDecision(ses, none_left, 3).refusal,
              HasSubstr("below the HA mode's minimum of 1"));

  // The Controller gave no size.
  const CapacityFigures unsized =
      CapacityWithSesOut(*plan.workload, *plan.planned_shape, Checkout({{0, 0}, {0, 0}}), 1, 80);
  EXPECT_FALSE(unsized.known);

  // A workload without demand (only a target).
  sizing::Workload empty = *plan.workload;
  empty.demand = sizing::Demand{};
  const CapacityFigures nothing = CapacityWithSesOut(empty, *plan.planned_shape, ses, 1, 80);
  EXPECT_FALSE(nothing.known);
  EXPECT_EQ(DemandText(empty), "");
}

// Active/active: the HA mode's minimum is 2.
TEST(CapacityWithSesOutTest, TheHaMinimumFollowsTheWorkloadsMode) {
  SizingInput input;
  input.settings = Json{{"ha_mode", "HA_MODE_SHARED_PAIR"}};
  input.workload = Json{{"l7_rps", 100000}};
  const SizingPlan plan = PlanSizing(input, sizing::Platform::kNsxt);
  ASSERT_TRUE(plan.workload.has_value() && plan.planned_shape.has_value());
  const CapacityFigures c = CapacityWithSesOut(*plan.workload, *plan.planned_shape,
                                               Checkout({{4, 8192}, {4, 8192}, {4, 8192}}), 1, 80);
  EXPECT_EQ(c.ha_minimum_ses, 2);
  EXPECT_TRUE(c.known);
  EXPECT_EQ(c.load, "the declared workload 100,000 L7 RPS");
}

}  // namespace
}  // namespace nsxalb::segroup::lifecycle
