// The sizing plan in domain terms: the recommendation fills unset settings, given ones stay,
// input errors name the setting, findings are placed, and the enforce gate.
#include "plugin/segroup/sizing_plan.h"

#include <gtest/gtest.h>

#include "nlohmann/json.hpp"
#include "plugin/sizing/rules.h"

namespace nsxalb::segroup {
namespace {

using Json = nlohmann::json;

SizingInput Input(Json settings, Json workload) {
  SizingInput in;
  in.settings = std::move(settings);
  in.workload = std::move(workload);
  return in;
}

TEST(SegroupSizingPlanTest, WorkloadFillsUnsetSettingsAsSizeRecommends) {
  const SizingPlan plan =
      PlanSizing(Input(Json::object(), {{"l7_rps", 150000}}), sizing::Platform::kNsxt);
  ASSERT_TRUE(plan.input_errors.empty());
  EXPECT_EQ(plan.recommended.at("vcpus_per_se"), 6);
  EXPECT_EQ(plan.recommended.size(), SizingAttributeNames().size());
  ASSERT_TRUE(plan.summary.has_value());
  EXPECT_EQ(plan.summary->se_count, 1);
  EXPECT_EQ(plan.summary->binding_metric, "l7_rps");
  const Json j = SizingSummaryJson(*plan.summary);
  EXPECT_EQ(j["profile"], "nsxt");
  EXPECT_EQ(j["utilization_pct"], 73.2);
}

TEST(SegroupSizingPlanTest, GivenSettingsAreNotRecommended) {
  const SizingPlan plan =
      PlanSizing(Input({{"vcpus_per_se", 8}}, {{"l7_rps", 150000}}), sizing::Platform::kNsxt);
  EXPECT_EQ(plan.recommended.count("vcpus_per_se"), 0u);
  EXPECT_EQ(plan.recommended.count("memory_per_se"), 1u);
  SizingInput opaque = Input(Json::object(), {{"l7_rps", 150000}});
  opaque.opaque_settings.insert("max_se");
  EXPECT_EQ(PlanSizing(opaque, sizing::Platform::kNsxt).recommended.count("max_se"), 0u);
}

TEST(SegroupSizingPlanTest, InputErrorsNameTheSetting) {
  const SizingPlan fraction =
      PlanSizing(Input({{"vcpus_per_se", 4.5}}, nullptr), sizing::Platform::kVcenter);
  ASSERT_EQ(fraction.input_errors.size(), 1u);
  EXPECT_EQ(fraction.input_errors[0].attribute, "vcpus_per_se");
  EXPECT_EQ(fraction.input_errors[0].detail, "vcpus_per_se must be a whole number, got 4.5.");
  const SizingPlan kind = PlanSizing(Input(Json::object(), {{"target_utilization", "high"}}),
                                     sizing::Platform::kVcenter);
  ASSERT_EQ(kind.input_errors.size(), 1u);
  EXPECT_EQ(kind.input_errors[0].attribute, "workload.target_utilization");
  const SizingPlan mode =
      PlanSizing(Input({{"ha_mode", "HA_MODE_NONE"}}, nullptr), sizing::Platform::kVcenter);
  ASSERT_EQ(mode.input_errors.size(), 1u);
  EXPECT_EQ(mode.input_errors[0].attribute, "ha_mode");
}

TEST(SegroupSizingPlanTest, UnderSizingIsPlacedAndGatedByPolicy) {
  const SizingPlan plan =
      PlanSizing(Input({{"vcpus_per_se", 2}, {"min_scaleout_per_vs", 1}}, {{"l7_rps", 150000}}),
                 sizing::Platform::kNsxt);
  const Finding* under = nullptr;
  for (const Finding& f : plan.findings) {
    if (f.policy_dependent) under = &f;
  }
  ASSERT_NE(under, nullptr);
  EXPECT_EQ(FindingText(*under).rfind("warning [vcpus_per_se] demand-within-capacity: ", 0), 0u)
      << FindingText(*under);
  EXPECT_FALSE(FindingIsError(*under, SizingPolicy::kWarn, /*waived=*/false));
  EXPECT_TRUE(FindingIsError(*under, SizingPolicy::kEnforce, /*waived=*/false));
  EXPECT_FALSE(FindingIsError(*under, SizingPolicy::kEnforce, /*waived=*/true));
}

TEST(SegroupSizingPlanTest, MinScaleoutForSeveralServicesIsCheckedAgainstTheHaMode) {
  // With one virtual service min_scaleout_per_vs is the active SE count; with several it is how
  // many SEs each is placed on, and active/active needs 2.
  const SizingPlan plan =
      PlanSizing(Input({{"ha_mode", "HA_MODE_SHARED_PAIR"}, {"min_scaleout_per_vs", 1}},
                       {{"l7_rps", 1000}, {"virtual_services", 3}}),
                 sizing::Platform::kNsxt);
  const Finding* mode = nullptr;
  for (const Finding& f : plan.findings) {
    if (f.finding.rule == sizing::rules::kHaModeSettings) mode = &f;
  }
  ASSERT_NE(mode, nullptr);
  EXPECT_EQ(mode->attribute, "min_scaleout_per_vs");
  EXPECT_NE(FindingText(*mode).find("min_scaleout_per_vs = 1 under HA_MODE_SHARED_PAIR"),
            std::string::npos)
      << FindingText(*mode);
}

// max_cpu_usage is where the group scales out: the target follows it when the workload sets
// none, it is planned to the target when unset, and a target above it warns.
TEST(SegroupSizingPlanTest, TargetUtilizationFollowsMaxCpuUsage) {
  const Json workload = {{"l7_rps", 150000}};
  const SizingPlan follows =
      PlanSizing(Input({{"max_cpu_usage", 60}}, workload), sizing::Platform::kNsxt);
  ASSERT_TRUE(follows.input_errors.empty());
  ASSERT_TRUE(follows.workload.has_value());
  EXPECT_EQ(follows.workload->target_utilization_pct, 60);
  EXPECT_EQ(follows.recommended.count("max_cpu_usage"), 0u);
  // 150,000 RPS at 60% no longer fits one 6-vCPU nsxt SE (73.2% at 80).
  ASSERT_TRUE(follows.summary.has_value());
  EXPECT_GT(follows.summary->se_count, 1);

  const SizingPlan planned =
      PlanSizing(Input(Json::object(), {{"l7_rps", 150000}, {"target_utilization", 70}}),
                 sizing::Platform::kNsxt);
  EXPECT_EQ(planned.recommended.at("max_cpu_usage"), 70);

  const SizingPlan above =
      PlanSizing(Input({{"max_cpu_usage", 60}}, {{"l7_rps", 150000}, {"target_utilization", 80}}),
                 sizing::Platform::kNsxt);
  EXPECT_EQ(above.workload->target_utilization_pct, 80);
  int warnings = 0;
  for (const Finding& f : above.findings) {
    if (f.finding.rule != sizing::rules::kTargetWithinMaxCpuUsage) continue;
    ++warnings;
    EXPECT_EQ(f.attribute, "workload.target_utilization");
    EXPECT_EQ(f.finding.severity, sizing::Severity::kWarning);
    EXPECT_FALSE(f.policy_dependent);
  }
  EXPECT_EQ(warnings, 1);
  for (const Finding& f : follows.findings) {
    EXPECT_NE(f.finding.rule, sizing::rules::kTargetWithinMaxCpuUsage);
  }

  const SizingPlan range =
      PlanSizing(Input({{"max_cpu_usage", 95}}, workload), sizing::Platform::kNsxt);
  bool range_error = false;
  for (const Finding& f : range.findings) {
    range_error |= f.attribute == "max_cpu_usage" && f.finding.severity == sizing::Severity::kError;
  }
  EXPECT_TRUE(range_error);
}

TEST(SegroupSizingPlanTest, AttributeOfModel) {
  EXPECT_EQ(AttributeOfModel("se_count", true), "min_scaleout_per_vs");
  EXPECT_EQ(AttributeOfModel("workload.l7_rps", true), "workload.l7_rps");
  EXPECT_EQ(AttributeOfModel("workload.l7_rps", false), "");
  EXPECT_EQ(AttributeOfModel("something", true), "workload");
}

}  // namespace
}  // namespace nsxalb::segroup
