// Unit tests of the reads a roll's plan makes before any write: the upgrade status
// (upgrade_status.h, Client::GetUpgradeStatus: decode, unfinished states, 404 as unknown,
// paging) and where a group's virtual services sit (se_inventory.h,
// Client::ListServiceEnginePlacements: decode, the group filter, paging), against the scripted
// transport and the fake clock.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "plugin/controller/se_inventory.h"
#include "plugin/controller/upgrade_status.h"
#include "tests/controller/fake_clock.h"
#include "tests/controller/fake_transport.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::controller {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Json = nlohmann::json;

constexpr char kUpgrade[] = "/api/upgradestatusinfo?page_size=200";
constexpr char kInventory[] =
    "/api/serviceengine-inventory/?page_size=200&refers_to=serviceenginegroup%3Aseg-1"
    "&include_name=true";

Json Node(const std::string& uuid, const std::string& name, const std::string& type,
          const std::string& state, bool system = false) {
  Json j = {{"uuid", uuid},
            {"name", name},
            {"node_type", type},
            {"state", {{"state", state}}},
            {"upgrade_ops", "UPGRADE"},
            {"version", "22.1.3"}};
  if (system) j["system"] = true;
  return j;
}

// A page of `results` (a vector, not a braced Json: `{x}` of one object is that object, not an
// array of it, under clang).
Json Page(const std::vector<Json>& results, const std::string& next = "") {
  Json list = Json::array();
  for (const Json& r : results) list.push_back(r);
  Json page = {{"count", results.size()}, {"results", std::move(list)}};
  if (!next.empty()) page["next"] = next;
  return page;
}

Json Inventory(const std::string& uuid, const std::string& group, Json vs_refs) {
  return {{"uuid", uuid},
          {"url", "https://ctrl.example/api/serviceengine-inventory/" + uuid},
          {"config",
           {{"uuid", uuid},
            {"name", uuid + "-name"},
            {"se_group_ref", "https://ctrl.example/api/serviceenginegroup/" + group + "#web"},
            {"enable_state", "SE_STATE_ENABLED"},
            {"vs_refs", std::move(vs_refs)}}},
          {"runtime", {{"oper_status", {{"state", "OPER_UP"}}}}}};
}

class PlacementReadsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fake_.Queue("POST", "/login", FakeTransport::LoginAnswer());
    fake_.Always("POST", "/logout", FakeTransport::Http(200));
  }
  void TearDown() override { EXPECT_THAT(fake_.unscripted(), IsEmpty()); }

  std::unique_ptr<Client> MakeClient() {
    ClientConfig c;
    c.controller = "ctrl.example";
    c.username = "admin";
    c.password = "Fake-Secret-Passw0rd";
    c.backoff_initial = absl::Milliseconds(10);
    c.backoff_max = absl::Milliseconds(50);
    ClientHooks hooks;
    hooks.clock = &clock_;
    hooks.jitter = [] { return 0.0; };
    hooks.transport = fake_.Factory();
    auto client = NewClient(c, std::move(hooks));
    EXPECT_THAT(client, IsOk());
    return client.ok() ? *std::move(client) : nullptr;
  }

  FakeClock clock_;
  FakeTransport fake_;
};

TEST(UpgradeStateTest, FinishedAndUnfinishedStates) {
  for (const char* done :
       {"", "UPGRADE_FSM_INIT", "UPGRADE_FSM_COMPLETED", "UPGRADE_FSM_ABORTED",
        "UPGRADE_PRE_CHECK_SUCCESS", "UPGRADE_PRE_CHECK_WARNING", "UPGRADE_PRE_CHECK_ERROR"}) {
    EXPECT_FALSE(UpgradeStateUnfinished(done)) << done;
  }
  for (const char* running :
       {"UPGRADE_FSM_STARTED", "UPGRADE_FSM_IN_PROGRESS", "UPGRADE_FSM_SE_UPGRADE_IN_PROGRESS",
        "UPGRADE_FSM_CONTROLLER_COMPLETED", "UPGRADE_FSM_SUSPENDED", "UPGRADE_FSM_ERROR",
        "UPGRADE_FSM_PAUSED", "UPGRADE_PRE_CHECK_IN_PROGRESS", "UPGRADE_FSM_SOMETHING_NEW"}) {
    EXPECT_TRUE(UpgradeStateUnfinished(running)) << running;
  }
}

TEST(UpgradeStateTest, DecodeNamesTheBadField) {
  Json bad = Node("cluster-1", "cluster", kUpgradeNodeControllerCluster, "UPGRADE_FSM_COMPLETED");
  bad["state"]["state"] = 3;
  EXPECT_THAT(DecodeUpgradeStatus({Node("x", "x", kUpgradeNodeSeGroup, ""), bad}),
              StatusIs(absl::StatusCode::kInternal, HasSubstr("upgradestatusinfo[1].state.state")));
  Json no_uuid = Node("", "cluster", kUpgradeNodeControllerCluster, "");
  EXPECT_THAT(DecodeUpgradeStatus({no_uuid}),
              StatusIs(absl::StatusCode::kInternal, HasSubstr("upgradestatusinfo[0].uuid")));
  EXPECT_THAT(DecodeUpgradeStatus({Json::array()}), StatusIs(absl::StatusCode::kInternal));
}

// Everything completed: known, nothing in progress.
TEST_F(PlacementReadsTest, UpgradeStatusAllCompleted) {
  fake_.Queue("GET", kUpgrade,
              FakeTransport::Http(
                  200, Page({Node("cluster-1", "cluster-0-1", kUpgradeNodeControllerCluster,
                                  "UPGRADE_FSM_COMPLETED"),
                             Node("seg-1", "web", kUpgradeNodeSeGroup, "UPGRADE_FSM_COMPLETED")})
                           .dump()));
  auto client = MakeClient();
  auto status = client->GetUpgradeStatus();
  ASSERT_THAT(status, IsOk());
  EXPECT_TRUE(status->known);
  EXPECT_FALSE(status->InProgress());
  EXPECT_FALSE(status->SeGroupUpgrading("seg-1"));
  EXPECT_EQ(status->nodes.size(), 2u);
  EXPECT_EQ(status->Describe(), "no upgrade");
}

// A system upgrade (the cluster's entry, system: true) counts for every group; the pages are
// followed.
TEST_F(PlacementReadsTest, SystemUpgradeAcrossPages) {
  fake_.Queue("GET", kUpgrade,
              FakeTransport::Http(
                  200, Page({Node("cluster-1", "cluster-0-1", kUpgradeNodeControllerCluster,
                                  "UPGRADE_FSM_IN_PROGRESS", true)},
                            "https://ctrl.example/api/upgradestatusinfo?page_size=200&page=2")
                           .dump()));
  fake_.Queue(
      "GET", "/api/upgradestatusinfo?page_size=200&page=2",
      FakeTransport::Http(
          200, Page({Node("seg-1", "web", kUpgradeNodeSeGroup, "UPGRADE_FSM_INIT")}).dump()));
  auto client = MakeClient();
  auto status = client->GetUpgradeStatus();
  ASSERT_THAT(status, IsOk());
  EXPECT_TRUE(status->SystemUpgrading());
  EXPECT_TRUE(status->ControllerUpgrading());
  EXPECT_TRUE(status->SeGroupUpgrading("seg-1"));
  EXPECT_TRUE(status->SeGroupUpgrading("seg-other"));
  EXPECT_THAT(status->SeGroupsUpgrading(), IsEmpty());
  EXPECT_EQ(status->Describe(), "a system upgrade (UPGRADE_FSM_IN_PROGRESS)");
}

// One group's SE upgrade, suspended on an error: that group only.
TEST_F(PlacementReadsTest, OneSeGroupUpgrading) {
  fake_.Queue(
      "GET", kUpgrade,
      FakeTransport::Http(
          200, Page({Node("cluster-1", "c", kUpgradeNodeControllerCluster, "UPGRADE_FSM_COMPLETED"),
                     Node("seg-1", "web", kUpgradeNodeSeGroup, "UPGRADE_FSM_SUSPENDED"),
                     Node("seg-2", "api", kUpgradeNodeSeGroup, "UPGRADE_FSM_COMPLETED")})
                   .dump()));
  auto client = MakeClient();
  auto status = client->GetUpgradeStatus();
  ASSERT_THAT(status, IsOk());
  EXPECT_TRUE(status->InProgress());
  EXPECT_FALSE(status->SystemUpgrading());
  EXPECT_TRUE(status->SeGroupUpgrading("seg-1"));
  EXPECT_FALSE(status->SeGroupUpgrading("seg-2"));
  ASSERT_EQ(status->SeGroupsUpgrading().size(), 1u);
  EXPECT_EQ(status->SeGroupsUpgrading()[0].name, "web");
  EXPECT_EQ(status->Describe(), "the upgrade of SE group web (UPGRADE_FSM_SUSPENDED)");
}

// A Controller without the API: known = false, not an error.
TEST_F(PlacementReadsTest, UpgradeStatusNotFoundIsUnknown) {
  fake_.Queue("GET", kUpgrade, FakeTransport::Http(404, R"({"error":"Not found"})"));
  auto client = MakeClient();
  auto status = client->GetUpgradeStatus();
  ASSERT_THAT(status, IsOk());
  EXPECT_FALSE(status->known);
  EXPECT_FALSE(status->InProgress());
  EXPECT_THAT(status->Describe(), HasSubstr("unknown"));
}

TEST_F(PlacementReadsTest, UpgradeStatusForbiddenIsAnError) {
  fake_.Queue("GET", kUpgrade, FakeTransport::Http(403, R"({"error":"denied"})"));
  auto client = MakeClient();
  EXPECT_THAT(client->GetUpgradeStatus(), StatusIs(absl::StatusCode::kPermissionDenied));
}

// The inventory: each SE with its virtual services' uuids and names; SEs of another group (a
// Controller that ignored refers_to) are left out; pages are followed.
TEST_F(PlacementReadsTest, PlacementsOfAGroup) {
  Json first =
      Page({Inventory("se-1", "seg-1",
                      {"https://ctrl.example/api/virtualservice/virtualservice-a#web-vs-1",
                       "https://ctrl.example/api/virtualservice/virtualservice-b#web-vs-2"}),
            Inventory("se-x", "seg-2", Json::array())},
           "https://ctrl.example/api/serviceengine-inventory/?page_size=200&refers_to="
           "serviceenginegroup%3Aseg-1&include_name=true&page=2");
  Json second = Page({Inventory("se-2", "seg-1", Json::array())});
  second["results"][0]["config"].erase("enable_state");
  second["results"][0].erase("runtime");
  fake_.Queue("GET", kInventory, FakeTransport::Http(200, first.dump()));
  fake_.Queue("GET",
              "/api/serviceengine-inventory/?page_size=200&refers_to=serviceenginegroup%3Aseg-1"
              "&include_name=true&page=2",
              FakeTransport::Http(200, second.dump()));
  auto client = MakeClient();
  auto placements = client->ListServiceEnginePlacements(
      "https://ctrl.example/api/serviceenginegroup/seg-1#web", "");
  ASSERT_THAT(placements, IsOk());
  ASSERT_EQ(placements->size(), 2u);
  const ServiceEnginePlacement& se1 = (*placements)[0];
  EXPECT_EQ(se1.uuid, "se-1");
  EXPECT_EQ(se1.name, "se-1-name");
  EXPECT_EQ(se1.enable_state, "SE_STATE_ENABLED");
  EXPECT_EQ(se1.oper_state, "OPER_UP");
  ASSERT_EQ(se1.virtual_services.size(), 2u);
  EXPECT_EQ(se1.virtual_services[0].uuid, "virtualservice-a");
  EXPECT_EQ(se1.virtual_services[0].name, "web-vs-1");
  EXPECT_EQ(se1.virtual_services[1].name, "web-vs-2");
  const ServiceEnginePlacement& se2 = (*placements)[1];
  EXPECT_EQ(se2.uuid, "se-2");
  EXPECT_EQ(se2.enable_state, "");
  EXPECT_EQ(se2.oper_state, "");
  EXPECT_THAT(se2.virtual_services, IsEmpty());
}

TEST_F(PlacementReadsTest, PlacementOfTheWrongShapeIsInternal) {
  Json page = Page({Inventory("se-1", "seg-1", Json::array({7}))});
  fake_.Queue("GET", kInventory, FakeTransport::Http(200, page.dump()));
  auto client = MakeClient();
  EXPECT_THAT(client->ListServiceEnginePlacements("seg-1", ""),
              StatusIs(absl::StatusCode::kInternal, HasSubstr("config.vs_refs")));
}

TEST(SeInventoryTest, DecodeChecksTheFields) {
  Json ok = Inventory("se-1", "seg-1", {"/api/virtualservice/virtualservice-a"});
  auto se = ToServiceEnginePlacement(ok, "GET inventory");
  ASSERT_THAT(se, IsOk());
  ASSERT_EQ(se->virtual_services.size(), 1u);
  EXPECT_EQ(se->virtual_services[0].uuid, "virtualservice-a");
  EXPECT_EQ(se->virtual_services[0].name, "");
  Json no_uuid = ok;
  no_uuid.erase("uuid");
  no_uuid["config"].erase("uuid");
  EXPECT_THAT(ToServiceEnginePlacement(no_uuid, "GET inventory"),
              StatusIs(absl::StatusCode::kInternal, HasSubstr("uuid")));
  Json bad_oper = ok;
  bad_oper["runtime"]["oper_status"]["state"] = 1;
  EXPECT_THAT(ToServiceEnginePlacement(bad_oper, "GET inventory"),
              StatusIs(absl::StatusCode::kInternal, HasSubstr("runtime.oper_status.state")));
  Json other_type = ok;
  other_type["config"]["vs_refs"] = {"https://ctrl.example/api/pool/pool-1"};
  EXPECT_THAT(ToServiceEnginePlacement(other_type, "GET inventory"),
              StatusIs(absl::StatusCode::kInternal));
}

TEST_F(PlacementReadsTest, PlacementsNeedAGroup) {
  auto client = MakeClient();
  EXPECT_THAT(client->ListServiceEnginePlacements("", ""),
              StatusIs(absl::StatusCode::kInvalidArgument));
}

}  // namespace
}  // namespace nsxalb::controller
