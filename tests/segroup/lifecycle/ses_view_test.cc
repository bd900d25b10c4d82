// plugin/segroup/lifecycle/ses_view.h: each SE as the front ends show it (shape, states, match and
// why), the resource's summary, and that summary read back from a plan and matched again.
#include "plugin/segroup/lifecycle/ses_view.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "tests/segroup/lifecycle/lifecycle_test_support.h"

namespace nsxalb::segroup::lifecycle {
namespace {

using Json = nlohmann::json;

controller::ServiceEngine Se(const std::string& name, int vcpus, int64_t memory_mb, int64_t disk_gb,
                             bool reboot_pending = false) {
  controller::ServiceEngine se;
  se.uuid = absl::StrCat("se-", name);
  se.name = name;
  se.se_group_ref = absl::StrCat("https://ctrl/api/serviceenginegroup/", kGroup);
  se.num_vcpus = vcpus;
  se.memory_mb = memory_mb;
  se.disk_gb = disk_gb;
  se.enable_state = "SE_STATE_ENABLED";
  se.oper_state = vcpus == 0 ? "" : "OPER_UP";
  se.reboot_pending = reboot_pending;
  return se;
}

const Json kSettings = {{"vcpus_per_se", 5}, {"memory_per_se", 10240}, {"disk_per_se", 20}};

TEST(SesViewTest, EachSeWithItsShapeStatesAndMatch) {
  const GroupSes ses = MatchListed(
      {Se("c", 4, 8192, 20), Se("a", 5, 10240, 20), Se("b", 5, 10240, 20, /*reboot_pending=*/true)},
      kGroup, kSettings);
  const Json list = RunningSesJson(ses);
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0], Json::parse(R"({"uuid": "se-a", "name": "a", "vcpus": 5, "memory_mb": 10240,
      "disk_gb": 20, "enable_state": "SE_STATE_ENABLED", "oper_state": "OPER_UP",
      "matches": true, "why": null, "fields": []})"));
  EXPECT_EQ(list[1]["matches"], false);
  EXPECT_EQ(list[1]["why"], "after-se-reboot");
  EXPECT_EQ(list[1]["fields"], Json::array());
  EXPECT_EQ(list[2]["why"], "new-ses-only");
  EXPECT_EQ(list[2]["fields"], Json::parse(R"(["vcpus_per_se", "memory_per_se"])"));
  EXPECT_EQ(MatchText(ses, ses.running[0]), "matches the settings");
  EXPECT_EQ(MatchText(ses, ses.running[1]),
            "behind the settings: after-se-reboot (the Controller reports a reboot pending)");
  EXPECT_EQ(MatchText(ses, ses.running[2]),
            "behind the settings: new-ses-only (vcpus_per_se, memory_per_se)");
  EXPECT_EQ(ShapeText(ses.running[2]), "4 vCPUs, 8,192 MB, 20 GB disk");
}

TEST(SesViewTest, UnknownSizesAndStatesAreNullAndNeverLag) {
  const GroupSes ses = MatchListed({Se("x", 0, 0, 0)}, kGroup, kSettings);
  const Json se = RunningSeJson(ses, ses.running[0]);
  EXPECT_TRUE(se["vcpus"].is_null());
  EXPECT_TRUE(se["disk_gb"].is_null());
  EXPECT_TRUE(se["oper_state"].is_null());
  EXPECT_EQ(se["matches"], true);
  EXPECT_EQ(ShapeText(ses.running[0]), "size unknown");
  // An SE that is not among the running SEs matches nothing either way.
  EXPECT_TRUE(SeMatchJson(ses, "se-none")["matches"].is_null());
}

TEST(SesViewTest, TheSummaryReadBackAndMatchedAgainGivesTheSameSummary) {
  const GroupSes ses =
      MatchListed({Se("c", 4, 8192, 20), Se("a", 5, 10240, 20)}, kGroup, kSettings);
  const Json summary = ServiceEnginesSummaryJson(ses);
  EXPECT_EQ(summary["running"], 2);
  EXPECT_EQ(summary["matching"], 1);
  EXPECT_EQ(summary["lagging"][0]["name"], "c");
  absl::StatusOr<std::vector<RunningSe>> back = RunningSesFromSummaryJson(summary, kSettings);
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[1].name, "SE #1");
  EXPECT_EQ((*back)[1].vcpus, 5);  // the matching SE at the settings it matched
  const GroupSes again = MatchSettings(*back, kSettings, RebootWait{});
  EXPECT_EQ(ServiceEnginesSummaryJson(again), summary);
  // A plan that raises vcpus_per_se to 6: both SEs lag now.
  Json raised = kSettings;
  raised["vcpus_per_se"] = 6;
  EXPECT_EQ(MatchSettings(*back, raised, RebootWait{}).lagging.size(), 2u);
}

TEST(SesViewTest, ASummaryOfAnotherShapeNamesTheMember) {
  const auto error = [](const Json& j) {
    return std::string(RunningSesFromSummaryJson(j, kSettings).status().message());
  };
  EXPECT_EQ(error(Json::array()), "service_engines: want an object");
  EXPECT_EQ(error(Json::parse(R"({"running": 1, "matching": 1.5})")),
            "service_engines.matching: want a whole number");
  EXPECT_EQ(error(Json::parse(R"({"running": 2, "matching": 0, "lagging": [{"name": "a",
      "why": "new-ses-only", "vcpus": "4", "memory_mb": 1}]})")),
            "service_engines.lagging[0].vcpus: want a whole number");
  EXPECT_EQ(error(Json::parse(R"({"running": 1, "matching": 0, "lagging": [{"name": "a",
      "why": "soon", "vcpus": 4, "memory_mb": 1}]})")),
            "service_engines.lagging[0].why: want new-ses-only or after-se-reboot, got \"soon\"");
  EXPECT_EQ(error(Json::parse(R"({"running": 3, "matching": 1, "lagging": []})")),
            "service_engines: running (3) is not matching (1) plus the lagging SEs (0)");
}

}  // namespace
}  // namespace nsxalb::segroup::lifecycle
