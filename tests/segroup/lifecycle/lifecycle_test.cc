// plugin/segroup/lifecycle: which running SEs match their group's settings, the group at their
// real shape, and the finding ses-behind-settings, with the figures of docs/sizing.md ("Running
// SEs behind the settings"), worked there by hand from the nsxt seed table.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "plugin/segroup/lifecycle/finding.h"
#include "plugin/segroup/lifecycle/match.h"
#include "plugin/segroup/lifecycle/running_load.h"
#include "plugin/segroup/lifecycle/running_ses.h"
#include "plugin/segroup/sizing_plan.h"
#include "plugin/sizing/rules.h"
#include "tests/segroup/lifecycle/lifecycle_test_support.h"

namespace nsxalb::segroup::lifecycle {
namespace {

using ::testing::ElementsAre;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using Json = nlohmann::json;
using controller::TakesEffect;

// A listed SE of `group` with its shape.
controller::ServiceEngine SeInGroup(const std::string& name, const std::string& group, int vcpus,
                                    int64_t memory_mb, int64_t disk_gb = 15) {
  controller::ServiceEngine se;
  se.uuid = absl::StrCat("se-", name);
  se.name = name;
  se.se_group_ref = absl::StrCat("https://ctrl/api/serviceenginegroup/", group);
  se.num_vcpus = vcpus;
  se.memory_mb = memory_mb;
  se.disk_gb = disk_gb;
  return se;
}

// The checkout group of issue 39: 3 SEs of 4 vCPUs and 8,192 MB.
std::vector<RunningSe> CheckoutSes() {
  return RunningSesOf(
      {SeInGroup("checkout-c", kGroup, 4, 8192),
       SeInGroup("other", "serviceenginegroup-2", 8, 16384),
       SeInGroup("checkout-a", kGroup, 4, 8192), SeInGroup("checkout-b", kGroup, 4, 8192)},
      kGroup);
}

TEST(RunningSesTest, KeepsTheGroupsSesSortedByName) {
  std::vector<RunningSe> ses = CheckoutSes();
  ASSERT_EQ(ses.size(), 3u);
  EXPECT_EQ(ses[0].name, "checkout-a");
  EXPECT_EQ(ses[2].name, "checkout-c");
  EXPECT_EQ(ses[1].vcpus, 4);
  EXPECT_EQ(ses[1].memory_mb, 8192);
}

TEST(MatchTest, ShapeFieldsThatDifferLagUntilReplaced) {
  const GroupSes ses = MatchSettings(
      CheckoutSes(), Json{{"vcpus_per_se", 5}, {"memory_per_se", 10240}, {"disk_per_se", 15}}, {});
  EXPECT_EQ(ses.running.size(), 3u);
  EXPECT_EQ(ses.matching, 0);
  ASSERT_EQ(ses.lagging.size(), 3u);
  EXPECT_EQ(ses.lagging[0].why, TakesEffect::kNewSesOnly);
  EXPECT_THAT(ses.lagging[0].fields, ElementsAre("vcpus_per_se", "memory_per_se"));
  EXPECT_THAT(ses.reboot_fields, IsEmpty());
}

TEST(MatchTest, SesOfTheSettingsMatchAndUnsetOrUnknownSizesAreNotCompared) {
  EXPECT_EQ(
      MatchSettings(CheckoutSes(), Json{{"vcpus_per_se", 4}, {"memory_per_se", 8192}}, {}).matching,
      3);
  EXPECT_EQ(
      MatchSettings(CheckoutSes(), Json{{"vcpus_per_se", 4.0}, {"memory_per_se", nullptr}}, {})
          .matching,
      3);
  std::vector<RunningSe> unknown = CheckoutSes();
  unknown[0].vcpus = 0;  // the Controller gave no size
  const GroupSes ses = MatchSettings(unknown, Json{{"vcpus_per_se", 5}}, {});
  EXPECT_EQ(ses.matching, 1);
  EXPECT_EQ(ses.lagging.size(), 2u);
}

TEST(MatchTest, RebootFieldsChangedNowHoldEverySeRecordedOnesOnlyThoseRebootPending) {
  const Json settings = {{"vcpus_per_se", 4}, {"memory_per_se", 8192}};
  GroupSes now = MatchSettings(CheckoutSes(), settings, {{"num_dispatcher_cores"}, {}});
  EXPECT_EQ(now.matching, 0);
  ASSERT_EQ(now.lagging.size(), 3u);
  EXPECT_EQ(now.lagging[1].why, TakesEffect::kAfterSeReboot);
  EXPECT_THAT(now.lagging[1].fields, ElementsAre("num_dispatcher_cores"));
  EXPECT_THAT(now.reboot_fields, ElementsAre("num_dispatcher_cores"));

  std::vector<RunningSe> ses = CheckoutSes();
  ses[1].reboot_pending = true;
  GroupSes later = MatchSettings(ses, settings, {{}, {"num_dispatcher_cores"}});
  EXPECT_EQ(later.matching, 2);
  ASSERT_EQ(later.lagging.size(), 1u);
  EXPECT_EQ(later.lagging[0].se.name, "checkout-b");
  EXPECT_THAT(later.reboot_fields, ElementsAre("num_dispatcher_cores"));

  // Rebooted (nothing pending): the recorded fields are no longer waited for.
  GroupSes done = MatchSettings(CheckoutSes(), settings, {{}, {"num_dispatcher_cores"}});
  EXPECT_EQ(done.matching, 3);
  EXPECT_THAT(done.reboot_fields, IsEmpty());
}

TEST(MatchTest, ChangedFieldsOfAClass) {
  const Json before = {{"vcpus_per_se", 4}, {"max_se", 3}, {"num_dispatcher_cores", 1}};
  const Json after = {{"vcpus_per_se", 5}, {"max_se", 4}, {"num_dispatcher_cores", 2}};
  const std::vector<std::string> names = {"vcpus_per_se", "max_se", "num_dispatcher_cores",
                                          "memory_per_se"};
  EXPECT_THAT(ChangedFieldsOfClass(names, before, after, TakesEffect::kNewSesOnly),
              ElementsAre("vcpus_per_se"));
  EXPECT_THAT(ChangedFieldsOfClass(names, before, after, TakesEffect::kAfterSeReboot),
              ElementsAre("num_dispatcher_cores"));
  EXPECT_THAT(ChangedFieldsOfClass(names, before, before, TakesEffect::kAfterSeReboot), IsEmpty());
}

// docs/sizing.md, "Running SEs behind the settings": the plan gives 3 SEs of 5 vCPUs (interpolated
// 179,000 RPS and 9,850 ECC TPS each: 55.9% + 20.3% = 76.2%), 10,240 MB, max_se 4; the 3 running
// SEs of 4 vCPUs (measured 153,000 and 8,200) would run 300,000 / 459,000 = 65.4% + 6,000 /
// 24,600 = 24.4%: 89.7% CPU, over the 80% target. Service Units: 3 x 4 = 12 now, 3 x 5 = 15
// replaced, 4 x 5 = 20 planned.
TEST(SesBehindSettingsTest, TheCheckoutStoryWorkedByHand) {
  const SizingPlan plan = CheckoutPlan();
  ASSERT_TRUE(plan.summary.has_value());
  EXPECT_EQ(plan.recommended.at("vcpus_per_se"), 5);
  EXPECT_EQ(plan.recommended.at("memory_per_se"), 10240);
  EXPECT_EQ(plan.recommended.at("max_se"), 4);
  EXPECT_EQ(plan.summary->utilization_pct, 76.2);

  SesBehindInput in;
  in.group_name = "checkout";
  in.settings = Json{{"vcpus_per_se", 5}, {"memory_per_se", 10240}, {"max_se", 4}};
  in.prior_settings = Json{{"vcpus_per_se", 4}, {"memory_per_se", 8192}, {"max_se", 3}};
  in.ses = MatchSettings(CheckoutSes(), in.settings, {});
  in.workload = plan.workload;
  in.planned_shape = plan.planned_shape;
  const std::optional<SesBehindFinding> found = SesBehindSettings(in);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->finding.rule, sizing::rules::kSesBehindSettings);
  EXPECT_EQ(found->finding.severity, sizing::Severity::kWarning);
  EXPECT_THAT(found->fields, ElementsAre("memory_per_se", "vcpus_per_se"));
  EXPECT_EQ(found->finding.summary, "3 of checkout's 3 running SEs lag its settings");
  const std::string& d = found->finding.detail;
  EXPECT_THAT(d, HasSubstr("vcpus_per_se 4 -> 5 and memory_per_se 8,192 -> 10,240 reach new SEs "
                           "only: checkout's 3 running SEs (checkout-a, checkout-b and "
                           "checkout-c) keep 4 vCPUs and 8,192 MB until they are replaced."));
  ASSERT_TRUE(found->load.has_value());
  EXPECT_EQ(found->load->active_ses, 3);
  EXPECT_FALSE(found->load->shape.carried);
  EXPECT_NEAR(found->load->shape.cpu.utilization_pct,
              100.0 * 300000 / (3 * 153000) + 100.0 * 6000 / (3 * 8200), 1e-9);
  EXPECT_THAT(d, HasSubstr("3 SEs of 4 vCPUs would run 300,000 L7 RPS + 6,000 ECC SSL TPS at "
                           "89.7% CPU, over the 80% target"));
  EXPECT_THAT(d, HasSubstr("The Controller may still add 1 SE up to max_se 4, and it comes at the "
                           "new settings (5 vCPUs, 10,240 MB)"));
  ASSERT_TRUE(found->service_units.has_value());
  EXPECT_EQ(found->service_units->running, 12);
  EXPECT_EQ(found->service_units->replaced, 15);
  EXPECT_THAT(d, HasSubstr("The running SEs consume 12 SUs, and 15 SUs once replaced"));
  EXPECT_THAT(d, HasSubstr("sizing.service_units stays the planned 20 SUs"));
}

TEST(SesBehindSettingsTest, ALaterPlanNamesTheValuesAndAMatchingGroupSaysNothing) {
  SesBehindInput in;
  in.group_name = "checkout";
  in.settings = Json{{"vcpus_per_se", 5}, {"memory_per_se", 10240}, {"max_se", 3}};
  in.ses = MatchSettings(CheckoutSes(), in.settings, {});
  const std::optional<SesBehindFinding> later = SesBehindSettings(in);
  ASSERT_TRUE(later.has_value());
  EXPECT_THAT(later->finding.detail,
              HasSubstr("vcpus_per_se 5 and memory_per_se 10,240 reach new SEs only"));
  EXPECT_THAT(later->finding.detail, HasSubstr("max_se 3 leaves the Controller no room"));
  EXPECT_FALSE(later->load.has_value());  // no workload declared

  in.settings = Json{{"vcpus_per_se", 4}, {"memory_per_se", 8192}, {"max_se", 4}};
  in.ses = MatchSettings(CheckoutSes(), in.settings, {});
  EXPECT_FALSE(SesBehindSettings(in).has_value());
}

TEST(SesBehindSettingsTest, ARebootOnlyChangeSaysTheSesNeedAReboot) {
  SesBehindInput in;
  in.group_name = "checkout";
  in.settings = Json{{"vcpus_per_se", 4}, {"memory_per_se", 8192}, {"num_dispatcher_cores", 2}};
  in.prior_settings =
      Json{{"vcpus_per_se", 4}, {"memory_per_se", 8192}, {"num_dispatcher_cores", 1}};
  in.ses = MatchSettings(CheckoutSes(), in.settings, {{"num_dispatcher_cores"}, {}});
  const std::optional<SesBehindFinding> found = SesBehindSettings(in);
  ASSERT_TRUE(found.has_value());
  EXPECT_THAT(found->fields, ElementsAre("num_dispatcher_cores"));
  EXPECT_THAT(found->finding.detail,
              HasSubstr("num_dispatcher_cores 1 -> 2 takes effect on running SEs only after an SE "
                        "reboot: checkout's 3 running SEs (checkout-a, checkout-b and checkout-c) "
                        "need a reboot"));
  EXPECT_THAT(found->finding.detail, Not(HasSubstr("new SEs only")));
}

// The runbook, and the setting that has apply do it: named only when the front end gives it (the
// resource, when its rollout strategy is not "rolling"), for new-ses-only and reboot fields alike.
TEST(SesBehindSettingsTest, TheFindingNamesTheRollingStrategyWhenTheGroupLacksIt) {
  SesBehindInput in;
  in.group_name = "checkout";
  in.settings = Json{{"vcpus_per_se", 5}, {"memory_per_se", 10240}, {"max_se", 3}};
  in.ses = MatchSettings(CheckoutSes(), in.settings, {});
  const std::string named =
      "Or set rollout { strategy = \"rolling\" } and apply does this for you: after writing the "
      "group it replaces or reboots each SE that lags, one at a time unless max_unavailable allows "
      "more, when the plan's decision (its upgrade, HA-mode, capacity, placement, licence and "
      "cloud guards) lets it roll.";
  // A group that rolls already, or a front end that cannot tell: the runbook alone.
  std::optional<SesBehindFinding> found = SesBehindSettings(in);
  ASSERT_TRUE(found.has_value());
  EXPECT_THAT(found->finding.detail, HasSubstr("replace them one at a time"));
  EXPECT_THAT(found->finding.detail, Not(HasSubstr("rollout")));

  in.roll_setting = kRollingSetting;
  found = SesBehindSettings(in);
  ASSERT_TRUE(found.has_value());
  EXPECT_THAT(found->finding.detail, HasSubstr("replace them one at a time"));
  EXPECT_THAT(found->finding.detail, EndsWith(named));

  // A reboot-only change: the same sentence after the reboot runbook, once.
  in.settings = Json{{"vcpus_per_se", 4}, {"memory_per_se", 8192}, {"num_dispatcher_cores", 2}};
  in.ses = MatchSettings(CheckoutSes(), in.settings, {{"num_dispatcher_cores"}, {}});
  found = SesBehindSettings(in);
  ASSERT_TRUE(found.has_value());
  EXPECT_THAT(found->finding.detail, HasSubstr("Reboot them one at a time"));
  EXPECT_THAT(found->finding.detail, EndsWith(named));
}

}  // namespace
}  // namespace nsxalb::segroup::lifecycle
