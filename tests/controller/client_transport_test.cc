// Unit tests of the Controller client's session, retry, re-login, paging and body-streaming
// logic, against a scripted transport (fake_transport.h) and a clock that moves only when the
// client sleeps (fake_clock.h): no sockets, no TLS, no waiting. What needs real HTTPS (TLS
// verification, kept-alive connections, cancelling a transfer, the emulator's behaviour) is
// tested in client_test.cc, client_limits_test.cc and curl_transport_test.cc.
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "plugin/controller/errors.h"
#include "tests/controller/fake_clock.h"
#include "tests/controller/fake_transport.h"
#include "tests/controller/recording_sink.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::controller {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::Optional;
using Json = nlohmann::json;
using Request = FakeTransport::Request;

constexpr char kBase[] = "https://ctrl.example";
constexpr char kPassword[] = "Fake-Secret-Passw0rd";
constexpr char kGroups[] = "/api/serviceenginegroup?page_size=200";
constexpr char kGroup[] = "/api/serviceenginegroup/serviceenginegroup-1";
constexpr char kCollection[] = "/api/analytics/metrics/collection";

// An SE group object.
Json Group(const std::string& uuid, const std::string& name) {
  return {{"uuid", uuid},
          {"name", name},
          {"url", absl::StrCat(kBase, "/api/serviceenginegroup/", uuid)},
          {"tenant_ref", absl::StrCat(kBase, "/api/tenant/admin")},
          {"cloud_ref", absl::StrCat(kBase, "/api/cloud/cloud-1")}};
}

// A collection page with `results`, and a `next` link when `next` is not empty.
TransportResult PageAnswer(std::vector<Json> results, const std::string& next = "") {
  Json page = {{"count", results.size()}, {"results", std::move(results)}};
  if (!next.empty()) page["next"] = absl::StrCat(kBase, next);
  return FakeTransport::Http(200, page.dump());
}

// A metrics collection request: one SE's CPU.
Json CpuRequest() {
  return {{"metric_requests",
           {{{"id", "cpu"}, {"entity_uuid", "se-1"}, {"metric_id", "se_stats.avg_cpu_usage"}}}}};
}

// "METHOD path" of each request, the session's (login, logout) included.
std::vector<std::string> Lines(const std::vector<Request>& requests) {
  std::vector<std::string> out;
  for (const Request& r : requests) out.push_back(absl::StrCat(r.method, " ", r.path));
  return out;
}

class ClientTransportTest : public ::testing::Test {
 protected:
  void SetUp() override { fake_.Always("POST", "/logout", FakeTransport::Http(200)); }

  // Every request the client sent found an answer.
  void TearDown() override { EXPECT_THAT(fake_.unscripted(), IsEmpty()); }

  static ClientConfig Config() {
    ClientConfig c;
    c.controller = "ctrl.example";
    c.username = "admin";
    c.password = kPassword;
    c.backoff_initial = absl::Milliseconds(10);
    c.backoff_max = absl::Milliseconds(50);
    return c;
  }

  // A client over the fake transport and the fake clock, with constant `jitter`.
  std::unique_ptr<Client> NewClientOrDie(const ClientConfig& config = Config(),
                                         double jitter = 0.0) {
    ClientHooks hooks;
    hooks.clock = &clock_;
    hooks.jitter = [jitter] { return jitter; };
    hooks.transport = fake_.Factory();
    auto client = NewClient(config, std::move(hooks));
    EXPECT_THAT(client, IsOk());
    return client.ok() ? *std::move(client) : nullptr;
  }

  int Logins() const { return static_cast<int>(fake_.requests("POST", "/login").size()); }

  FakeClock clock_;
  FakeTransport fake_;  // outlives the clients of the tests, which log out through it
};

// The login carries the credentials and no session; every later request, reads and writes alike,
// carries the session cookies, the CSRF token, the API version and the tenant. The logout at the
// client's end carries the session too.
TEST_F(ClientTransportTest, LogsInOnceThenSendsTheSessionOnEveryRequest) {
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  fake_.Queue("GET", kGroups, PageAnswer({Group("serviceenginegroup-1", "seg-a")}));
  fake_.Queue("POST", "/api/serviceenginegroup",
              FakeTransport::Http(201, Group("serviceenginegroup-2", "seg-b").dump()));
  fake_.Queue("DELETE", kGroup, FakeTransport::Http(204));
  {
    auto client = NewClientOrDie();
    auto listed = client->ListSeGroups("", "");
    ASSERT_THAT(listed, IsOk());
    ASSERT_EQ(listed->size(), 1u);
    EXPECT_EQ(listed->front().name, "seg-a");
    SeGroupSpec spec;
    spec.name = "seg-b";
    spec.fields = {{"vcpus_per_se", 2}};
    auto created = client->CreateSeGroup(spec);
    ASSERT_THAT(created, IsOk());
    EXPECT_EQ(created->uuid, "serviceenginegroup-2");
    ASSERT_THAT(client->DeleteSeGroup("serviceenginegroup-1", ""), IsOk());
  }
  const std::vector<Request> sent = fake_.requests();
  ASSERT_THAT(Lines(sent), ElementsAre("POST /login", absl::StrCat("GET ", kGroups),
                                       "POST /api/serviceenginegroup",
                                       absl::StrCat("DELETE ", kGroup), "POST /logout"));
  EXPECT_EQ(fake_.transports_made(), 1);

  const Request& login = sent[0];
  EXPECT_EQ(Json::parse(login.body), (Json{{"username", "admin"}, {"password", kPassword}}));
  EXPECT_THAT(login.Header("Content-Type"), Optional(std::string("application/json")));
  EXPECT_THAT(login.Header("Referer"), Optional(std::string("https://ctrl.example/")));
  EXPECT_EQ(login.Header("X-CSRFToken"), std::nullopt);
  EXPECT_EQ(login.Header("Cookie"), std::nullopt);
  EXPECT_EQ(login.Header("X-Avi-Version"), std::nullopt);

  for (size_t i = 1; i < sent.size(); ++i) {
    const Request& r = sent[i];
    SCOPED_TRACE(Lines({r})[0]);
    EXPECT_THAT(r.Header("X-CSRFToken"), Optional(std::string("csrf-1")));
    EXPECT_THAT(r.Header("Cookie"), Optional(std::string("csrftoken=csrf-1; sessionid=sess-1")));
    EXPECT_THAT(r.Header("X-Avi-Version"), Optional(std::string("22.1.3")));
    EXPECT_THAT(r.Header("Referer"), Optional(std::string("https://ctrl.example/")));
    EXPECT_THAT(r.Header("Accept"), Optional(std::string("application/json")));
  }
  for (size_t i = 1; i + 1 < sent.size(); ++i) {
    EXPECT_THAT(sent[i].Header("X-Avi-Tenant"), Optional(std::string("admin")));
  }
  // The create: not idempotent (never resent blindly), its body the spec.
  EXPECT_FALSE(sent[2].idempotent);
  EXPECT_TRUE(sent[1].idempotent);
  EXPECT_THAT(sent[2].Header("Content-Type"), Optional(std::string("application/json")));
  EXPECT_EQ(Json::parse(sent[2].body), (Json{{"name", "seg-b"}, {"vcpus_per_se", 2}}));
  EXPECT_THAT(clock_.sleeps(), IsEmpty());
}

// A configured api_version below the Controller's is the X-Avi-Version sent; a tenant named by
// the call is the X-Avi-Tenant sent, one given as a ref by uuid X-Avi-Tenant-UUID.
TEST_F(ClientTransportTest, SendsTheConfiguredApiVersionAndTheCallsTenant) {
  ClientConfig config = Config();
  config.api_version = "21.1.1";
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1", "22.1.3"));
  fake_.Always("GET", kGroups, PageAnswer({}));
  auto client = NewClientOrDie(config);
  auto version = client->ControllerVersion();
  ASSERT_THAT(version, IsOk());
  EXPECT_EQ(version->controller.ToString(), "22.1.3");
  EXPECT_EQ(version->api.ToString(), "21.1.1");
  ASSERT_THAT(client->ListSeGroups("team-a", ""), IsOk());
  ASSERT_THAT(client->ListSeGroups("/api/tenant/tenant-42", ""), IsOk());
  const std::vector<Request> gets = fake_.requests("GET", kGroups);
  ASSERT_EQ(gets.size(), 2u);
  EXPECT_THAT(gets[0].Header("X-Avi-Version"), Optional(std::string("21.1.1")));
  EXPECT_THAT(gets[0].Header("X-Avi-Tenant"), Optional(std::string("team-a")));
  EXPECT_THAT(gets[1].Header("X-Avi-Tenant-UUID"), Optional(std::string("tenant-42")));
  EXPECT_EQ(gets[1].Header("X-Avi-Tenant"), std::nullopt);
}

// 419 (the session expired): the client logs in again and repeats the request with the new
// session, at once (no backoff sleep).
TEST_F(ClientTransportTest, SessionExpiredLogsInAgainAndRetries) {
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-2", "sess-2"));
  fake_.Queue("GET", kGroups, PageAnswer({Group("serviceenginegroup-1", "seg-a")}));
  fake_.Queue("GET", kGroups, FakeTransport::Http(419, R"({"error":"session expired"})"));
  fake_.Queue("GET", kGroups, PageAnswer({Group("serviceenginegroup-1", "seg-a")}));
  auto client = NewClientOrDie();
  ASSERT_THAT(client->ListSeGroups("", ""), IsOk());
  auto after = client->ListSeGroups("", "");
  ASSERT_THAT(after, IsOk());
  ASSERT_EQ(after->size(), 1u);
  EXPECT_EQ(Logins(), 2);
  const std::vector<Request> gets = fake_.requests("GET", kGroups);
  ASSERT_EQ(gets.size(), 3u);
  EXPECT_THAT(gets[1].Header("X-CSRFToken"), Optional(std::string("csrf-1")));
  EXPECT_THAT(gets[2].Header("X-CSRFToken"), Optional(std::string("csrf-2")));
  EXPECT_THAT(gets[2].Header("Cookie"),
              Optional(std::string("csrftoken=csrf-2; sessionid=sess-2")));
  EXPECT_THAT(clock_.sleeps(), IsEmpty());

  // The next call keeps the new session.
  fake_.Queue("GET", kGroups, PageAnswer({}));
  ASSERT_THAT(client->ListSeGroups("", ""), IsOk());
  EXPECT_EQ(Logins(), 2);
}

// 401 (the session was rejected) on a write: log in again, repeat the PUT with the new CSRF
// token.
TEST_F(ClientTransportTest, RejectedSessionLogsInAgainAndRetriesTheWrite) {
  Json group = Group("serviceenginegroup-1", "seg-a");
  group["vcpus_per_se"] = 2;
  Json updated = group;
  updated["vcpus_per_se"] = 4;
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-2", "sess-2"));
  fake_.Queue("GET", kGroup, FakeTransport::Http(200, group.dump()));
  fake_.Queue("PUT", kGroup, FakeTransport::Http(401, R"({"detail":"not logged in"})"));
  fake_.Queue("PUT", kGroup, FakeTransport::Http(200, updated.dump()));
  auto client = NewClientOrDie();
  SeGroupSpec spec;
  spec.name = "seg-a";
  spec.fields = {{"vcpus_per_se", 4}};
  auto result = client->UpdateSeGroup("serviceenginegroup-1", spec);
  ASSERT_THAT(result, IsOk());
  EXPECT_EQ(result->body["vcpus_per_se"], 4);
  EXPECT_EQ(Logins(), 2);
  const std::vector<Request> puts = fake_.requests("PUT", kGroup);
  ASSERT_EQ(puts.size(), 2u);
  EXPECT_THAT(puts[0].Header("X-CSRFToken"), Optional(std::string("csrf-1")));
  EXPECT_THAT(puts[1].Header("X-CSRFToken"), Optional(std::string("csrf-2")));
  EXPECT_EQ(puts[1].body, puts[0].body);
}

// The re-login happens once per call: a second 401 is the call's error.
TEST_F(ClientTransportTest, SecondRejectionAfterTheReloginIsUnauthenticated) {
  fake_.Always("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  fake_.Always("GET", kGroups, FakeTransport::Http(401, R"({"detail":"not allowed"})"));
  auto client = NewClientOrDie();
  auto listed = client->ListSeGroups("", "");
  ASSERT_THAT(listed, Not(IsOk()));
  EXPECT_THAT(listed, StatusIs(absl::StatusCode::kUnauthenticated));
  EXPECT_EQ(HttpStatusOf(listed.status()), 401);
  EXPECT_EQ(Logins(), 2);
  EXPECT_EQ(fake_.requests("GET", kGroups).size(), 2u);
}

// A rejected login is never retried, and says what to do.
TEST_F(ClientTransportTest, RejectedLoginIsASetupProblem) {
  fake_.Always("POST", "/login", FakeTransport::Http(401, R"({"error":"Invalid credentials"})"));
  auto client = NewClientOrDie();
  auto version = client->ControllerVersion();
  ASSERT_THAT(version, Not(IsOk()));
  EXPECT_THAT(version, StatusIs(absl::StatusCode::kUnauthenticated));
  EXPECT_EQ(SetupProblemOf(version.status()), SetupProblem::kLoginRejected);
  EXPECT_THAT(std::string(version.status().message()), Not(HasSubstr(kPassword)));
  EXPECT_EQ(Logins(), 1);
}

// 503 with Retry-After in seconds: the client sleeps exactly that long on its clock.
TEST_F(ClientTransportTest, HonoursRetryAfterSecondsOn503) {
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  fake_.Queue("GET", kGroups, FakeTransport::Http(503, "busy", {{"retry-after", "7"}}));
  fake_.Queue("GET", kGroups, PageAnswer({Group("serviceenginegroup-1", "seg-a")}));
  auto client = NewClientOrDie();
  auto listed = client->ListSeGroups("", "");
  ASSERT_THAT(listed, IsOk());
  EXPECT_THAT(clock_.sleeps(), ElementsAre(absl::Seconds(7)));
  EXPECT_EQ(fake_.requests("GET", kGroups).size(), 2u);
}

// Retry-After as an HTTP date: the sleep lasts until then, on the client's clock.
TEST_F(ClientTransportTest, HonoursRetryAfterDateOn503) {
  const std::string in_30s = absl::FormatTime(
      "%a, %d %b %Y %H:%M:%S GMT", clock_.Now() + absl::Seconds(30), absl::UTCTimeZone());
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  fake_.Queue("GET", kGroups, FakeTransport::Http(503, "", {{"retry-after", in_30s}}));
  fake_.Queue("GET", kGroups, PageAnswer({}));
  auto client = NewClientOrDie();
  ASSERT_THAT(client->ListSeGroups("", ""), IsOk());
  EXPECT_THAT(clock_.sleeps(), ElementsAre(absl::Seconds(30)));
}

// Without Retry-After, the capped exponential backoff with jitter: 10 ms then 20 ms nominal,
// 0.75 of each with jitter 0.5.
TEST_F(ClientTransportTest, RetriesWithBackoffThenSucceeds) {
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  fake_.Queue("GET", kGroups, FakeTransport::Http(503));
  fake_.Queue("GET", kGroups, FakeTransport::Http(503));
  fake_.Queue("GET", kGroups, PageAnswer({}));
  auto client = NewClientOrDie(Config(), 0.5);
  auto listed = client->ListSeGroups("", "");
  ASSERT_THAT(listed, IsOk());
  EXPECT_EQ(fake_.requests("GET", kGroups).size(), 3u);
  EXPECT_THAT(clock_.sleeps(), ElementsAre(absl::Microseconds(7500), absl::Microseconds(15000)));
}

// max_retries bounds the retries: then a clear Unavailable naming the attempts.
TEST_F(ClientTransportTest, GivesUpAfterMaxRetries) {
  ClientConfig config = Config();
  config.max_retries = 3;
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  fake_.Always("GET", kGroups, FakeTransport::Http(502, R"({"error":"bad gateway"})"));
  auto client = NewClientOrDie(config);
  auto listed = client->ListSeGroups("", "");
  ASSERT_THAT(listed, Not(IsOk()));
  EXPECT_THAT(listed, StatusIs(absl::StatusCode::kUnavailable));
  EXPECT_EQ(HttpStatusOf(listed.status()), 502);
  EXPECT_THAT(std::string(listed.status().message()), HasSubstr("gave up after 4 attempts"));
  EXPECT_EQ(fake_.requests("GET", kGroups).size(), 4u);
  EXPECT_EQ(clock_.sleeps().size(), 3u);
}

// total_timeout bounds the retries before max_retries does: no sleep past the budget.
TEST_F(ClientTransportTest, TotalTimeoutBoundsRetries) {
  ClientConfig config = Config();
  config.max_retries = 100;
  config.backoff_initial = absl::Seconds(1);
  config.backoff_max = absl::Seconds(4);
  config.total_timeout = absl::Seconds(10);
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  fake_.Always("GET", kGroups, FakeTransport::Http(504));
  auto client = NewClientOrDie(config, 0.999);
  auto listed = client->ListSeGroups("", "");
  ASSERT_THAT(listed, Not(IsOk()));
  EXPECT_THAT(listed, StatusIs(absl::StatusCode::kDeadlineExceeded));
  EXPECT_EQ(HttpStatusOf(listed.status()), 504);
  EXPECT_THAT(std::string(listed.status().message()),
              HasSubstr("no time left to retry within total_timeout 10s"));
  absl::Duration slept;
  for (absl::Duration d : clock_.sleeps()) slept += d;
  EXPECT_LE(slept, absl::Seconds(10));
  EXPECT_GT(slept + config.backoff_max, absl::Seconds(10));
  EXPECT_LT(fake_.requests("GET", kGroups).size(), 10u);
}

// A connection-level failure that may clear is retried; one that cannot (TLS verification) is
// the call's error at once.
TEST_F(ClientTransportTest, RetriesConnectionFailuresButNotTlsFailures) {
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  fake_.Queue("GET", kGroups,
              FakeTransport::Failure(absl::UnavailableError("connection reset"), true, true));
  fake_.Queue("GET", kGroups, PageAnswer({}));
  fake_.Queue("GET", kGroups,
              FakeTransport::Failure(absl::FailedPreconditionError("TLS verification failed"),
                                     false, false));
  auto client = NewClientOrDie();
  ASSERT_THAT(client->ListSeGroups("", ""), IsOk());
  EXPECT_EQ(clock_.sleeps().size(), 1u);
  auto tls = client->ListSeGroups("", "");
  EXPECT_THAT(tls, StatusIs(absl::StatusCode::kFailedPrecondition));
  EXPECT_EQ(fake_.requests("GET", kGroups).size(), 3u);
  EXPECT_EQ(clock_.sleeps().size(), 1u);
}

// Three pages linked by `next` are gathered into one list, in order, each page read once.
TEST_F(ClientTransportTest, GathersAThreePageListing) {
  ClientConfig config = Config();
  config.page_size = 2;
  const std::string first = "/api/serviceenginegroup?page_size=2";
  const std::string second = "/api/serviceenginegroup?page_size=2&page=2";
  const std::string third = "/api/serviceenginegroup?page_size=2&page=3";
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  fake_.Queue("GET", first,
              PageAnswer({Group("serviceenginegroup-1", "g1"), Group("serviceenginegroup-2", "g2")},
                         second));
  fake_.Queue("GET", second,
              PageAnswer({Group("serviceenginegroup-3", "g3"), Group("serviceenginegroup-4", "g4")},
                         third));
  fake_.Queue("GET", third, PageAnswer({Group("serviceenginegroup-5", "g5")}));
  auto client = NewClientOrDie(config);
  auto listed = client->ListSeGroups("", "");
  ASSERT_THAT(listed, IsOk());
  std::vector<std::string> names;
  for (const SeGroup& g : *listed) names.push_back(g.name);
  EXPECT_THAT(names, ElementsAre("g1", "g2", "g3", "g4", "g5"));
  EXPECT_THAT(Lines(fake_.requests()),
              ElementsAre("POST /login", "GET " + first, "GET " + second, "GET " + third));
}

// A `next` link back to a page already read is the Controller's bug, not an endless listing.
TEST_F(ClientTransportTest, ListingWhoseNextRepeatsAPageFails) {
  ClientConfig config = Config();
  config.page_size = 1;
  const std::string first = "/api/serviceenginegroup?page_size=1";
  const std::string second = "/api/serviceenginegroup?page_size=1&page=2";
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  fake_.Queue("GET", first, PageAnswer({Group("serviceenginegroup-1", "g1")}, second));
  fake_.Queue("GET", second, PageAnswer({Group("serviceenginegroup-2", "g2")}, first));
  auto client = NewClientOrDie(config);
  auto listed = client->ListSeGroups("", "");
  ASSERT_THAT(listed, Not(IsOk()));
  EXPECT_THAT(listed, StatusIs(absl::StatusCode::kInternal));
  EXPECT_THAT(std::string(listed.status().message()), HasSubstr("repeats a page"));
}

// A page that fails mid-listing is retried like any GET; the listing goes on from that page.
TEST_F(ClientTransportTest, ListingRetriesAFailedPage) {
  ClientConfig config = Config();
  config.page_size = 1;
  const std::string first = "/api/serviceenginegroup?page_size=1";
  const std::string second = "/api/serviceenginegroup?page_size=1&page=2";
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  fake_.Queue("GET", first, PageAnswer({Group("serviceenginegroup-1", "g1")}, second));
  fake_.Queue("GET", second, FakeTransport::Http(503, "", {{"retry-after", "2"}}));
  fake_.Queue("GET", second, PageAnswer({Group("serviceenginegroup-2", "g2")}));
  auto client = NewClientOrDie(config);
  auto listed = client->ListSeGroups("", "");
  ASSERT_THAT(listed, IsOk());
  EXPECT_EQ(listed->size(), 2u);
  EXPECT_EQ(fake_.requests("GET", first).size(), 1u);
  EXPECT_EQ(fake_.requests("GET", second).size(), 2u);
  EXPECT_THAT(clock_.sleeps(), ElementsAre(absl::Seconds(2)));
}

// 412 on the PUT (another writer changed the group since the GET): read it again and lay the
// change over the fresh object, with its _last_modified, keeping the other writer's field.
TEST_F(ClientTransportTest, UpdateAnswered412ReReadsAndRetries) {
  Json v1 = Group("serviceenginegroup-1", "seg-a");
  v1["vcpus_per_se"] = 2;
  v1["_last_modified"] = "100";
  Json v2 = v1;
  v2["connection_memory_percentage"] = 70;
  v2["_last_modified"] = "200";
  Json v3 = v2;
  v3["vcpus_per_se"] = 3;
  v3["_last_modified"] = "300";
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  fake_.Queue("GET", kGroup, FakeTransport::Http(200, v1.dump()));
  fake_.Queue("GET", kGroup, FakeTransport::Http(200, v2.dump()));
  fake_.Queue("PUT", kGroup, FakeTransport::Http(412, R"({"error":"Concurrent update"})"));
  fake_.Queue("PUT", kGroup, FakeTransport::Http(200, v3.dump()));
  auto client = NewClientOrDie();
  SeGroupSpec spec;
  spec.name = "seg-a";
  spec.fields = {{"vcpus_per_se", 3}};
  auto updated = client->UpdateSeGroup("serviceenginegroup-1", spec);
  ASSERT_THAT(updated, IsOk());
  EXPECT_EQ(updated->body["_last_modified"], "300");
  EXPECT_THAT(Lines(fake_.requests()),
              ElementsAre("POST /login", absl::StrCat("GET ", kGroup), absl::StrCat("PUT ", kGroup),
                          absl::StrCat("GET ", kGroup), absl::StrCat("PUT ", kGroup)));
  const std::vector<Request> puts = fake_.requests("PUT", kGroup);
  Json first = Json::parse(puts[0].body);
  Json second = Json::parse(puts[1].body);
  EXPECT_EQ(first["_last_modified"], "100");
  EXPECT_EQ(first["vcpus_per_se"], 3);
  EXPECT_EQ(second["_last_modified"], "200");
  EXPECT_EQ(second["vcpus_per_se"], 3);
  EXPECT_EQ(second["connection_memory_percentage"], 70);
  EXPECT_THAT(clock_.sleeps(), IsEmpty());  // a re-read, not a backoff
}

// A 412 after every read: kUpdateAttempts GET+PUT pairs, then Aborted naming the group.
TEST_F(ClientTransportTest, UpdateGivesUpAfterBounded412s) {
  Json group = Group("serviceenginegroup-1", "seg-a");
  group["vcpus_per_se"] = 2;
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  fake_.Always("GET", kGroup, FakeTransport::Http(200, group.dump()));
  fake_.Always("PUT", kGroup, FakeTransport::Http(412, R"({"error":"Concurrent update"})"));
  auto client = NewClientOrDie();
  SeGroupSpec spec;
  spec.name = "seg-a";
  spec.fields = {{"vcpus_per_se", 3}};
  auto updated = client->UpdateSeGroup("serviceenginegroup-1", spec);
  ASSERT_THAT(updated, Not(IsOk()));
  EXPECT_THAT(updated, StatusIs(absl::StatusCode::kAborted));
  EXPECT_THAT(std::string(updated.status().message()),
              ::testing::AllOf(HasSubstr("seg-a"), HasSubstr("412"),
                               HasSubstr(absl::StrCat(kUpdateAttempts))));
  EXPECT_EQ(fake_.requests("GET", kGroup).size(), static_cast<size_t>(kUpdateAttempts));
  EXPECT_EQ(fake_.requests("PUT", kGroup).size(), static_cast<size_t>(kUpdateAttempts));
}

// A 503 to a create leaves its outcome unknown: the client looks the group up by name in the
// cloud it was created in before it posts again, so it never creates the group twice.
TEST_F(ClientTransportTest, CreateAnswered503LooksForTheGroupBeforeRetrying) {
  const std::string cloud = "/api/cloud?name=Default-Cloud";
  const std::string lookup =
      "/api/serviceenginegroup?page_size=200&name=seg-new&cloud_ref.uuid=cloud-1";
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  fake_.Queue("POST", "/api/serviceenginegroup", FakeTransport::Http(503));
  fake_.Queue(
      "GET", cloud,
      PageAnswer({{{"uuid", "cloud-1"}, {"name", "Default-Cloud"}, {"vtype", "CLOUD_VCENTER"}}}));
  fake_.Queue("GET", lookup, PageAnswer({}));
  fake_.Queue("POST", "/api/serviceenginegroup",
              FakeTransport::Http(201, Group("serviceenginegroup-9", "seg-new").dump()));
  auto client = NewClientOrDie();
  SeGroupSpec spec;
  spec.name = "seg-new";
  auto created = client->CreateSeGroup(spec);
  ASSERT_THAT(created, IsOk());
  EXPECT_EQ(created->uuid, "serviceenginegroup-9");
  EXPECT_THAT(Lines(fake_.requests()),
              ElementsAre("POST /login", "POST /api/serviceenginegroup", "GET " + cloud,
                          "GET " + lookup, "POST /api/serviceenginegroup"));
  EXPECT_EQ(clock_.sleeps().size(), 1u);
}

// The client makes its transport once, on the first request, with its TLS settings; a transport
// that cannot be made is every call's error, without retries.
TEST_F(ClientTransportTest, MakesTheTransportOnceWithTheTlsSettings) {
  ClientConfig config = Config();
  config.ca_pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  fake_.Always("GET", kGroups, PageAnswer({}));
  {
    auto client = NewClientOrDie(config);
    EXPECT_EQ(fake_.transports_made(), 0);  // no traffic before the first call
    ASSERT_THAT(client->ListSeGroups("", ""), IsOk());
    ASSERT_THAT(client->ListSeGroups("", ""), IsOk());
  }
  EXPECT_EQ(fake_.transports_made(), 1);
  EXPECT_EQ(fake_.tls().ca_pem, config.ca_pem);
  EXPECT_FALSE(fake_.tls().insecure);

  int attempts = 0;
  ClientHooks hooks;
  hooks.clock = &clock_;
  hooks.transport = [&attempts](
                        TlsOptions,
                        const std::atomic<bool>*) -> absl::StatusOr<std::unique_ptr<Transport>> {
    ++attempts;
    return absl::FailedPreconditionError("controller: libcurl.so.4 could not be loaded");
  };
  auto broken = NewClient(Config(), std::move(hooks));
  ASSERT_THAT(broken, IsOk());
  for (int i = 0; i < 2; ++i) {
    auto version = (*broken)->ControllerVersion();
    EXPECT_THAT(version, StatusIs(absl::StatusCode::kFailedPrecondition));
    EXPECT_THAT(std::string(version.status().message()), HasSubstr("libcurl.so.4"));
  }
  EXPECT_EQ(attempts, 1);
  EXPECT_THAT(clock_.sleeps(), IsEmpty());
}

// After Cancel, calls return Cancelled without sending anything.
TEST_F(ClientTransportTest, CancelledClientSendsNothing) {
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  auto client = NewClientOrDie();
  ASSERT_THAT(client->ControllerVersion(), IsOk());
  client->Cancel();
  EXPECT_EQ(client->ListSeGroups("", "").status().code(), absl::StatusCode::kCancelled);
  client.reset();  // no logout either: a cancelled client leaves at once
  EXPECT_THAT(Lines(fake_.requests()), ElementsAre("POST /login"));
}

// A streamed metrics collection starts its sink over on every attempt: an answer broken off
// half way (retried after a backoff), a 503 (its body collected, not streamed) and a 419 (a
// re-login) leave the sink holding only the last attempt's body, once, in chunks.
TEST_F(ClientTransportTest, StreamedCollectionStartsTheSinkOverOnEveryAttempt) {
  const std::string answer =
      Json{{"series", {{"cpu", {{"se-1", Json::array({{{"data", Json::array()}}})}}}}}}.dump();
  fake_.set_stream_chunk_bytes(7);
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-2", "sess-2"));
  fake_.Queue("POST", kCollection,
              FakeTransport::BrokenOff(200, answer.substr(0, answer.size() / 2),
                                       absl::UnavailableError("connection reset")));
  fake_.Queue("POST", kCollection, FakeTransport::Http(503, R"({"error":"busy"})"));
  fake_.Queue("POST", kCollection, FakeTransport::Http(419, R"({"error":"session expired"})"));
  fake_.Queue("POST", kCollection, FakeTransport::Http(200, answer));
  auto client = NewClientOrDie();
  RecordingSink sink;
  ASSERT_THAT(client->StreamMetricsCollection(CpuRequest(), "", sink), IsOk());
  EXPECT_EQ(sink.data(), answer);
  EXPECT_EQ(sink.begins(), 2);  // the broken-off 200 and the last one
  EXPECT_GT(sink.writes(), 2);
  EXPECT_FALSE(sink.wrote_before_begin());
  const std::vector<Request> posts = fake_.requests("POST", kCollection);
  ASSERT_EQ(posts.size(), 4u);
  for (const Request& post : posts) {
    EXPECT_EQ(Json::parse(post.body), CpuRequest());
    EXPECT_TRUE(post.idempotent);
  }
  EXPECT_EQ(Logins(), 2);
  EXPECT_EQ(clock_.sleeps().size(), 2u);  // after the broken-off answer and the 503
}

// A streamed collection is checked as QueryMetricsCollection checks it; the sink's error is the
// call's error, as the sink gave it, and is not retried; a 4xx is the call's error and never
// reaches the sink.
TEST_F(ClientTransportTest, StreamedCollectionErrors) {
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  auto client = NewClientOrDie();
  RecordingSink sink;
  EXPECT_THAT(client->StreamMetricsCollection(Json{{"metric_requests", 1}}, "", sink),
              StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(fake_.requests("POST", kCollection), IsEmpty());

  fake_.Queue("POST", kCollection, FakeTransport::Http(200, R"({"series":{}})"));
  sink.FailWriteBeyond(3, absl::DataLossError("sink: cannot keep it"));
  EXPECT_EQ(client->StreamMetricsCollection(CpuRequest(), "", sink),
            absl::DataLossError("sink: cannot keep it"));
  EXPECT_EQ(fake_.requests("POST", kCollection).size(), 1u);

  RecordingSink untouched;
  fake_.Queue("POST", kCollection, FakeTransport::Http(400, R"({"error":"bad metric_id"})"));
  absl::Status rejected = client->StreamMetricsCollection(CpuRequest(), "team-a", untouched);
  EXPECT_THAT(rejected, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(std::string(rejected.message()), HasSubstr("bad metric_id"));
  EXPECT_EQ(untouched.begins(), 0);
  EXPECT_EQ(untouched.writes(), 0);
  EXPECT_THAT(fake_.requests("POST", kCollection).back().Header("X-Avi-Tenant"),
              Optional(std::string("team-a")));
  EXPECT_THAT(clock_.sleeps(), IsEmpty());
}

// The SEs of a whole tenant come from one paged listing with only the fields a ServiceEngine
// holds and their runtime joined in, one request a page, whatever their groups.
TEST_F(ClientTransportTest, ListsEveryServiceEngineOfATenantInOnePagedListing) {
  const std::string first =
      "/api/serviceengine?page_size=200&fields=uuid,name,se_group_ref,resources,enable_state"
      "&join_subresources=runtime";
  const std::string second = absl::StrCat(first, "&page=2");
  auto se = [](const std::string& uuid, const std::string& group, int vcpus) {
    return Json{{"uuid", uuid},
                {"name", uuid + "-name"},
                {"se_group_ref", absl::StrCat(kBase, "/api/serviceenginegroup/", group)},
                {"resources", {{"num_vcpus", vcpus}, {"memory", 4096}, {"disk", 20}}}};
  };
  fake_.Queue("POST", "/login", FakeTransport::LoginAnswer("csrf-1", "sess-1"));
  fake_.Queue("GET", first, PageAnswer({se("se-1", "g-1", 2), se("se-2", "g-2", 4)}, second));
  Json third = se("se-3", "g-3", 8);
  third["enable_state"] = "SE_STATE_DISABLED";
  third["runtime"] = {{"oper_status", {{"state", "OPER_DISABLING"}}},
                      {"se_grp_reboot_pending", true}};
  fake_.Queue("GET", second, PageAnswer({third}));
  auto client = NewClientOrDie();
  auto listed = client->ListTenantServiceEngines("team-a");
  ASSERT_THAT(listed, IsOk());
  ASSERT_EQ(listed->size(), 3u);
  EXPECT_EQ((*listed)[0].uuid, "se-1");
  EXPECT_EQ((*listed)[0].name, "se-1-name");
  EXPECT_THAT((*listed)[1].se_group_ref, HasSubstr("/api/serviceenginegroup/g-2"));
  EXPECT_EQ((*listed)[1].num_vcpus, 4);
  EXPECT_EQ((*listed)[2].num_vcpus, 8);
  EXPECT_EQ((*listed)[2].memory_mb, 4096);
  EXPECT_EQ((*listed)[2].disk_gb, 20);
  // Without a runtime (a Controller that ignores join_subresources): unknown, not pending.
  EXPECT_EQ((*listed)[0].enable_state, "");
  EXPECT_EQ((*listed)[0].oper_state, "");
  EXPECT_FALSE((*listed)[0].reboot_pending);
  EXPECT_EQ((*listed)[2].enable_state, "SE_STATE_DISABLED");
  EXPECT_EQ((*listed)[2].oper_state, "OPER_DISABLING");
  EXPECT_TRUE((*listed)[2].reboot_pending);
  EXPECT_THAT(Lines(fake_.requests()), ElementsAre("POST /login", absl::StrCat("GET ", first),
                                                   absl::StrCat("GET ", second)));
  EXPECT_THAT(fake_.requests("GET", first)[0].Header("X-Avi-Tenant"),
              Optional(std::string("team-a")));
}

}  // namespace
}  // namespace nsxalb::controller
