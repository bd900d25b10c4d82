// The licence ledger's decode (plugin/controller/license_ledger.h): the swagger's collection
// answer and the bare object, missing lists and numbers, and bad bodies as errors naming the field.
#include "plugin/controller/license_ledger.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace nsxalb::controller {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

Json Ledger() {
  return Json::parse(R"({
    "uuid": "licenseledgerdetails-1",
    "tier_usages": [
      {"tier": "ENTERPRISE",
       "usage": {"available": 64, "consumed": 56, "escrow": 4, "remaining": 4}},
      {"tier": "ESSENTIALS", "usage": {"available": 10.5}}
    ],
    "se_infos": [
      {"uuid": "se-1", "service_cores": 8, "tier": "ENTERPRISE", "tenant_uuid": "admin",
       "last_updated": 1700000000000000},
      {"uuid": "se-2", "service_cores": 0.5, "tier": "ENTERPRISE"}
    ],
    "escrow_infos": [{"uuid": "cookie-1", "service_cores": 4, "tier": "ENTERPRISE"}]
  })");
}

TEST(LicenseLedgerTest, DecodesTheSwaggersCollectionAnswer) {
  const Json body = {{"count", 1}, {"results", Json::array({Ledger()})}};
  absl::StatusOr<LicenseLedgerDetails> got = DecodeLicenseLedgerDetails(body);
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(got->tier_usages.size(), 2u);
  EXPECT_EQ(got->tier_usages[0].tier, "ENTERPRISE");
  EXPECT_EQ(got->tier_usages[0].usage.available, 64);
  EXPECT_EQ(got->tier_usages[0].usage.consumed, 56);
  EXPECT_EQ(got->tier_usages[0].usage.escrow, 4);
  EXPECT_EQ(got->tier_usages[0].usage.remaining, 4);
  // Missing numbers are 0.
  EXPECT_EQ(got->tier_usages[1].usage.available, 10.5);
  EXPECT_EQ(got->tier_usages[1].usage.consumed, 0);
  ASSERT_EQ(got->se_infos.size(), 2u);
  EXPECT_EQ(got->se_infos[0].tenant_uuid, "admin");
  EXPECT_EQ(got->se_infos[1].tenant_uuid, "");
  EXPECT_EQ(got->SeServiceCores("se-2"), 0.5);
  EXPECT_EQ(got->SeServiceCores("se-9"), std::nullopt);
  ASSERT_EQ(got->escrow_infos.size(), 1u);
  EXPECT_EQ(got->escrow_infos[0].service_cores, 4);
  ASSERT_TRUE(got->TierUsage("ENTERPRISE").has_value());
  EXPECT_FALSE(got->TierUsage("BASIC").has_value());
}

TEST(LicenseLedgerTest, DecodesTheBareObjectToo) {
  absl::StatusOr<LicenseLedgerDetails> got = DecodeLicenseLedgerDetails(Ledger());
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->tier_usages.size(), 2u);
  EXPECT_EQ(got->se_infos.size(), 2u);
}

TEST(LicenseLedgerTest, MissingListsAreEmpty) {
  absl::StatusOr<LicenseLedgerDetails> got =
      DecodeLicenseLedgerDetails(Json{{"uuid", "x"}, {"se_infos", nullptr}});
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_TRUE(got->tier_usages.empty());
  EXPECT_TRUE(got->se_infos.empty());
  EXPECT_TRUE(got->escrow_infos.empty());
}

// Each bad body and the field its error must name.
struct BadCase {
  std::string name;
  Json body;
  std::string names;
};

TEST(LicenseLedgerTest, BadBodiesAreErrorsNamingTheField) {
  auto with = [](const char* pointer, Json value) {
    Json l = Ledger();
    l[Json::json_pointer(pointer)] = std::move(value);
    return l;
  };
  Json no_usage = Ledger();
  no_usage["tier_usages"][0].erase("usage");
  Json no_uuid = Ledger();
  no_uuid["se_infos"][1].erase("uuid");
  const BadCase cases[] = {
      {"not an object", Json::array(), "body: expected a JSON object"},
      {"results not a list", Json{{"results", 3}}, "results: expected a list"},
      {"results empty", Json{{"count", 0}, {"results", Json::array()}}, "results: empty"},
      {"tier_usages not a list", with("/tier_usages", "x"), "tier_usages: expected a list"},
      {"consumed a string", with("/tier_usages/0/usage/consumed", "56"),
       "tier_usages[0].usage.consumed: expected a number"},
      {"negative remaining", with("/tier_usages/0/usage/remaining", -1),
       "tier_usages[0].usage.remaining: must not be negative"},
      {"usage missing", no_usage, "tier_usages[0].usage: required, missing"},
      {"tier missing", with("/tier_usages/1/tier", nullptr), "tier_usages[1].tier: required"},
      {"se uuid missing", no_uuid, "se_infos[1].uuid: required, missing"},
      {"service_cores a bool", with("/escrow_infos/0/service_cores", true),
       "escrow_infos[0].service_cores: expected a number"},
      {"se info not an object", with("/se_infos/0", 7), "se_infos[0]: expected an object"},
  };
  for (const BadCase& c : cases) {
    absl::StatusOr<LicenseLedgerDetails> got = DecodeLicenseLedgerDetails(c.body);
    ASSERT_FALSE(got.ok()) << c.name;
    EXPECT_EQ(got.status().code(), absl::StatusCode::kInternal) << c.name;
    EXPECT_THAT(std::string(got.status().message()), HasSubstr(c.names)) << c.name;
    EXPECT_THAT(std::string(got.status().message()), HasSubstr("/api/licensing/ledger/details"))
        << c.name;
  }
}

}  // namespace
}  // namespace nsxalb::controller
