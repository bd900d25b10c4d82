// The emulated licence ledger (emulator/license.h) and the store's admission of SEs through it:
// the shared units rule, escrow, refusal with the Controller's message, release, and the flag.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "emulator/license.h"
#include "emulator/store.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "plugin/common/license_units.h"
#include "plugin/sizing/service_units.h"

namespace nsxalb::emulator {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

json Tier(const json& details, const std::string& tier) {
  for (const json& t : details["tier_usages"]) {
    if (t["tier"] == tier) return t["usage"];
  }
  return nullptr;
}

TEST(LicenseLedgerTest, CountsEscrowsRefusesAndReleases) {
  LicenseLedger ledger({{"ENTERPRISE", 64}});
  ASSERT_TRUE(ledger.Admit({"se-1", "ENTERPRISE", 56, "admin"}, /*escrow=*/false).ok());
  ASSERT_TRUE(ledger.Admit({"se-2", "ENTERPRISE", 4, "admin"}, /*escrow=*/true).ok());
  json usage = Tier(ledger.Details(1), "ENTERPRISE");
  EXPECT_EQ(usage,
            (json{{"available", 64.0}, {"consumed", 56.0}, {"escrow", 4.0}, {"remaining", 4.0}}));
  // 8 more do not fit in the 4 left: the Controller's message, and nothing recorded.
  absl::Status refused = ledger.Admit({"se-3", "ENTERPRISE", 8, "admin"}, false);
  EXPECT_TRUE(absl::IsFailedPrecondition(refused));
  EXPECT_THAT(std::string(refused.message()),
              HasSubstr("Insufficient licensable resources available to create Service Engine"));
  EXPECT_EQ(Tier(ledger.Details(1), "ENTERPRISE")["remaining"], 4.0);
  // Exactly what remains fits.
  EXPECT_TRUE(ledger.Admit({"se-4", "ENTERPRISE", 4, "admin"}, false).ok());
  EXPECT_EQ(Tier(ledger.Details(1), "ENTERPRISE")["remaining"], 0.0);
  // The booted SE's escrow becomes consumption; a released SE frees its units.
  ledger.Consume("se-2");
  usage = Tier(ledger.Details(1), "ENTERPRISE");
  EXPECT_EQ(usage["consumed"], 64.0);
  EXPECT_EQ(usage["escrow"], 0.0);
  ledger.Release({"se-1"});
  EXPECT_EQ(Tier(ledger.Details(1), "ENTERPRISE")["remaining"], 56.0);
  // A tier without a licence covers nothing.
  EXPECT_TRUE(absl::IsFailedPrecondition(ledger.Admit({"se-5", "BASIC", 1, ""}, false)));
}

TEST(LicenseLedgerTest, SeInfosEscrowInfosAndReservations) {
  LicenseLedger ledger({{"ENTERPRISE", 10}});
  ASSERT_TRUE(ledger.Admit({"se-1", "ENTERPRISE", 2, "admin"}, false).ok());
  ASSERT_TRUE(ledger.Admit({"se-2", "ENTERPRISE", 2, "admin"}, true).ok());
  ledger.SetReservations({{"cookie-1", "ENTERPRISE", 5, ""}});
  const json d = ledger.Details(42);
  ASSERT_EQ(d["se_infos"].size(), 1u);
  EXPECT_EQ(d["se_infos"][0]["uuid"], "se-1");
  EXPECT_EQ(d["se_infos"][0]["tenant_uuid"], "admin");
  EXPECT_EQ(d["se_infos"][0]["last_updated"], 42);
  ASSERT_EQ(d["escrow_infos"].size(), 2u);
  EXPECT_EQ(Tier(d, "ENTERPRISE")["escrow"], 7.0);
  EXPECT_EQ(Tier(d, "ENTERPRISE")["remaining"], 1.0);
  // A smaller licence leaves the tier over-consumed: remaining 0, not negative.
  ledger.SetLicense({{"ENTERPRISE", 3}});
  EXPECT_EQ(Tier(ledger.Details(1), "ENTERPRISE")["remaining"], 0.0);
}

TEST(LicenseLedgerTest, TheDefaultLicenceIsGenerous) {
  LicenseLedger ledger({});
  EXPECT_EQ(Tier(ledger.Details(1), kDefaultLicenseTier)["available"], kDefaultLicenseServiceUnits);
  EXPECT_EQ(ledger.LicenseJson()["default"], true);
}

TEST(LicenseLedgerTest, TheFlag) {
  std::map<std::string, double> licensed;
  EXPECT_TRUE(ParseLicenseFlag("ENTERPRISE=64", &licensed).ok());
  EXPECT_TRUE(ParseLicenseFlag("ESSENTIALS=2.5", &licensed).ok());
  EXPECT_EQ(licensed, (std::map<std::string, double>{{"ENTERPRISE", 64}, {"ESSENTIALS", 2.5}}));
  for (const char* bad : {"ENTERPRISE", "GOLD=4", "ENTERPRISE=-1", "ENTERPRISE=x", "=4"}) {
    absl::Status s = ParseLicenseFlag(bad, &licensed);
    EXPECT_TRUE(absl::IsInvalidArgument(s)) << bad;
    EXPECT_THAT(std::string(s.message()), HasSubstr("--license")) << bad;
  }
}

// The emulator counts with the rule the provider sizes with: the shared function and
// sizing::ServiceUnitsPerSe agree for every shape.
TEST(LicenseLedgerTest, TheEmulatorAndTheSizingCountAlike) {
  for (int vcpus : {1, 2, 4, 8, 16}) {
    for (std::optional<int> dps : {std::optional<int>(), std::optional<int>(2)}) {
      for (bool per_app : {false, true}) {
        EXPECT_EQ(license::LicenseServiceUnitsPerSe(vcpus, dps, per_app),
                  sizing::ServiceUnitsPerSe(vcpus, {dps, per_app}).value)
            << vcpus << " " << per_app;
      }
    }
  }
}

TEST(StoreLicenseTest, EachSeIsAdmittedWithTheGroupsUnitsAndTier) {
  int64_t clock = 1;
  Store store([&clock] { return ++clock; });
  store.Seed();
  absl::StatusOr<json> g = store.CreateSeGroup(
      {{"name", "web"}, {"vcpus_per_se", 8}, {"max_num_se_dps", 4}, {"per_app", true}}, "admin");
  ASSERT_TRUE(g.ok()) << g.status();
  LicenseLedger ledger({{"ENTERPRISE", 2.5}});
  std::vector<LicenseCharge> seen;
  auto admit = [&](const LicenseCharge& c) {
    seen.push_back(c);
    return ledger.Admit(c, false);
  };
  // 8 vCPUs, 4 data-path processes, per_app: 1 SU each; 2.5 licensed: 2 fit, the third is refused.
  absl::StatusOr<std::vector<std::string>> ses =
      store.CreateServiceEngines((*g)["uuid"], 3, std::nullopt, json::object(), admit);
  ASSERT_FALSE(ses.ok());
  EXPECT_THAT(std::string(ses.status().message()),
              HasSubstr("created 2 of 3 Service Engines: Insufficient licensable resources"));
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].tier, "ENTERPRISE");  // the cloud's license_tier
  EXPECT_EQ(seen[0].service_cores, 1.0);
  EXPECT_EQ(seen[0].tenant_uuid, "admin");
  // The two admitted stay (the group stays under-sized), and their charges survive a rebuild.
  ListFilter f;
  f.refers_to = std::make_pair(std::string(kSeGroup), (*g)["uuid"].get<std::string>());
  EXPECT_EQ(store.List(kServiceEngine, f).size(), 2u);
  const std::vector<LicenseCharge> charges = store.LicenseCharges();
  ASSERT_EQ(charges.size(), 2u);
  EXPECT_EQ(charges[0].service_cores, 1.0);
  // The hidden charge never leaves the store.
  json rendered = store.Render(kServiceEngine, store.List(kServiceEngine, f)[0], RenderOptions{});
  EXPECT_FALSE(rendered.contains("_license"));
}

}  // namespace
}  // namespace nsxalb::emulator
