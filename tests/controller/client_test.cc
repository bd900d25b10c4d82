// Integration tests of the Controller client against nsxalb-controller-emulator over real HTTPS
// on loopback. Each test starts its own emulator on a free port and reads its request counters.
// The retry loop's, the session's and paging's logic alone (backoff, max_retries and
// total_timeout bounds among it) is unit tested over a fake transport in
// client_transport_test.cc.
#include "plugin/controller/client.h"

#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/barrier.h"
#include "absl/time/clock.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "plugin/common/log.h"
#include "plugin/controller/errors.h"
#include "tests/controller/fake_clock.h"
#include "tests/support/emulator_process.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::controller {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;

using ::nsxalb::testing::EmulatorProcess;
using ::testing::HasSubstr;
using ::testing::Not;
using Json = nlohmann::json;

constexpr char kPassword[] = "Emu-Secret-Passw0rd";

class ClientTest : public ::testing::Test {
 protected:
  void SetUp() override { StartEmulator("22.1.3"); }

  void StartEmulator(const std::string& version, std::vector<std::string> extra = {}) {
    EmulatorProcess::Options options;
    options.controller_version = version;
    options.extra_args = {"--password", kPassword};
    options.extra_args.insert(options.extra_args.end(), extra.begin(), extra.end());
    emulator_.reset();
    auto emulator = EmulatorProcess::Start(options);
    ASSERT_THAT(emulator, IsOk());
    emulator_ = *std::move(emulator);
  }

  ClientConfig Config() const {
    ClientConfig c;
    c.controller = emulator_->url();
    c.username = "admin";
    c.password = kPassword;
    c.ca_file = emulator_->ca_file();
    c.request_timeout = absl::Seconds(20);
    c.total_timeout = absl::Seconds(60);
    c.backoff_initial = absl::Milliseconds(10);
    c.backoff_max = absl::Milliseconds(50);
    return c;
  }

  std::unique_ptr<Client> NewClientOrDie(const ClientConfig& config, ClientHooks hooks = {}) {
    auto client = NewClient(config, std::move(hooks));
    EXPECT_THAT(client, IsOk());
    return client.ok() ? *std::move(client) : nullptr;
  }

  // Requests the emulator counted for "METHOD /path" ({uuid} for object ids).
  int Count(const std::string& key) {
    auto counters = emulator_->Control("GET", "counters");
    EXPECT_THAT(counters, IsOk());
    if (!counters.ok()) return -1;
    return (*counters)["requests"].value(key, 0);
  }

  // New TLS connections so far, not counting the one this reading opens (docs/emulator.md).
  int Connections() {
    auto counters = emulator_->Control("GET", "counters");
    EXPECT_THAT(counters, IsOk());
    if (!counters.ok()) return -1;
    return (*counters)["tls_connections"].get<int>() - 1;
  }

  void Fault(const Json& faults) {
    auto r = emulator_->Control("POST", "faults", faults);
    ASSERT_THAT(r, IsOk());
  }

  SeGroupSpec Spec(const std::string& name, const std::string& cloud = "Default-Cloud") {
    SeGroupSpec spec;
    spec.name = name;
    spec.cloud = cloud;
    spec.fields = {{"vcpus_per_se", 2}, {"memory_per_se", 4096}, {"max_se", 4}};
    return spec;
  }

  std::unique_ptr<EmulatorProcess> emulator_;
};

TEST_F(ClientTest, LogsInOnceAndReportsTheControllerVersion) {
  auto client = NewClientOrDie(Config());
  auto v = client->ControllerVersion();
  ASSERT_THAT(v, IsOk());
  EXPECT_EQ(v->controller.ToString(), "22.1.3");
  EXPECT_EQ(v->api.ToString(), "22.1.3");
  ASSERT_THAT(client->ResolveCloud("Default-Cloud"), IsOk());
  EXPECT_EQ(Count("POST /login"), 1);
}

TEST_F(ClientTest, ConfiguredOlderApiVersionIsSpoken) {
  ClientConfig config = Config();
  config.api_version = "21.1.1";
  auto client = NewClientOrDie(config);
  auto v = client->ControllerVersion();
  ASSERT_THAT(v, IsOk());
  EXPECT_EQ(v->controller.ToString(), "22.1.3");
  EXPECT_EQ(v->api.ToString(), "21.1.1");
  EXPECT_THAT(client->ListSeGroups("", ""), IsOk());
}

TEST_F(ClientTest, ConfiguredVersionAboveTheControllersIsFailedPrecondition) {
  ClientConfig config = Config();
  config.api_version = "30.2.1";
  auto client = NewClientOrDie(config);
  auto v = client->ListSeGroups("", "");
  ASSERT_THAT(v, Not(IsOk()));
  EXPECT_THAT(v, StatusIs(absl::StatusCode::kFailedPrecondition));
  EXPECT_THAT(std::string(v.status().message()), HasSubstr("30.2.1"));
  EXPECT_THAT(std::string(v.status().message()), HasSubstr("22.1.3"));
  EXPECT_EQ(Count("GET /api/serviceenginegroup"), 0);
}

TEST_F(ClientTest, WrongPasswordIsUnauthenticatedAndNeverShown) {
  ClientConfig config = Config();
  config.password = "Wrong-Secret-Passw0rd";
  auto client = NewClientOrDie(config);
  ::testing::internal::CaptureStderr();
  auto v = client->ControllerVersion();
  std::string logged = ::testing::internal::GetCapturedStderr();
  ASSERT_THAT(v, Not(IsOk()));
  EXPECT_THAT(v, StatusIs(absl::StatusCode::kUnauthenticated));
  EXPECT_EQ(HttpStatusOf(v.status()), 401);
  EXPECT_THAT(std::string(v.status().message()), HasSubstr("Invalid credentials"));
  EXPECT_THAT(std::string(v.status().message()), Not(HasSubstr("Wrong-Secret-Passw0rd")));
  EXPECT_THAT(logged, Not(HasSubstr("Wrong-Secret-Passw0rd")));
  // A set-up problem: marked, with what to do, and still no password in it.
  EXPECT_EQ(SetupProblemOf(v.status()), SetupProblem::kLoginRejected);
  EXPECT_THAT(RemedyOf(v.status()), HasSubstr("NSXALB_USERNAME and NSXALB_PASSWORD"));
  EXPECT_THAT(RemedyOf(v.status()), Not(HasSubstr("Wrong-Secret-Passw0rd")));
}

TEST_F(ClientTest, LogsInWithAToken) {
  auto token = emulator_->Control("POST", "tokens", Json{{"username", "admin"}});
  ASSERT_THAT(token, IsOk());
  ClientConfig config = Config();
  config.password = "";
  config.auth_token = (*token)["token"].get<std::string>();
  auto client = NewClientOrDie(config);
  EXPECT_THAT(client->ControllerVersion(), IsOk());
}

TEST_F(ClientTest, CreateGetFindUpdateDelete) {
  auto client = NewClientOrDie(Config());
  SeGroupSpec spec = Spec("seg-crud");
  spec.fields["se_probe_port"] = 8;  // a field the provider does not manage
  auto created = client->CreateSeGroup(spec);
  ASSERT_THAT(created, IsOk());
  EXPECT_EQ(created->name, "seg-crud");
  EXPECT_THAT(created->uuid, ::testing::StartsWith("serviceenginegroup-"));
  EXPECT_THAT(created->url, HasSubstr("/api/serviceenginegroup/" + created->uuid));
  auto cloud = client->ResolveCloud("Default-Cloud");
  ASSERT_THAT(cloud, IsOk());
  EXPECT_THAT(created->cloud_ref, HasSubstr(cloud->uuid));
  EXPECT_EQ(created->body["memory_per_se"], 4096);
  EXPECT_EQ(Count("POST /api/serviceenginegroup"), 1);

  auto got = client->GetSeGroup(created->uuid, "");
  ASSERT_THAT(got, IsOk());
  EXPECT_EQ(got->name, "seg-crud");
  EXPECT_EQ(got->body["vcpus_per_se"], 2);
  auto by_ref = client->GetSeGroup(created->url, "admin");
  ASSERT_THAT(by_ref, IsOk());
  EXPECT_EQ(by_ref->uuid, created->uuid);

  auto found = client->FindSeGroup("seg-crud", "", "Default-Cloud");
  ASSERT_THAT(found, IsOk());
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->uuid, created->uuid);
  auto elsewhere = client->FindSeGroup("seg-crud", "admin", "nsxt-cloud");
  ASSERT_THAT(elsewhere, IsOk());
  EXPECT_FALSE(elsewhere->has_value());
  auto absent = client->FindSeGroup("no-such-group", "", "");
  ASSERT_THAT(absent, IsOk());
  EXPECT_FALSE(absent->has_value());

  SeGroupSpec update;
  update.name = "seg-crud";
  update.fields = {{"memory_per_se", 8192}, {"max_se", nullptr}};
  auto updated = client->UpdateSeGroup(created->uuid, update);
  ASSERT_THAT(updated, IsOk());
  EXPECT_EQ(updated->body["memory_per_se"], 8192);
  EXPECT_EQ(updated->body["vcpus_per_se"], 2);      // managed, not in this update: kept
  EXPECT_EQ(updated->body["se_probe_port"], 8);     // unmanaged: kept
  EXPECT_NE(updated->body.value("max_se", -1), 4);  // removed: back to the default
  EXPECT_EQ(Count("PUT /api/serviceenginegroup/{uuid}"), 1);

  ASSERT_THAT(client->DeleteSeGroup(created->uuid, ""), IsOk());
  auto gone = client->GetSeGroup(created->uuid, "");
  ASSERT_THAT(gone, Not(IsOk()));
  EXPECT_THAT(gone, StatusIs(absl::StatusCode::kNotFound));
  EXPECT_EQ(HttpStatusOf(gone.status()), 404);
  // Deleting what is already gone succeeds.
  EXPECT_THAT(client->DeleteSeGroup(created->uuid, ""), IsOk());
  EXPECT_EQ(Count("DELETE /api/serviceenginegroup/{uuid}"), 2);
  EXPECT_EQ(Count("POST /login"), 1);
}

TEST_F(ClientTest, UpdateThatChangesNothingSendsNoPut) {
  auto client = NewClientOrDie(Config());
  auto created = client->CreateSeGroup(Spec("seg-same"));
  ASSERT_THAT(created, IsOk());
  const Json vcpus = created->body["vcpus_per_se"];
  const Json delay = created->body["se_deprovision_delay"];
  ASSERT_TRUE(vcpus.is_number_integer()) << created->body.dump();

  // The values the group already has: nothing to send.
  SeGroupSpec same;
  same.name = "seg-same";
  same.fields = {{"vcpus_per_se", vcpus}, {"se_deprovision_delay", delay}};
  auto unchanged = client->UpdateSeGroup(created->uuid, same);
  ASSERT_THAT(unchanged, IsOk());
  EXPECT_EQ(unchanged->uuid, created->uuid);
  EXPECT_EQ(unchanged->body["vcpus_per_se"], vcpus);
  EXPECT_EQ(Count("PUT /api/serviceenginegroup/{uuid}"), 0);

  // One value that differs: one PUT.
  same.fields["se_deprovision_delay"] = delay.get<int>() + 1;
  auto changed = client->UpdateSeGroup(created->uuid, same);
  ASSERT_THAT(changed, IsOk());
  EXPECT_EQ(changed->body["se_deprovision_delay"], delay.get<int>() + 1);
  EXPECT_EQ(Count("PUT /api/serviceenginegroup/{uuid}"), 1);
}

// Another writer changes the group between the client's GET and its PUT (the emulator's
// other_writer fault): the Controller answers 412, the client reads the group again and lays its
// change over the fresh object. The other writer's unmanaged field survives.
TEST_F(ClientTest, UpdateRacingAnotherWriterReReadsAndKeepsTheirField) {
  auto client = NewClientOrDie(Config());
  auto created = client->CreateSeGroup(Spec("seg-race"));
  ASSERT_THAT(created, IsOk());
  ASSERT_THAT(emulator_->Control("POST", "counters/reset", Json::object()), IsOk());
  Fault({{"other_writer_next", 1},
         {"other_writer_field", "connection_memory_percentage"},
         {"other_writer_value", 70}});
  SeGroupSpec change;
  change.name = "seg-race";
  change.fields = {{"vcpus_per_se", 3}};
  auto updated = client->UpdateSeGroup(created->uuid, change);
  ASSERT_THAT(updated, IsOk());
  EXPECT_EQ(updated->body["vcpus_per_se"], 3);
  EXPECT_EQ(updated->body["connection_memory_percentage"], 70);
  // GET, PUT (412), GET, PUT.
  EXPECT_EQ(Count("GET /api/serviceenginegroup/{uuid}"), 2);
  EXPECT_EQ(Count("PUT /api/serviceenginegroup/{uuid}"), 2);
  auto read = client->GetSeGroup(created->uuid, "");
  ASSERT_THAT(read, IsOk());
  EXPECT_EQ(read->body["connection_memory_percentage"], 70);
  EXPECT_EQ(read->body["vcpus_per_se"], 3);
}

// The other writer changed a field this update manages: the update's value wins.
TEST_F(ClientTest, UpdateRacingAnotherWriterOverwritesAManagedField) {
  auto client = NewClientOrDie(Config());
  auto created = client->CreateSeGroup(Spec("seg-race-managed"));
  ASSERT_THAT(created, IsOk());
  Fault({{"other_writer_next", 1},
         {"other_writer_field", "vcpus_per_se"},
         {"other_writer_value", 5}});
  SeGroupSpec change;
  change.name = "seg-race-managed";
  change.fields = {{"vcpus_per_se", 3}};
  auto updated = client->UpdateSeGroup(created->uuid, change);
  ASSERT_THAT(updated, IsOk());
  EXPECT_EQ(updated->body["vcpus_per_se"], 3);
}

// A 412 after every read: kUpdateAttempts GET+PUT pairs, then a clear Aborted error; nothing of
// the update was written.
TEST_F(ClientTest, UpdateGivesUpAfterTheBoundedRetriesOn412) {
  auto client = NewClientOrDie(Config());
  auto created = client->CreateSeGroup(Spec("seg-race-forever"));
  ASSERT_THAT(created, IsOk());
  ASSERT_THAT(emulator_->Control("POST", "counters/reset", Json::object()), IsOk());
  Fault({{"other_writer_next", 100}});
  SeGroupSpec change;
  change.name = "seg-race-forever";
  change.fields = {{"vcpus_per_se", 3}};
  auto updated = client->UpdateSeGroup(created->uuid, change);
  ASSERT_THAT(updated, Not(IsOk()));
  EXPECT_THAT(updated, StatusIs(absl::StatusCode::kAborted));
  EXPECT_THAT(std::string(updated.status().message()),
              ::testing::AllOf(::testing::HasSubstr("seg-race-forever"),
                               ::testing::HasSubstr("another writer"), ::testing::HasSubstr("412"),
                               ::testing::HasSubstr(absl::StrCat(kUpdateAttempts))));
  EXPECT_EQ(Count("GET /api/serviceenginegroup/{uuid}"), kUpdateAttempts);
  EXPECT_EQ(Count("PUT /api/serviceenginegroup/{uuid}"), kUpdateAttempts);
  Fault({{"other_writer_next", 0}});
  auto read = client->GetSeGroup(created->uuid, "");
  ASSERT_THAT(read, IsOk());
  EXPECT_EQ(read->body["vcpus_per_se"], 2);
}

TEST_F(ClientTest, DuplicateCreateIsAlreadyExistsWithTheControllersText) {
  auto client = NewClientOrDie(Config());
  ASSERT_THAT(client->CreateSeGroup(Spec("seg-dup")), IsOk());
  auto again = client->CreateSeGroup(Spec("seg-dup"));
  ASSERT_THAT(again, Not(IsOk()));
  EXPECT_THAT(again, StatusIs(absl::StatusCode::kAlreadyExists));
  EXPECT_EQ(HttpStatusOf(again.status()), 409);
  EXPECT_THAT(std::string(again.status().message()), HasSubstr("seg-dup"));
}

TEST_F(ClientTest, ErrorMappings) {
  auto client = NewClientOrDie(Config());
  // 403: the Controller refuses to delete its default group.
  auto defaults = client->FindSeGroup("Default-Group", "", "Default-Cloud");
  ASSERT_THAT(defaults, IsOk());
  ASSERT_TRUE(defaults->has_value());
  absl::Status denied = client->DeleteSeGroup((*defaults)->uuid, "");
  EXPECT_THAT(denied, StatusIs(absl::StatusCode::kPermissionDenied));
  EXPECT_EQ(HttpStatusOf(denied), 403);
  EXPECT_THAT(std::string(denied.message()), HasSubstr("Cannot delete system default object"));

  // 400: the cloud of an existing group cannot change.
  auto created = client->CreateSeGroup(Spec("seg-errors"));
  ASSERT_THAT(created, IsOk());
  SeGroupSpec move = Spec("seg-errors", "nsxt-cloud");
  auto moved = client->UpdateSeGroup(created->uuid, move);
  ASSERT_THAT(moved, Not(IsOk()));
  EXPECT_THAT(moved, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_EQ(HttpStatusOf(moved.status()), 400);

  // Several groups match a name when no cloud is given.
  auto ambiguous = client->FindSeGroup("Default-Group", "", "");
  ASSERT_THAT(ambiguous, Not(IsOk()));
  EXPECT_THAT(ambiguous, StatusIs(absl::StatusCode::kFailedPrecondition));

  // 404 on an update target.
  auto missing =
      client->UpdateSeGroup("serviceenginegroup-00000000-0000-4000-8000-000000000000", Spec("x"));
  EXPECT_THAT(missing, StatusIs(absl::StatusCode::kNotFound));

  // Bad values never reach the Controller.
  SeGroupSpec bad = Spec("seg-bad");
  bad.fields["memory_per_se"] = 1024;
  auto rejected = client->CreateSeGroup(bad);
  EXPECT_THAT(rejected, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(std::string(rejected.status().message()), HasSubstr("memory_per_se"));
  EXPECT_EQ(Count("POST /api/serviceenginegroup"), 1);

  // An unknown tenant is the Controller's 400.
  auto tenant = client->ListSeGroups("no-such-tenant", "");
  EXPECT_THAT(tenant, Not(IsOk()));
  EXPECT_EQ(HttpStatusOf(tenant.status()), 400) << tenant.status();
}

TEST_F(ClientTest, ListFollowsNextAcrossPages) {
  ClientConfig config = Config();
  config.page_size = 2;
  auto client = NewClientOrDie(config);
  std::set<std::string> mine;
  for (int i = 0; i < 5; ++i) {
    std::string name = "seg-page-" + std::to_string(i);
    ASSERT_THAT(client->CreateSeGroup(Spec(name)), IsOk());
    mine.insert(name);
  }
  auto all = client->ListSeGroups("", "");
  ASSERT_THAT(all, IsOk());
  std::set<std::string> uuids;
  int found = 0;
  for (const SeGroup& g : *all) {
    uuids.insert(g.uuid);
    found += mine.count(g.name);
  }
  EXPECT_EQ(found, 5);
  EXPECT_EQ(uuids.size(), all->size());
  EXPECT_EQ(all->size(), 7u);                          // two seeded Default-Groups plus five
  EXPECT_EQ(Count("GET /api/serviceenginegroup"), 4);  // ceil(7 / 2) pages

  auto nsxt = client->ListSeGroups("admin", "nsxt-cloud");
  ASSERT_THAT(nsxt, IsOk());
  ASSERT_EQ(nsxt->size(), 1u);
  EXPECT_EQ(nsxt->front().name, "Default-Group");
}

TEST_F(ClientTest, ListsCloudsAcrossPages) {
  ClientConfig config = Config();
  config.page_size = 1;
  auto client = NewClientOrDie(config);
  auto clouds = client->ListClouds();
  ASSERT_THAT(clouds, IsOk());
  ASSERT_EQ(clouds->size(), 2u);
  EXPECT_EQ(Count("GET /api/cloud"), 2);  // one cloud a page
  std::map<std::string, CloudInfo> by_name;
  for (const CloudInfo& c : *clouds) by_name[c.name] = c;
  ASSERT_EQ(by_name.count("Default-Cloud"), 1u);
  ASSERT_EQ(by_name.count("nsxt-cloud"), 1u);
  EXPECT_EQ(by_name["Default-Cloud"].vtype, "CLOUD_VCENTER");
  EXPECT_EQ(by_name["nsxt-cloud"].vtype, "CLOUD_NSXT");
  for (const CloudInfo& c : *clouds) {
    EXPECT_THAT(c.uuid, ::testing::StartsWith("cloud-"));
    EXPECT_THAT(c.ref, ::testing::StartsWith(emulator_->url() + "/api/cloud/" + c.uuid));
    // The listed ref names the same cloud ResolveCloud finds by name.
    auto resolved = client->ResolveCloud(c.ref);
    ASSERT_THAT(resolved, IsOk());
    EXPECT_EQ(resolved->uuid, c.uuid);
    EXPECT_EQ(resolved->name, c.name);
    auto by_cloud_name = client->ResolveCloud(c.name);
    ASSERT_THAT(by_cloud_name, IsOk());
    EXPECT_EQ(by_cloud_name->uuid, c.uuid);
  }
  EXPECT_NE(by_name["Default-Cloud"].uuid, by_name["nsxt-cloud"].uuid);

  // The default page size lists both clouds with one GET.
  const int gets_before = Count("GET /api/cloud");
  auto one_page = NewClientOrDie(Config())->ListClouds();
  ASSERT_THAT(one_page, IsOk());
  EXPECT_EQ(one_page->size(), 2u);
  EXPECT_EQ(Count("GET /api/cloud") - gets_before, 1);
}

// Terraform plans resources in parallel: the first lookups of one cloud arrive together, and
// only one of them goes to the Controller.
TEST_F(ClientTest, ConcurrentFirstLookupsOfACloudAskOnce) {
  ClientConfig config = Config();
  auto client = NewClientOrDie(config);
  ASSERT_THAT(client->ControllerVersion(), IsOk());  // logged in: only lookups below
  Fault({{"latency_ms", 50}});  // keeps the first lookup in flight while the others arrive
  const int gets_before = Count("GET /api/cloud");
  std::vector<std::thread> threads;
  std::vector<std::string> uuids(8);
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&, i] {
      auto cloud = client->ResolveCloud(i % 2 == 0 ? "Default-Cloud" : "nsxt-cloud");
      if (cloud.ok()) uuids[i] = cloud->uuid;
    });
  }
  for (std::thread& t : threads) t.join();
  Fault({{"latency_ms", 0}});
  EXPECT_EQ(Count("GET /api/cloud") - gets_before, 2);  // one per cloud
  for (int i = 0; i < 8; ++i) {
    EXPECT_THAT(uuids[i], ::testing::StartsWith("cloud-")) << i;
    EXPECT_EQ(uuids[i], uuids[i % 2]) << i;
  }
}

TEST_F(ClientTest, ResolvesCloudsAndTenants) {
  auto client = NewClientOrDie(Config());
  auto vcenter = client->ResolveCloud("Default-Cloud");
  ASSERT_THAT(vcenter, IsOk());
  EXPECT_EQ(vcenter->vtype, "CLOUD_VCENTER");
  EXPECT_EQ(vcenter->name, "Default-Cloud");
  EXPECT_THAT(vcenter->uuid, ::testing::StartsWith("cloud-"));
  EXPECT_THAT(vcenter->ref, HasSubstr("/api/cloud/" + vcenter->uuid));
  auto nsxt = client->ResolveCloud("/api/cloud/?name=nsxt-cloud");
  ASSERT_THAT(nsxt, IsOk());
  EXPECT_EQ(nsxt->vtype, "CLOUD_NSXT");
  auto by_uuid = client->ResolveCloud(nsxt->uuid);
  ASSERT_THAT(by_uuid, IsOk());
  EXPECT_EQ(by_uuid->name, "nsxt-cloud");
  auto by_url =
      client->ResolveCloud(emulator_->url() + "/api/cloud/" + vcenter->uuid + "#Default-Cloud");
  ASSERT_THAT(by_url, IsOk());
  EXPECT_EQ(by_url->vtype, "CLOUD_VCENTER");
  auto missing = client->ResolveCloud("no-such-cloud");
  EXPECT_THAT(missing, StatusIs(absl::StatusCode::kNotFound));
  auto missing_uuid = client->ResolveCloud("cloud-00000000-0000-4000-8000-000000000000");
  EXPECT_THAT(missing_uuid, StatusIs(absl::StatusCode::kNotFound));
  auto wrong_type = client->ResolveCloud("/api/tenant/admin");
  EXPECT_THAT(wrong_type, StatusIs(absl::StatusCode::kInvalidArgument));

  auto admin = client->ResolveTenant("admin");
  ASSERT_THAT(admin, IsOk());
  EXPECT_EQ(admin->uuid, "admin");
  auto admin_ref = client->ResolveTenant("/api/tenant/admin");
  ASSERT_THAT(admin_ref, IsOk());
  EXPECT_EQ(admin_ref->name, "admin");
  EXPECT_EQ(client->ResolveTenant("nobody").status().code(), absl::StatusCode::kNotFound);
}

TEST_F(ClientTest, LogsInAgainAfterTheSessionExpires) {
  auto client = NewClientOrDie(Config());
  ASSERT_THAT(client->ListSeGroups("", ""), IsOk());
  EXPECT_EQ(Count("POST /login"), 1);
  Fault({{"expire_sessions", true}});
  auto after = client->ListSeGroups("", "");
  ASSERT_THAT(after, IsOk());
  EXPECT_EQ(Count("POST /login"), 2);
  ASSERT_THAT(client->CreateSeGroup(Spec("seg-after-relogin")), IsOk());
  EXPECT_EQ(Count("POST /login"), 2);
}

TEST_F(ClientTest, HonoursRetryAfterOn429) {
  FakeClock clock;
  auto client = NewClientOrDie(Config(), {&clock, [] { return 0.0; }});
  ASSERT_THAT(client->ControllerVersion(), IsOk());
  Fault({{"throttle_next", 1}, {"retry_after_seconds", 3}});
  auto list = client->ListSeGroups("", "");
  ASSERT_THAT(list, IsOk());
  ASSERT_EQ(clock.sleeps().size(), 1u);
  EXPECT_EQ(clock.sleeps()[0], absl::Seconds(3));
  EXPECT_EQ(Count("GET /api/serviceenginegroup"), 2);
}

TEST_F(ClientTest, TlsFailsWithoutTheCa) {
  ClientConfig config = Config();
  config.ca_file = "";
  auto client = NewClientOrDie(config);
  auto v = client->ControllerVersion();
  ASSERT_THAT(v, Not(IsOk()));
  EXPECT_THAT(v, StatusIs(absl::StatusCode::kFailedPrecondition));
  EXPECT_THAT(std::string(v.status().message()), HasSubstr("TLS verification"));
  // What to do travels with the status, once (every place that shows the error adds it).
  EXPECT_EQ(SetupProblemOf(v.status()), SetupProblem::kUntrustedCertificate);
  EXPECT_THAT(RemedyOf(v.status()), HasSubstr("ca_file"));
  EXPECT_THAT(std::string(v.status().message()), Not(HasSubstr("ca_file")));
  EXPECT_EQ(Count("POST /login"), 0);
}

TEST_F(ClientTest, TlsSucceedsWithCaPemAndWithInsecure) {
  std::ifstream in(emulator_->ca_file());
  std::stringstream pem;
  pem << in.rdbuf();
  ClientConfig with_pem = Config();
  with_pem.ca_file = "";
  with_pem.ca_pem = pem.str();
  auto client = NewClientOrDie(with_pem);
  auto v = client->ControllerVersion();
  EXPECT_THAT(v, IsOk());

  ClientConfig insecure = Config();
  insecure.ca_file = "";
  insecure.insecure = true;
  ::testing::internal::CaptureStderr();
  auto insecure_client = NewClientOrDie(insecure);
  std::string logged = ::testing::internal::GetCapturedStderr();
  EXPECT_THAT(logged, HasSubstr("[WARN]"));
  EXPECT_THAT(logged, HasSubstr("insecure"));
  EXPECT_THAT(insecure_client->ControllerVersion(), IsOk());
}

TEST_F(ClientTest, SixteenThreadsShareOneLogin) {
  auto client = NewClientOrDie(Config());
  ASSERT_TRUE(client != nullptr);
  constexpr int kThreads = 16;
  absl::Barrier* start = new absl::Barrier(kThreads);
  std::vector<absl::Status> results(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      if (start->Block()) delete start;
      absl::Status st;
      for (int j = 0; j < 5 && st.ok(); ++j) {
        if (i % 2 == 0) {
          st = client->ListSeGroups("", "").status();
        } else {
          st = client->FindSeGroup("Default-Group", "", "Default-Cloud").status();
        }
      }
      if (st.ok() && i < 4) {
        st = client->CreateSeGroup(Spec("seg-thread-" + std::to_string(i))).status();
      }
      results[i] = st;
    });
  }
  for (std::thread& t : threads) t.join();
  for (int i = 0; i < kThreads; ++i) EXPECT_THAT(results[i], IsOk()) << i << ": " << results[i];
  EXPECT_EQ(Count("POST /login"), 1);
  EXPECT_EQ(Count("POST /api/serviceenginegroup"), 4);
}

TEST_F(ClientTest, CancelStopsAnInFlightCall) {
  auto client = NewClientOrDie(Config());
  ASSERT_THAT(client->ControllerVersion(), IsOk());
  Fault({{"latency_ms", 5000}});
  absl::Status result;
  std::thread call([&] { result = client->ListSeGroups("", "").status(); });
  absl::SleepFor(absl::Milliseconds(300));
  absl::Time cancelled_at = absl::Now();
  client->Cancel();
  call.join();
  // Informational only (no wall-clock assertion): how long the abort took.
  std::cerr << "cancel took " << absl::FormatDuration(absl::Now() - cancelled_at) << "\n";
  EXPECT_THAT(result, StatusIs(absl::StatusCode::kCancelled));
  // Later calls fail at once without reaching the Controller.
  int before = Count("GET /api/serviceenginegroup");
  EXPECT_EQ(client->ListSeGroups("", "").status().code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(Count("GET /api/serviceenginegroup"), before);
}

TEST_F(ClientTest, CancelInterruptsABackoffSleep) {
  ClientConfig config = Config();
  config.backoff_initial = absl::Seconds(60);
  config.backoff_max = absl::Seconds(60);
  config.total_timeout = absl::Minutes(10);
  auto client = NewClientOrDie(config);
  ASSERT_THAT(client->ControllerVersion(), IsOk());
  Fault({{"fail_next", 100}, {"fail_status", 503}});
  absl::Status result;
  std::thread call([&] { result = client->ListSeGroups("", "").status(); });
  while (Count("GET /api/serviceenginegroup") < 1) absl::SleepFor(absl::Milliseconds(20));
  client->Cancel();
  call.join();
  EXPECT_THAT(result, StatusIs(absl::StatusCode::kCancelled));
}

// Creates reuse the kept-alive connection like every other call: one connection for a login, a
// cloud lookup and three creates, made one after another.
TEST_F(ClientTest, CreatesReuseTheKeptAliveConnection) {
  auto client = NewClientOrDie(Config());
  const int before = Connections();
  ASSERT_THAT(client->ResolveCloud("Default-Cloud"), IsOk());
  for (int i = 0; i < 3; ++i) {
    auto created = client->CreateSeGroup(Spec("seg-reuse-" + std::to_string(i)));
    ASSERT_THAT(created, IsOk());
  }
  EXPECT_EQ(Connections() - before - 1, 1);  // the previous reading's connection, and ours
  EXPECT_EQ(Count("POST /api/serviceenginegroup"), 3);
}

// The create goes out on the kept-alive connection of the login; the emulator stores the group
// and closes that connection without an answer. libcurl would resend the POST on a new
// connection (a second group, or a name conflict); the transport refuses that resend, and the
// client finds the group the first POST made.
TEST_F(ClientTest, DroppedConnectionAfterCreateDoesNotDuplicate) {
  FakeClock clock;
  auto client = NewClientOrDie(Config(), {&clock, [] { return 0.0; }});
  ASSERT_THAT(client->ControllerVersion(), IsOk());
  Fault({{"drop_after_create", 1}});
  auto created = client->CreateSeGroup(Spec("seg-dropped"));
  ASSERT_THAT(created, IsOk());
  EXPECT_EQ(created->name, "seg-dropped");
  EXPECT_EQ(Count("POST /api/serviceenginegroup"), 1);
  auto all = client->ListSeGroups("", "");
  ASSERT_THAT(all, IsOk());
  int named = 0;
  for (const SeGroup& g : *all) named += g.name == "seg-dropped";
  EXPECT_EQ(named, 1);
}

// With one group a page, a name shared by two clouds has its second match on page 2 of the
// Controller's `?name=` answer (which lists only matches).
TEST_F(ClientTest, FindSeGroupSeesMatchesBeyondTheFirstPage) {
  StartEmulator("22.1.3", {"--page-size", "1"});
  ClientConfig config = Config();
  config.page_size = 1;
  auto client = NewClientOrDie(config);
  auto in_nsxt = client->CreateSeGroup(Spec("seg-shared", "nsxt-cloud"));
  ASSERT_THAT(in_nsxt, IsOk());
  auto in_default = client->CreateSeGroup(Spec("seg-shared", "Default-Cloud"));
  ASSERT_THAT(in_default, IsOk());
  for (int i = 0; i < 3; ++i) {
    ASSERT_THAT(client->CreateSeGroup(Spec("seg-other-" + std::to_string(i))), IsOk());
  }

  const int gets_before = Count("GET /api/serviceenginegroup");
  auto ambiguous = client->FindSeGroup("seg-shared", "", "");
  ASSERT_THAT(ambiguous, Not(IsOk()));
  EXPECT_THAT(ambiguous, StatusIs(absl::StatusCode::kFailedPrecondition));
  EXPECT_THAT(std::string(ambiguous.status().message()), HasSubstr("2 SE groups"));
  EXPECT_EQ(Count("GET /api/serviceenginegroup") - gets_before, 2);  // one match a page

  auto defaults = client->FindSeGroup("Default-Group", "", "");
  EXPECT_THAT(defaults, StatusIs(absl::StatusCode::kFailedPrecondition));

  auto by_cloud = client->FindSeGroup("seg-shared", "", "Default-Cloud");
  ASSERT_THAT(by_cloud, IsOk());
  ASSERT_TRUE(by_cloud->has_value());
  EXPECT_EQ((*by_cloud)->uuid, in_default->uuid);
  auto unique = client->FindSeGroup("seg-other-2", "", "");
  ASSERT_THAT(unique, IsOk());
  ASSERT_TRUE(unique->has_value());
  EXPECT_EQ((*unique)->name, "seg-other-2");
}

// A create without a cloud lands in Default-Cloud. When its answer is lost, the group it made is
// beyond page 1 of its name (a namesake in another cloud comes first): the client must find that
// group, neither take the namesake for it nor create a second one.
TEST_F(ClientTest, LostCreateAnswerFindsTheGroupBeyondPageOneOfItsName) {
  StartEmulator("22.1.3", {"--page-size", "1"});
  FakeClock clock;
  ClientConfig config = Config();
  config.page_size = 1;
  auto client = NewClientOrDie(config, {&clock, [] { return 0.0; }});
  auto namesake = client->CreateSeGroup(Spec("seg-lost", "nsxt-cloud"));
  ASSERT_THAT(namesake, IsOk());
  auto default_cloud = client->ResolveCloud("Default-Cloud");
  ASSERT_THAT(default_cloud, IsOk());

  Fault({{"drop_after_create", 1}});
  auto created = client->CreateSeGroup(Spec("seg-lost", ""));
  ASSERT_THAT(created, IsOk());
  EXPECT_NE(created->uuid, namesake->uuid);
  EXPECT_THAT(created->cloud_ref, HasSubstr(default_cloud->uuid));
  EXPECT_EQ(Count("POST /api/serviceenginegroup"), 2);  // the namesake's, and one for this group

  auto all = client->ListSeGroups("", "");
  ASSERT_THAT(all, IsOk());
  std::set<std::string> lost;
  for (const SeGroup& g : *all) {
    if (g.name == "seg-lost") lost.insert(g.uuid);
  }
  EXPECT_EQ(lost, (std::set<std::string>{namesake->uuid, created->uuid}));
}

TEST_F(ClientTest, ServerErrorBeforeCreateIsRetriedOnce) {
  FakeClock clock;
  auto client = NewClientOrDie(Config(), {&clock, [] { return 0.0; }});
  ASSERT_THAT(client->ResolveCloud("Default-Cloud"), IsOk());
  Fault({{"fail_next", 1}, {"fail_status", 503}});
  auto created = client->CreateSeGroup(Spec("seg-503"));
  ASSERT_THAT(created, IsOk());
  // The 503 made the outcome unknown: the client looked the name up, found nothing, retried.
  EXPECT_EQ(Count("POST /api/serviceenginegroup"), 2);
  auto found = client->FindSeGroup("seg-503", "", "Default-Cloud");
  ASSERT_TRUE(found.ok() && found->has_value());
}

// A gateway answers 503 after the Controller committed the create: the look-up adopts it.
TEST_F(ClientTest, ServerErrorAfterACommittedCreateAdoptsTheGroup) {
  FakeClock clock;
  auto client = NewClientOrDie(Config(), {&clock, [] { return 0.0; }});
  ASSERT_THAT(client->ResolveCloud("Default-Cloud"), IsOk());
  Fault({{"fail_next", 1},
         {"fail_status", 503},
         {"fail_after_commit", true},
         {"match", "POST /api/serviceenginegroup"}});
  auto created = client->CreateSeGroup(Spec("seg-503-after"));
  ASSERT_THAT(created, IsOk());
  EXPECT_EQ(created->name, "seg-503-after");
  EXPECT_EQ(Count("POST /api/serviceenginegroup"), 1);
}

// Answers to a committed create that are not the group: read back, never created twice.
TEST_F(ClientTest, UnusableAnswerToACommittedCreateIsReadBack) {
  FakeClock clock;
  auto client = NewClientOrDie(Config(), {&clock, [] { return 0.0; }});
  ASSERT_THAT(client->ResolveCloud("Default-Cloud"), IsOk());
  for (const char* kind : {"malformed_json", "html", "truncated", "oversize"}) {
    SCOPED_TRACE(kind);
    const std::string name = absl::StrCat("seg-bad-", kind);
    const int posts = Count("POST /api/serviceenginegroup");
    Fault({{"bad_body_next", 1}, {"bad_body", kind}, {"match", "POST /api/serviceenginegroup"}});
    auto created = client->CreateSeGroup(Spec(name));
    ASSERT_THAT(created, IsOk());
    EXPECT_EQ(created->name, name);
    EXPECT_FALSE(created->uuid.empty());
    EXPECT_EQ(Count("POST /api/serviceenginegroup"), posts + 1);
  }
}

// The create committed, its answer is unusable, and reading it back fails: the error says so
// and carries the new group's uuid.
TEST_F(ClientTest, CreatedButUnreadableGroupCarriesItsUuid) {
  FakeClock clock;
  auto client = NewClientOrDie(Config(), {&clock, [] { return 0.0; }});
  ASSERT_THAT(client->ResolveCloud("Default-Cloud"), IsOk());
  Fault({{"bad_body_next", 1},
         {"bad_body", "malformed_json"},
         {"match", "POST /api/serviceenginegroup"}});
  Fault({{"fail_next", 1}, {"fail_status", 500}, {"match", "GET /api/serviceenginegroup/{uuid}"}});
  auto created = client->CreateSeGroup(Spec("seg-unreadable"));
  ASSERT_THAT(created, Not(IsOk()));
  auto found = client->FindSeGroup("seg-unreadable", "", "Default-Cloud");
  ASSERT_TRUE(found.ok() && found->has_value()) << found.status();
  EXPECT_EQ(CreatedSeGroupUuid(created.status()), (*found)->uuid);
  EXPECT_THAT(std::string(created.status().message()),
              HasSubstr("POST /api/serviceenginegroup: HTTP 201: the response is not JSON"));
  EXPECT_THAT(std::string(created.status().message()), HasSubstr("HTTP 500"));
  EXPECT_EQ(CreatedSeGroupUuid(absl::InternalError("x")), "");
}

// When the answer is lost and the look-up fails, the create may have happened: the error says
// so. A 429 storm never made anything, and says nothing of the kind.
TEST_F(ClientTest, MayHaveTakenEffectOnlyWhenTheOutcomeIsUnknown) {
  FakeClock clock;
  ClientConfig config = Config();
  config.max_retries = 2;
  auto client = NewClientOrDie(config, {&clock, [] { return 0.0; }});
  ASSERT_THAT(client->ResolveCloud("Default-Cloud"), IsOk());
  Fault({{"drop_after_create", 1}});
  Fault({{"fail_next", 1}, {"fail_status", 500}, {"match", "GET /api/serviceenginegroup"}});
  auto dropped = client->CreateSeGroup(Spec("seg-unknown"));
  ASSERT_THAT(dropped, Not(IsOk()));
  EXPECT_TRUE(MayHaveTakenEffect(dropped.status())) << dropped.status();
  EXPECT_THAT(std::string(dropped.status().message()), HasSubstr("while checking whether"));

  Fault({{"throttle_next", 10}, {"retry_after_seconds", 0}});
  auto throttled = client->CreateSeGroup(Spec("seg-throttled"));
  ASSERT_THAT(throttled, Not(IsOk()));
  EXPECT_EQ(HttpStatusOf(throttled.status()), 429);
  EXPECT_FALSE(MayHaveTakenEffect(throttled.status())) << throttled.status();
}

// One operation, however many requests it makes, stays within total_timeout: a create whose
// POST gets no answer does not start a fresh budget for the look-up after it.
TEST_F(ClientTest, TotalTimeoutBoundsAWholeCreate) {
  ClientConfig config = Config();
  config.total_timeout = absl::Seconds(2);
  config.request_timeout = absl::Seconds(2);
  auto client = NewClientOrDie(config);
  ASSERT_THAT(client->ResolveCloud("Default-Cloud"), IsOk());
  Fault({{"hang_next", 100}, {"match", "* /api/serviceenginegroup*"}});
  const absl::Time start = absl::Now();
  auto created = client->CreateSeGroup(Spec("seg-hang"));
  const absl::Duration took = absl::Now() - start;
  ASSERT_THAT(created, Not(IsOk()));
  EXPECT_THAT(created, StatusIs(absl::StatusCode::kDeadlineExceeded));
  EXPECT_TRUE(MayHaveTakenEffect(created.status()));
  EXPECT_LT(took, absl::Milliseconds(3500)) << "the create took " << took;
  ASSERT_THAT(emulator_->Control("DELETE", "faults"), IsOk());
  // A later operation has a budget of its own.
  EXPECT_THAT(client->ListSeGroups("", ""), IsOk());
}

TEST_F(ClientTest, VersionGateRefusesFieldsTheControllerIsTooOldFor) {
  StartEmulator("21.1.1");
  auto client = NewClientOrDie(Config());
  SeGroupSpec spec = Spec("seg-gate");
  spec.fields["hybrid_rss_mode"] = true;
  auto created = client->CreateSeGroup(spec);
  ASSERT_THAT(created, Not(IsOk()));
  EXPECT_THAT(created, StatusIs(absl::StatusCode::kFailedPrecondition));
  std::string msg(created.status().message());
  EXPECT_THAT(msg, HasSubstr("hybrid_rss_mode"));
  EXPECT_THAT(msg, HasSubstr("21.1.3"));
  EXPECT_THAT(msg, HasSubstr("21.1.1"));
  EXPECT_EQ(Count("POST /api/serviceenginegroup"), 0);

  spec.fields.erase("hybrid_rss_mode");
  auto ok = client->CreateSeGroup(spec);
  ASSERT_THAT(ok, IsOk());
  SeGroupSpec update = spec;
  update.fields = {{"use_dp_util_for_scaleout", true}};  // 22.1.3
  auto updated = client->UpdateSeGroup(ok->uuid, update);
  EXPECT_THAT(updated, StatusIs(absl::StatusCode::kFailedPrecondition));
  EXPECT_EQ(Count("PUT /api/serviceenginegroup/{uuid}"), 0);
}

TEST_F(ClientTest, VersionGateUsesTheConfiguredApiVersion) {
  ClientConfig config = Config();
  config.api_version = "20.1.1";
  auto client = NewClientOrDie(config);
  SeGroupSpec spec = Spec("seg-gate-configured");
  spec.fields["hybrid_rss_mode"] = true;
  auto refused = client->CreateSeGroup(spec);
  EXPECT_THAT(refused, StatusIs(absl::StatusCode::kFailedPrecondition));
  EXPECT_THAT(std::string(refused.status().message()), HasSubstr("20.1.1"));
  spec.fields.erase("hybrid_rss_mode");
  EXPECT_THAT(client->CreateSeGroup(spec), IsOk());
}

TEST_F(ClientTest, WorksOverIpv6Loopback) {
  EmulatorProcess::Options options;
  options.extra_args = {"--password", kPassword, "--bind", "::1"};
  auto v6 = EmulatorProcess::Start(options);
  if (!v6.ok()) GTEST_SKIP() << "no IPv6 loopback here: " << v6.status();
  ClientConfig config = Config();
  config.controller = "[::1]:" + std::to_string((*v6)->port());
  config.ca_file = (*v6)->ca_file();
  auto client = NewClientOrDie(config);
  auto version = client->ControllerVersion();
  ASSERT_THAT(version, IsOk());
  EXPECT_THAT(client->CreateSeGroup(Spec("seg-v6")), IsOk());
}

}  // namespace
}  // namespace nsxalb::controller
