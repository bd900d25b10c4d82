// Unit tests of the client's Service Engine operations (se_operations.h through client.h):
// enable_state by a PUT of the whole object read back (412 starts over, no write when already
// so), the runtime's members, DELETE (404 success, 409 naming the virtual services), reboot (not
// retried once it may have been sent), against the scripted transport and the fake clock.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "plugin/controller/errors.h"
#include "tests/controller/fake_clock.h"
#include "tests/controller/fake_transport.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::controller {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Json = nlohmann::json;

constexpr char kSe[] = "/api/serviceengine/se-1";
constexpr char kRuntime[] = "/api/serviceengine/se-1/runtime";
constexpr char kReboot[] = "/api/serviceengine/se-1/reboot";

// An SE object with `enable_state`, a field the client does not manage, and `_last_modified`.
Json Se(const std::string& enable_state, const std::string& last_modified = "100") {
  return {{"uuid", "se-1"},
          {"name", "checkout-se-1"},
          {"url", "https://ctrl.example/api/serviceengine/se-1"},
          {"se_group_ref", "https://ctrl.example/api/serviceenginegroup/seg-1"},
          {"enable_state", enable_state},
          {"availability_zone", "az-2"},
          {"resources", {{"num_vcpus", 4}, {"memory", 8192}, {"disk", 25}}},
          {"_last_modified", last_modified}};
}

// "METHOD path" of each request but the session's (login, logout).
std::vector<std::string> LinesWithoutSession(const std::vector<FakeTransport::Request>& requests) {
  std::vector<std::string> out;
  for (const auto& r : requests) {
    if (r.path == "/login" || r.path == "/logout") continue;
    out.push_back(absl::StrCat(r.method, " ", r.path));
  }
  return out;
}

class SeOperationsTest : public ::testing::Test {
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

// The whole object goes back, with the new enable_state and the _last_modified read: fields the
// client does not manage are kept.
TEST_F(SeOperationsTest, DisablePutsTheWholeObjectBack) {
  fake_.Queue("GET", kSe, FakeTransport::Http(200, Se("SE_STATE_ENABLED").dump()));
  fake_.Queue("PUT", kSe, FakeTransport::Http(200, Se("SE_STATE_DISABLED", "101").dump()));
  auto client = MakeClient();
  auto se = client->SetServiceEngineEnableState("se-1", kSeStateDisabled, "");
  ASSERT_THAT(se, IsOk());
  EXPECT_EQ(se->name, "checkout-se-1");
  EXPECT_EQ(se->num_vcpus, 4);
  EXPECT_EQ(se->body.value("enable_state", ""), "SE_STATE_DISABLED");
  const auto puts = fake_.requests("PUT", kSe);
  ASSERT_EQ(puts.size(), 1u);
  Json sent = Json::parse(puts[0].body);
  Json expected = Se("SE_STATE_DISABLED");
  EXPECT_EQ(sent, expected);
}

// An SE that has the state already is not written.
TEST_F(SeOperationsTest, NoWriteWhenTheStateIsAlreadySo) {
  fake_.Queue("GET", kSe, FakeTransport::Http(200, Se("SE_STATE_ENABLED").dump()));
  auto client = MakeClient();
  ASSERT_THAT(client->SetServiceEngineEnableState("se-1", kSeStateEnabled, ""), IsOk());
  EXPECT_THAT(fake_.requests("PUT", kSe), IsEmpty());
}

// A 412 (another writer in between) reads the SE again and writes over the new read, keeping the
// other writer's change; three 412s in a row are Aborted with nothing written.
TEST_F(SeOperationsTest, PreconditionFailedReadsAgain) {
  Json changed = Se("SE_STATE_ENABLED", "105");
  changed["availability_zone"] = "az-3";
  fake_.Queue("GET", kSe, FakeTransport::Http(200, Se("SE_STATE_ENABLED").dump()));
  fake_.Queue("GET", kSe, FakeTransport::Http(200, changed.dump()));
  fake_.Queue("PUT", kSe, FakeTransport::Http(412, R"({"error":"Concurrent update"})"));
  fake_.Queue("PUT", kSe, FakeTransport::Http(200, ""));
  auto client = MakeClient();
  auto se = client->SetServiceEngineEnableState("se-1", kSeStateDisabled, "");
  ASSERT_THAT(se, IsOk());
  const auto puts = fake_.requests("PUT", kSe);
  ASSERT_EQ(puts.size(), 2u);
  Json second = Json::parse(puts[1].body);
  EXPECT_EQ(second["availability_zone"], "az-3");
  EXPECT_EQ(second["_last_modified"], "105");
  EXPECT_EQ(second["enable_state"], "SE_STATE_DISABLED");
}

TEST_F(SeOperationsTest, PreconditionFailedEveryTimeIsAborted) {
  fake_.Always("GET", kSe, FakeTransport::Http(200, Se("SE_STATE_ENABLED").dump()));
  fake_.Always("PUT", kSe, FakeTransport::Http(412, R"({"error":"Concurrent update"})"));
  auto client = MakeClient();
  EXPECT_THAT(client->SetServiceEngineEnableState("se-1", kSeStateDisabled, ""),
              StatusIs(absl::StatusCode::kAborted, HasSubstr("nothing was written")));
  EXPECT_EQ(fake_.requests("PUT", kSe).size(), static_cast<size_t>(kUpdateAttempts));
}

TEST_F(SeOperationsTest, UnknownEnableStateIsRefusedWithoutARequest) {
  fake_.Always("GET", kSe, FakeTransport::Http(200, Se("SE_STATE_ENABLED").dump()));
  auto client = MakeClient();
  EXPECT_THAT(client->SetServiceEngineEnableState("se-1", "SE_STATE_OFF", ""),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("SE_STATE_OFF")));
  EXPECT_THAT(LinesWithoutSession(fake_.requests()), IsEmpty());
}

// A 503 on the PUT is retried by the client's rules (the PUT is idempotent).
TEST_F(SeOperationsTest, PutRetriedOnUnavailable) {
  fake_.Queue("GET", kSe, FakeTransport::Http(200, Se("SE_STATE_ENABLED").dump()));
  fake_.Queue("PUT", kSe, FakeTransport::Http(503, "", {{"retry-after", "2"}}));
  fake_.Queue("PUT", kSe, FakeTransport::Http(200, Se("SE_STATE_DISABLED").dump()));
  auto client = MakeClient();
  ASSERT_THAT(client->SetServiceEngineEnableState("se-1", kSeStateDisabled, ""), IsOk());
  EXPECT_THAT(clock_.sleeps(), ElementsAre(absl::Seconds(2)));
}

TEST_F(SeOperationsTest, RuntimeMembersAreRead) {
  Json runtime = {
      {"oper_status", {{"state", "OPER_DISABLING"}}},
      {"migrate_state", "MIGRATE_SE_STARTED"},
      {"se_grp_reboot_pending", true},
      {"vs_refs",
       {"https://ctrl.example/api/virtualservice/vs-1#shop", "/api/virtualservice/vs-2"}}};
  fake_.Queue("GET", kRuntime, FakeTransport::Http(200, runtime.dump()));
  auto client = MakeClient();
  auto r = client->GetServiceEngineRuntime("se-1", "");
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->oper_state, "OPER_DISABLING");
  EXPECT_EQ(r->migrate_state, "MIGRATE_SE_STARTED");
  EXPECT_TRUE(r->reboot_pending);
  EXPECT_THAT(r->virtual_services, ElementsAre("shop", "vs-2"));
}

// The runtime summary without vs_refs (as the swagger's ServiceEngineRuntimeSummary): the
// virtual services come from the SE inventory; a failed migration is read from migrate_state.
TEST_F(SeOperationsTest, RuntimeWithoutVirtualServicesReadsTheInventory) {
  Json runtime = {
      {"oper_status", {{"state", "OPER_UP"}, {"reason", {"MIGRATE_SE_FAILED: no room"}}}},
      {"migrate_state", "SE_MIGRATE_STATE_FINISHED_WITH_FAILURE"}};
  Json inventory = {
      {"uuid", "se-1"},
      {"config",
       {{"uuid", "se-1"}, {"vs_refs", {"https://ctrl.example/api/virtualservice/vs-1#shop"}}}}};
  fake_.Queue("GET", kRuntime, FakeTransport::Http(200, runtime.dump()));
  fake_.Queue("GET", "/api/serviceengine-inventory/se-1",
              FakeTransport::Http(200, inventory.dump()));
  auto client = MakeClient();
  auto r = client->GetServiceEngineRuntime("se-1", "");
  ASSERT_THAT(r, IsOk());
  EXPECT_TRUE(r->migration_failed);
  EXPECT_THAT(r->virtual_services, ElementsAre("shop"));
  EXPECT_THAT(LinesWithoutSession(fake_.requests()),
              ElementsAre(absl::StrCat("GET ", kRuntime), "GET /api/serviceengine-inventory/se-1"));
}

TEST_F(SeOperationsTest, MigrationInProgressIsNotAFailure) {
  Json runtime = {{"oper_status", {{"state", "OPER_DISABLING"}}},
                  {"migrate_state", "SE_MIGRATE_STATE_STARTED"},
                  {"vs_refs", Json::array()}};
  fake_.Queue("GET", kRuntime, FakeTransport::Http(200, runtime.dump()));
  auto client = MakeClient();
  auto r = client->GetServiceEngineRuntime("se-1", "");
  ASSERT_THAT(r, IsOk());
  EXPECT_FALSE(r->migration_failed);
  EXPECT_THAT(r->virtual_services, IsEmpty());
}

TEST_F(SeOperationsTest, RuntimeOfTheWrongShapeIsInternal) {
  fake_.Queue("GET", kRuntime, FakeTransport::Http(200, R"({"vs_refs":"vs-1"})"));
  auto client = MakeClient();
  EXPECT_THAT(client->GetServiceEngineRuntime("se-1", ""),
              StatusIs(absl::StatusCode::kInternal, HasSubstr("vs_refs")));
}

TEST_F(SeOperationsTest, RuntimeOfAGoneSeIsNotFound) {
  fake_.Queue("GET", kRuntime, FakeTransport::Http(404, R"({"error":"object not found"})"));
  auto client = MakeClient();
  EXPECT_THAT(client->GetServiceEngineRuntime("se-1", ""), StatusIs(absl::StatusCode::kNotFound));
}

TEST_F(SeOperationsTest, DeleteOfAGoneSeSucceeds) {
  fake_.Queue("DELETE", kSe, FakeTransport::Http(404, R"({"error":"object not found"})"));
  auto client = MakeClient();
  EXPECT_THAT(client->DeleteServiceEngine("se-1", ""), IsOk());
}

// 409: the SE still hosts virtual services; the error names them and what to do.
TEST_F(SeOperationsTest, DeleteRefusedNamesTheVirtualServices) {
  fake_.Queue("DELETE", kSe,
              FakeTransport::Http(409, R"({"error":"Cannot delete, SE has virtual services"})"));
  Json runtime = {{"oper_status", {{"state", "OPER_UP"}}},
                  {"vs_refs",
                   {"https://ctrl.example/api/virtualservice/vs-1#shop",
                    "https://ctrl.example/api/virtualservice/vs-2#cart"}}};
  fake_.Queue("GET", kRuntime, FakeTransport::Http(200, runtime.dump()));
  auto client = MakeClient();
  absl::Status s = client->DeleteServiceEngine("se-1", "");
  EXPECT_THAT(s, StatusIs(absl::StatusCode::kFailedPrecondition,
                          HasSubstr("still hosts 2 virtual services: shop, cart")));
  EXPECT_THAT(std::string(s.message()), HasSubstr("Cannot delete, SE has virtual services"));
  EXPECT_EQ(fake_.requests("DELETE", kSe).size(), 1u);
}

TEST_F(SeOperationsTest, RebootPostsAnEmptyObject) {
  fake_.Queue("POST", kReboot, FakeTransport::Http(200, "\"\""));
  auto client = MakeClient();
  ASSERT_THAT(client->RebootServiceEngine("se-1", ""), IsOk());
  const auto posts = fake_.requests("POST", kReboot);
  ASSERT_EQ(posts.size(), 1u);
  EXPECT_EQ(Json::parse(posts[0].body), Json::object());
  EXPECT_FALSE(posts[0].idempotent);
}

// A 503 after the reboot may have reached the Controller: not sent again, and the error says
// that it may have taken effect.
TEST_F(SeOperationsTest, RebootIsNotResentBlindly) {
  fake_.Queue("POST", kReboot, FakeTransport::Http(503, R"({"error":"busy"})"));
  auto client = MakeClient();
  absl::Status s = client->RebootServiceEngine("se-1", "");
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(MayHaveTakenEffect(s));
  EXPECT_EQ(fake_.requests("POST", kReboot).size(), 1u);
}

}  // namespace
}  // namespace nsxalb::controller
