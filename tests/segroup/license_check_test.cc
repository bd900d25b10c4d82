// The licence pool as a plan sees it (plugin/segroup/license_check.h): the tier a group draws on,
// the units its running SEs consume, rule license-units-short and its words, the plan-report
// line, and the process-wide ledger cache (one read, shared by concurrent callers).
#include "plugin/segroup/license_check.h"

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "plugin/sizing/rules.h"
#include "tests/controller/mock_client.h"

namespace nsxalb::segroup {
namespace {

using ::testing::HasSubstr;
using ::testing::Invoke;

controller::LicenseLedgerDetails Ledger(double licensed, double consumed, double escrow) {
  controller::LicenseLedgerDetails l;
  l.tier_usages.push_back(
      {"ENTERPRISE", {licensed, consumed, escrow, std::max(0.0, licensed - consumed - escrow)}});
  l.se_infos.push_back({"se-1", 4, "ENTERPRISE", "admin"});
  l.se_infos.push_back({"se-2", 4, "ENTERPRISE", "admin"});
  l.se_infos.push_back({"se-9", 48, "ENTERPRISE", "admin"});
  return l;
}

TEST(LicenseCheckTest, TheTierIsTheGroupsElseTheCloudsElseEnterprise) {
  EXPECT_EQ(LicenseTierOf("ESSENTIALS", "ENTERPRISE"), "ESSENTIALS");
  EXPECT_EQ(LicenseTierOf("", "BASIC"), "BASIC");
  EXPECT_EQ(LicenseTierOf("", ""), "ENTERPRISE");
}

TEST(LicenseCheckTest, ANewGroupShortOfUnitsWarnsWithTheFigures) {
  // 64 licensed, 56 consumed, 4 in escrow: 4 left; a new group of 12 SUs adds 12.
  const controller::LicenseLedgerDetails ledger = Ledger(64, 56, 4);
  const LicensePool pool = LicensePoolOf(ledger, "ENTERPRISE");
  std::optional<Finding> f = CheckLicenseUnits(LicenseUnitsAddedBy(12, 0), pool, "vcpus_per_se");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->finding.rule, sizing::rules::kLicenseUnitsShort);
  EXPECT_EQ(f->attribute, "vcpus_per_se");
  EXPECT_TRUE(f->policy_dependent);
  EXPECT_EQ(f->finding.severity, sizing::Severity::kWarning);
  EXPECT_THAT(f->finding.detail,
              HasSubstr("this group adds 12 SUs at its planned scale; the ENTERPRISE tier has 4 "
                        "left (64 licensed, 56 consumed, 4 in escrow)"));
  EXPECT_TRUE(FindingIsError(*f, SizingPolicy::kEnforce, /*waived=*/false));
  EXPECT_FALSE(FindingIsError(*f, SizingPolicy::kEnforce, /*waived=*/true));
  EXPECT_FALSE(FindingIsError(*f, SizingPolicy::kWarn, false));
  // With 80 licensed it fits.
  EXPECT_FALSE(CheckLicenseUnits(LicenseUnitsAddedBy(12, 0),
                                 LicensePoolOf(Ledger(80, 56, 4), "ENTERPRISE"), "vcpus_per_se")
                   .has_value());
}

TEST(LicenseCheckTest, TheGroupsRunningSesCountAgainstItsPlan) {
  const controller::LicenseLedgerDetails ledger = Ledger(64, 56, 4);
  std::vector<controller::ServiceEngine> ses(3);
  ses[0].uuid = "se-1";
  ses[0].se_group_ref = "https://c/api/serviceenginegroup/serviceenginegroup-a";
  ses[1].uuid = "se-2";
  ses[1].se_group_ref = "https://c/api/serviceenginegroup/serviceenginegroup-a#web";
  ses[2].uuid = "se-9";
  ses[2].se_group_ref = "https://c/api/serviceenginegroup/serviceenginegroup-b";
  const std::vector<std::string> mine = LicenseSeUuidsOfGroup(ses, "serviceenginegroup-a");
  ASSERT_EQ(mine, (std::vector<std::string>{"se-1", "se-2"}));
  EXPECT_EQ(LicenseUnitsOfSes(ledger, mine), 8);
  // Growing from 8 to 12 SUs adds 4: exactly what is left.
  const LicenseUnitsAdded grows = LicenseUnitsAddedBy(12, 8);
  EXPECT_EQ(grows.added, 4);
  EXPECT_FALSE(CheckLicenseUnits(grows, LicensePoolOf(ledger, "ENTERPRISE"), "").has_value());
  std::optional<Finding> f =
      CheckLicenseUnits(LicenseUnitsAddedBy(16, 8), LicensePoolOf(ledger, "ENTERPRISE"), "");
  ASSERT_TRUE(f.has_value());
  EXPECT_THAT(
      f->finding.detail,
      HasSubstr("adds 8 SUs at its planned scale (16 planned - 8 its running SEs consume)"));
  // Shrinking adds nothing.
  EXPECT_EQ(LicenseUnitsAddedBy(4, 8).added, 0);
}

TEST(LicenseCheckTest, AGroupWithoutAWorkloadCountsMaxSeTimesItsSes) {
  std::optional<LicenseUnitsAtScale> u =
      LicenseUnitsOfSettings({{"max_se", 3}, {"vcpus_per_se", 4}});
  ASSERT_TRUE(u.has_value());
  EXPECT_EQ(u->units, 12);
  EXPECT_EQ(u->basis, "max_se 3 x 4 vCPUs = 12 SUs");
  // Unset (or null): the Controller's defaults, max_se 10 and 1 vCPU, as a new group gets them.
  u = LicenseUnitsOfSettings({{"max_se", nullptr}});
  ASSERT_TRUE(u.has_value());
  EXPECT_EQ(u->units, 10);
  EXPECT_EQ(u->basis,
            "max_se 10 (the Controller's default) x 1 vCPU (the Controller's default) = 10 SUs");
  // The ledger's rule: data-path processes, per_app at 25%.
  u = LicenseUnitsOfSettings(
      {{"max_se", 3}, {"vcpus_per_se", 8}, {"max_num_se_dps", 4}, {"per_app", true}});
  ASSERT_TRUE(u.has_value());
  EXPECT_EQ(u->units, 3);
  EXPECT_EQ(u->basis,
            "max_se 3 x 8 vCPUs, max_num_se_dps 4: 4 data-path processes x 0.25 (per_app) = 1 SU "
            "each = 3 SUs");
  // Not a whole number: no figure.
  EXPECT_FALSE(LicenseUnitsOfSettings({{"max_se", 2.5}, {"vcpus_per_se", 4}}).has_value());
  EXPECT_FALSE(LicenseUnitsOfSettings({{"max_se", 2}, {"vcpus_per_se", -1}}).has_value());
}

TEST(LicenseCheckTest, TheFindingSaysTheArithmeticOfAGroupWithoutAWorkload) {
  const LicensePool pool = LicensePoolOf(Ledger(64, 56, 4), "ENTERPRISE");
  std::optional<Finding> f =
      CheckLicenseUnits(LicenseUnitsAddedBy(12, 0, "max_se 3 x 4 vCPUs = 12 SUs"), pool, "max_se");
  ASSERT_TRUE(f.has_value());
  EXPECT_THAT(f->finding.detail,
              HasSubstr("this group adds 12 SUs at its planned scale (max_se 3 x 4 vCPUs = 12 "
                        "SUs); the ENTERPRISE tier has 4 left (64 licensed, 56 consumed, 4 in "
                        "escrow)"));
  f = CheckLicenseUnits(LicenseUnitsAddedBy(16, 8, "max_se 4 x 4 vCPUs = 16 SUs"), pool, "");
  ASSERT_TRUE(f.has_value());
  EXPECT_THAT(f->finding.detail,
              HasSubstr("this group adds 8 SUs at its planned scale (max_se 4 x 4 vCPUs = 16 "
                        "SUs, less 8 its running SEs consume); the ENTERPRISE tier has 4 left"));
}

TEST(LicenseCheckTest, AnUnlicensedTierHasNothingLeft) {
  const LicensePool none = LicensePoolOf(Ledger(64, 0, 0), "BASIC");
  EXPECT_EQ(none.tier, "BASIC");
  EXPECT_EQ(none.remaining, 0);
  EXPECT_TRUE(CheckLicenseUnits(LicenseUnitsAddedBy(0.5, 0), none, "").has_value());
}

TEST(LicenseCheckTest, ThePlanReportLine) {
  const LicensePool pool = LicensePoolOf(Ledger(64, 56, 0), "ENTERPRISE");
  EXPECT_EQ(LicenseTierTotalText({pool, 12}),
            "ENTERPRISE: the plan adds 12 SUs; 8 remain (64 licensed, 56 consumed, 0 in escrow): "
            "4 SUs short");
  EXPECT_EQ(LicenseTierTotalText({pool, 6}),
            "ENTERPRISE: the plan adds 6 SUs; 8 remain (64 licensed, 56 consumed, 0 in escrow): "
            "2 SUs left after it");
}

TEST(LicenseCheckTest, TheCacheReadsOnceForConcurrentCallers) {
  controller::MockClient client;
  std::atomic<int> reads{0};
  EXPECT_CALL(client, GetLicenseLedgerDetails()).WillRepeatedly(Invoke([&reads] {
    ++reads;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return absl::StatusOr<controller::LicenseLedgerDetails>(Ledger(64, 56, 4));
  }));
  LicenseLedgerCache cache;
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&] {
      if (cache.Get(client).ok()) ++ok;
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(reads.load(), 1);
  EXPECT_EQ(ok.load(), 8);
  EXPECT_TRUE(cache.Get(client).ok());
  EXPECT_EQ(reads.load(), 1);
}

}  // namespace
}  // namespace nsxalb::segroup
