// The emulator's SE lifecycle over real HTTPS on loopback: the listing contract the provider
// relies on (join_subresources=runtime with fields=, refers_to), the runtime subresource, PUT and
// PATCH of enable_state, DELETE (409, then 204), reboot, the inventory and virtual services, the
// control endpoints (virtual services, clouds, timing, timeline, lifecycle faults), and a replay
// of the vendor's alert script se_grp_cleanup_old_spec_se.
#include <unistd.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/emulator/api_client.h"
#include "tests/support/emulator_process.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::testing {
namespace {

using ::nlohmann::json;
using ::nsxalb::testing::IsOk;
using ::testing::HasSubstr;
using ::testing::SizeIs;

class EmulatorLifecycleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    EmulatorProcess::Options o;
    o.extra_args = {"--se-boot-ms", "100", "--se-migration-ms", "100"};
    absl::StatusOr<std::unique_ptr<EmulatorProcess>> p = EmulatorProcess::Start(o);
    ASSERT_THAT(p, IsOk());
    emu_ = std::move(*p);
    api_ = std::make_unique<ApiClient>(*emu_);
    ASSERT_EQ(api_->Login().status, 200);
  }

  std::string Group(const std::string& name, const json& fields = json::object()) {
    json body = fields;
    body["name"] = name;
    ApiResponse r = api_->Send("POST", "/api/serviceenginegroup", body);
    EXPECT_EQ(r.status, 201) << r.body;
    return r.json.value("uuid", "");
  }
  std::vector<std::string> Ses(const std::string& group, int count) {
    absl::StatusOr<json> r =
        emu_->Control("POST", "serviceengines", {{"se_group_uuid", group}, {"count", count}});
    EXPECT_THAT(r, IsOk());
    return r.ok() ? (*r)["uuids"].get<std::vector<std::string>>() : std::vector<std::string>{};
  }
  // Polls an SE's runtime (at most `tries` times, 50 ms apart) until its oper state is `state`.
  bool WaitFor(const std::string& se, const std::string& state, int tries = 100) {
    for (int i = 0; i < tries; ++i) {
      ApiResponse r = api_->Send("GET", absl::StrCat("/api/serviceengine/", se, "/runtime"));
      if (r.status == 200 && r.json["oper_status"]["state"] == state) return true;
      usleep(50 * 1000);
    }
    return false;
  }

  std::unique_ptr<EmulatorProcess> emu_;
  std::unique_ptr<ApiClient> api_;
};

TEST_F(EmulatorLifecycleTest, TheListingJoinsTheRuntimeWithFields) {
  const std::string g = Group("web");
  const std::vector<std::string> ses = Ses(g, 2);
  ASSERT_THAT(emu_->Control("POST", "virtualservices", {{"se_group", "web"}, {"count", 1}}),
              IsOk());
  ApiResponse r =
      api_->Send("GET",
                 "/api/serviceengine?fields=uuid,name,se_group_ref,resources,enable_state"
                 "&join_subresources=runtime&page_size=200");
  ASSERT_EQ(r.status, 200) << r.body;
  ASSERT_EQ(r.json["count"], 2);
  for (const json& se : r.json["results"]) {
    EXPECT_EQ(se["enable_state"], "SE_STATE_ENABLED");
    EXPECT_TRUE(se["resources"].contains("num_vcpus"));
    EXPECT_THAT(se["se_group_ref"].get<std::string>(), HasSubstr(g));
    EXPECT_EQ(se["runtime"]["oper_status"]["state"], "OPER_UP") << se.dump();
    EXPECT_EQ(se["runtime"]["se_grp_reboot_pending"], false);
    EXPECT_EQ(se["runtime"]["migrate_state"], "SE_MIGRATE_STATE_IDLE");
    EXPECT_FALSE(se.contains("cloud_ref"));  // fields= still applies
  }
  // Without the join there is no runtime; refers_to keeps working with it.
  r = api_->Send("GET", "/api/serviceengine?fields=uuid,name");
  EXPECT_FALSE(r.json["results"][0].contains("runtime"));
  const std::string other = Group("other");
  Ses(other, 1);
  r = api_->Send("GET", absl::StrCat("/api/serviceengine?join_subresources=runtime&refers_to="
                                     "serviceenginegroup:",
                                     g));
  ASSERT_EQ(r.json["count"], 2);
  EXPECT_TRUE(r.json["results"][1].contains("runtime"));
  // The runtime alone, with and without the trailing slash; 404 for an unknown SE.
  for (const char* tail : {"/runtime", "/runtime/"}) {
    r = api_->Send("GET", absl::StrCat("/api/serviceengine/", ses[0], tail));
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json["oper_status"]["state"], "OPER_UP");
  }
  EXPECT_EQ(api_->Send("GET", "/api/serviceengine/se-nope/runtime").status, 404);
  // A group change that needs a reboot shows at once.
  ApiResponse group = api_->Send("GET", absl::StrCat("/api/serviceenginegroup/", g));
  json changed = group.json;
  changed["num_dispatcher_cores"] = 2;
  ASSERT_EQ(api_->Send("PUT", absl::StrCat("/api/serviceenginegroup/", g), changed).status, 200);
  r = api_->Send("GET", absl::StrCat("/api/serviceengine/", ses[0], "?join_subresources=runtime"));
  EXPECT_EQ(r.json["runtime"]["se_grp_reboot_pending"], true);
  // The inventory lists the SE's virtual services.
  r = api_->Send("GET", absl::StrCat("/api/serviceengine-inventory/", ses[0]));
  ASSERT_EQ(r.status, 200) << r.body;
  ASSERT_THAT(r.json["config"]["vs_refs"], SizeIs(1));
  EXPECT_THAT(r.json["config"]["vs_refs"][0].get<std::string>(), HasSubstr("/api/virtualservice/"));
  r = api_->Send("GET", "/api/virtualservice");
  ASSERT_EQ(r.json["count"], 1);
  EXPECT_EQ(api_->Send("GET", r.json["results"][0]["url"].get<std::string>().substr(
                                  api_->base_url().size()))
                .status,
            200);
}

// The calls of the vendor's alert script se_grp_cleanup_old_spec_se (embedded in
// vmware/terraform-provider-avi avi/data_source_avi_alertscriptconfig_test.go), as Avi's Python
// SDK sends them: list the group's SEs, PUT each whole SE back disabled for placement, then
// disabled, then poll its runtime until OPER_DISABLED.
TEST_F(EmulatorLifecycleTest, ReplaysTheVendorsAlertScript) {
  const std::string g = Group("checkout", {{"max_vs_per_se", 2}});
  const std::vector<std::string> old = Ses(g, 2);
  ASSERT_THAT(emu_->Control("POST", "virtualservices", {{"se_group", g}, {"count", 3}}), IsOk());
  ASSERT_THAT(emu_->Control("POST", "timeline/reset"), IsOk());
  ApiResponse list = api_->Send(
      "GET", absl::StrCat("/api/serviceengine?page_size=1000&refers_to=serviceenginegroup:", g));
  ASSERT_EQ(list.status, 200) << list.body;
  ASSERT_EQ(list.json["results"].size(), 2u);
  for (const json& se : list.json["results"]) {
    const std::string path = absl::StrCat("/api/serviceengine/", se["uuid"].get<std::string>());
    json obj = se;
    obj["enable_state"] = "SE_STATE_DISABLED_FOR_PLACEMENT";
    ApiResponse put = api_->Send("PUT", path, obj);
    ASSERT_EQ(put.status, 200) << put.body;
    obj = put.json;
    obj["enable_state"] = "SE_STATE_DISABLED";
    put = api_->Send("PUT", path, obj);
    ASSERT_EQ(put.status, 200) << put.body;
    EXPECT_EQ(put.json["enable_state"], "SE_STATE_DISABLED");
  }
  for (const std::string& se : old) EXPECT_TRUE(WaitFor(se, "OPER_DISABLED")) << se;
  // The virtual services went to new SEs at the group's settings; none was ever without one.
  absl::StatusOr<json> timeline = emu_->Control("GET", "timeline");
  ASSERT_THAT(timeline, IsOk());
  EXPECT_EQ((*timeline)["summary"]["unplaced_instants"], json::array()) << timeline->dump();
  EXPECT_EQ((*timeline)["summary"]["max_ses_out"], 2);  // the script disables all at once
  absl::StatusOr<json> vss = emu_->Control("GET", "virtualservices");
  ASSERT_THAT(vss, IsOk());
  for (const json& vs : (*vss)["results"]) {
    ASSERT_THAT(vs["se_uuids"], SizeIs(1));
    EXPECT_NE(vs["se_uuids"][0], old[0]);
    EXPECT_NE(vs["se_uuids"][0], old[1]);
  }
  // The disabled SEs can go now.
  for (const std::string& se : old) {
    EXPECT_EQ(api_->Send("DELETE", absl::StrCat("/api/serviceengine/", se)).status, 204);
    EXPECT_EQ(api_->Send("GET", absl::StrCat("/api/serviceengine/", se, "/runtime")).status, 404);
  }
}

// page_size above 200 (the swagger's range) is answered in pages of 200, not refused.
TEST_F(EmulatorLifecycleTest, APageSizeOver200GivesPagesOf200) {
  const std::string g = Group("big");
  Ses(g, 201);
  ApiResponse r = api_->Send(
      "GET", absl::StrCat("/api/serviceengine?page_size=1000&refers_to=serviceenginegroup:", g));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["count"], 201);
  EXPECT_THAT(r.json["results"], SizeIs(200));
  EXPECT_THAT(r.json.value("next", ""), HasSubstr("page=2"));
}

TEST_F(EmulatorLifecycleTest, DeleteRebootAndPatchOverHttps) {
  const std::string g = Group("web");
  const std::vector<std::string> ses = Ses(g, 2);
  ASSERT_THAT(emu_->Control("POST", "virtualservices", {{"se_group", "web"}, {"count", 1}}),
              IsOk());
  const std::string path = absl::StrCat("/api/serviceengine/", ses[0]);
  ApiResponse r = api_->Send("DELETE", path);
  EXPECT_EQ(r.status, 409) << r.body;
  EXPECT_THAT(r.json.value("error", ""), HasSubstr("web-vs-1"));
  EXPECT_EQ(api_->Send("DELETE", absl::StrCat("/api/serviceengine/", ses[1])).status, 204);
  // PATCH of enable_state; a bad value is 400 naming the field.
  r = api_->Send("PATCH", path, {{"replace", {{"enable_state", "SE_STATE_OFF"}}}});
  EXPECT_EQ(r.status, 400);
  EXPECT_THAT(r.json.value("error", ""), HasSubstr("enable_state"));
  r = api_->Send("PATCH", path,
                 {{"replace", {{"enable_state", "SE_STATE_DISABLED_FOR_PLACEMENT"}}}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["enable_state"], "SE_STATE_DISABLED_FOR_PLACEMENT");
  // Reboot: down, then up again.
  r = api_->Send("POST", absl::StrCat(path, "/reboot"), json::object());
  ASSERT_EQ(r.status, 200) << r.body;
  r = api_->Send("GET", absl::StrCat(path, "/runtime"));
  EXPECT_EQ(r.json["oper_status"]["state"], "OPER_DOWN");
  EXPECT_TRUE(WaitFor(ses[0], "OPER_UP"));
  // Counted like every API request.
  absl::StatusOr<json> counters = emu_->Control("GET", "counters");
  ASSERT_THAT(counters, IsOk());
  EXPECT_EQ((*counters)["requests"]["DELETE /api/serviceengine/{uuid}"], 2);
  EXPECT_EQ((*counters)["requests"]["POST /api/serviceengine/{uuid}/reboot"], 1);
}

TEST_F(EmulatorLifecycleTest, ControlEndpointsForCloudsTimingAndFaults) {
  absl::StatusOr<json> cloud =
      emu_->Control("POST", "clouds", {{"name", "manual"}, {"vtype", "CLOUD_NONE"}});
  ASSERT_THAT(cloud, IsOk());
  EXPECT_FALSE(emu_->Control("POST", "clouds", {{"name", "manual"}}).ok());
  EXPECT_FALSE(emu_->Control("POST", "clouds", {{"name", "x"}, {"vtype", "AWS"}}).ok());
  const std::string g = Group(
      "web", {{"cloud_ref", absl::StrCat("/api/cloud/", (*cloud)["uuid"].get<std::string>())}});
  ASSERT_THAT(emu_->Control("POST", "virtualservices", {{"se_group", g}, {"count", 1}}), IsOk());
  absl::StatusOr<json> vss = emu_->Control("GET", "virtualservices");
  ASSERT_THAT(vss, IsOk());
  EXPECT_THAT((*vss)["results"][0]["waiting"].get<std::string>(), HasSubstr("no write access"));
  EXPECT_EQ(api_->Send("GET", absl::StrCat("/api/serviceengine?refers_to=serviceenginegroup:", g))
                .json["count"],
            0);
  EXPECT_FALSE(emu_->Control("POST", "virtualservices", {{"se_group", "web"}, {"count", 0}}).ok());
  absl::StatusOr<json> timing = emu_->Control("POST", "timing", {{"minute_ms", 250}});
  ASSERT_THAT(timing, IsOk());
  EXPECT_EQ((*timing)["minute_ms"], 250);
  EXPECT_EQ((*timing)["boot_ms"], 100);
  EXPECT_FALSE(emu_->Control("POST", "timing", {{"boot_ms", -1}}).ok());
  absl::StatusOr<json> faults =
      emu_->Control("POST", "faults", {{"migrate_fail_next", 1}, {"se_never_up_next", 2}});
  ASSERT_THAT(faults, IsOk());
  EXPECT_EQ((*faults)["se_never_up_next"], 2);
}

// Readers list and read runtimes while a writer disables SEs and places virtual services: every
// answer is whole and the migrations end (run under ThreadSanitizer in CI, label tsan).
TEST_F(EmulatorLifecycleTest, ConcurrentReadersAndWriters) {
  const std::string g = Group("busy", {{"max_vs_per_se", 3}});
  const std::vector<std::string> ses = Ses(g, 4);
  ASSERT_THAT(emu_->Control("POST", "virtualservices", {{"se_group", g}, {"count", 6}}), IsOk());
  std::atomic<int> bad{0};
  std::vector<std::thread> readers;
  readers.reserve(3);
  for (int t = 0; t < 3; ++t) {
    readers.emplace_back([this, &bad, &ses, t] {
      ApiClient client(*emu_);
      if (client.Login().status != 200) return void(++bad);
      for (int i = 0; i < 30; ++i) {
        ApiResponse r = client.Send(
            "GET", i % 2 == 0 ? "/api/serviceengine?join_subresources=runtime&page_size=200"
                              : absl::StrCat("/api/serviceengine/", ses[(i + t) % 4], "/runtime"));
        if (r.status != 200 && r.status != 404) ++bad;
        if (r.status == 200 && r.json.is_null()) ++bad;
      }
    });
  }
  for (int i = 0; i < 2; ++i) {
    const std::string path = absl::StrCat("/api/serviceengine/", ses[i]);
    EXPECT_EQ(
        api_->Send("PATCH", path, {{"replace", {{"enable_state", "SE_STATE_DISABLED"}}}}).status,
        200);
    EXPECT_THAT(emu_->Control("POST", "virtualservices", {{"se_group", g}, {"count", 1}}), IsOk());
  }
  for (std::thread& t : readers) t.join();
  EXPECT_EQ(bad.load(), 0);
  for (int i = 0; i < 2; ++i) EXPECT_TRUE(WaitFor(ses[i], "OPER_DISABLED")) << ses[i];
  absl::StatusOr<json> timeline = emu_->Control("GET", "timeline");
  ASSERT_THAT(timeline, IsOk());
  EXPECT_EQ((*timeline)["summary"]["unplaced_instants"], json::array());
}

// Issue 44's additions over HTTPS: the inventory's vs_refs named with include_name and filtered
// by refers_to, fault delete_hosting_se through the control endpoint, the legacy
// active/standby refusal in the Controller's error shape, and the upgrade status with the
// placement changes it refuses.
TEST_F(EmulatorLifecycleTest, InventoryLegacyHaDeleteHostingSeAndUpgrades) {
  const std::string web = Group("web");
  const std::string other = Group("other");
  const std::vector<std::string> ses = Ses(web, 2);
  Ses(other, 1);
  ASSERT_THAT(emu_->Control("POST", "virtualservices", {{"se_group", "web"}, {"count", 2}}),
              IsOk());
  ApiResponse r = api_->Send(
      "GET", absl::StrCat("/api/serviceengine-inventory/?refers_to=serviceenginegroup:", web,
                          "&include_name=true&page_size=1"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["count"], 2);
  ASSERT_THAT(r.json["results"], SizeIs(1));
  EXPECT_TRUE(r.json.contains("next"));
  const json& config = r.json["results"][0]["config"];
  ASSERT_THAT(config["vs_refs"], SizeIs(2));  // packed: both on the first SE
  EXPECT_THAT(config["vs_refs"][0].get<std::string>(), HasSubstr("#web-vs-1"));
  EXPECT_THAT(config["se_group_ref"].get<std::string>(), HasSubstr("#web"));

  // Legacy active/standby: 400 {"error": ...}.
  const std::string legacy = Group("legacy", {{"ha_mode", "HA_MODE_LEGACY_ACTIVE_STANDBY"}});
  const std::string legacy_se = Ses(legacy, 1)[0];
  r = api_->Send("PATCH", absl::StrCat("/api/serviceengine/", legacy_se),
                 {{"replace", {{"enable_state", "SE_STATE_DISABLED"}}}});
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_THAT(r.json.value("error", ""),
              HasSubstr("Migration is not supported on a legacy active/standby SE group"));

  // The upgrade status: the Controller's entry and one per SE group, all completed.
  r = api_->Send("GET", "/api/upgradestatusinfo");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["results"][0]["node_type"], "NODE_CONTROLLER_CLUSTER");
  int groups = 0;
  for (const json& e : r.json["results"]) {
    EXPECT_EQ(e["state"]["state"], "UPGRADE_FSM_COMPLETED");
    groups += e["node_type"] == "NODE_SE_GROUP";
  }
  EXPECT_EQ(groups, r.json["count"].get<int>() - 1);
  ASSERT_THAT(
      emu_->Control("POST", "upgrade", {{"se_groups", {{"web", "UPGRADE_FSM_IN_PROGRESS"}}}}),
      IsOk());
  r = api_->Send("GET", absl::StrCat("/api/upgradestatusinfo/", web));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["state"]["state"], "UPGRADE_FSM_IN_PROGRESS");
  // While the group upgrades, its SEs cannot be disabled, deleted or rebooted.
  const std::string path = absl::StrCat("/api/serviceengine/", ses[0]);
  r = api_->Send("PATCH", path, {{"replace", {{"enable_state", "SE_STATE_DISABLED"}}}});
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_THAT(r.json.value("error", ""), HasSubstr("upgrade is in progress"));
  EXPECT_EQ(api_->Send("POST", absl::StrCat(path, "/reboot"), json::object()).status, 400);
  ASSERT_THAT(emu_->Control("POST", "upgrade", {{"reset", true}}), IsOk());
  EXPECT_FALSE(emu_->Control("POST", "upgrade", {{"system", "ALMOST"}}).ok());

  // Fault delete_hosting_se: the DELETE of the SE hosting both virtual services succeeds; the
  // timeline shows them unplaced (no other SE had them).
  ASSERT_THAT(emu_->Control("POST", "timeline/reset"), IsOk());
  ASSERT_THAT(emu_->Control("POST", "faults", {{"delete_hosting_se", true}}), IsOk());
  EXPECT_EQ(api_->Send("DELETE", path).status, 204);
  absl::StatusOr<json> timeline = emu_->Control("GET", "timeline");
  ASSERT_THAT(timeline, IsOk());
  EXPECT_THAT((*timeline)["summary"]["unplaced_instants"], SizeIs(2));
  ASSERT_THAT(emu_->Control("DELETE", "faults"), IsOk());
}

}  // namespace
}  // namespace nsxalb::testing
