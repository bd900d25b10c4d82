// Unit tests of the emulator's parts: field rules, counters, sessions, faults, flags and the
// object store. No network. (Versions and the field catalog are tested in tests/controller.)
#include <unistd.h>

#include <cstdio>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "emulator/config.h"
#include "emulator/counters.h"
#include "emulator/faults.h"
#include "emulator/field_rules.h"
#include "emulator/sessions.h"
#include "emulator/store.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::emulator {
namespace {

using ::nsxalb::testing::IsOk;
using ::testing::Not;

using ::nlohmann::json;
using ::testing::HasSubstr;

using ::nsxalb::controller::ApiVersion;

ApiVersion V(const std::string& s) {
  absl::StatusOr<ApiVersion> v = ApiVersion::ParseExact(s);
  EXPECT_THAT(v, IsOk()) << s;
  return v.value_or(ApiVersion{});
}

TEST(FieldRulesTest, RejectsFieldsNewerThanTheRequest) {
  absl::Status s = CheckFieldVersions({{"name", "x"}, {"hybrid_rss_mode", true}}, V("18.2.8"));
  EXPECT_TRUE(absl::IsInvalidArgument(s));
  EXPECT_EQ(s.message(),
            "Incoming request (v18_2_8) has field (hybrid_rss_mode) introduced in later "
            "versions(v21_1_3).");
  EXPECT_THAT(CheckFieldVersions({{"hybrid_rss_mode", true}}, V("21.1.3")), IsOk());
  EXPECT_THAT(CheckFieldVersions({{"unknown_field", 1}, {"vcpus_per_se", 2}}, V("16.1.1")), IsOk());
  absl::Status q = CheckFieldVersions({{"max_queues_per_vnic", 2}}, V("20.1.0"));
  EXPECT_THAT(std::string(q.message()), HasSubstr("versions(v20_1_1)"));
  EXPECT_THAT(CheckFieldVersions({{"max_queues_per_vnic", 2}}, V("18.2.7")), IsOk());
}

TEST(FieldRulesTest, ChecksKindsRangesAndEnums) {
  const ApiVersion c = V("22.1.3");
  EXPECT_THAT(CheckFieldValues({{"vcpus_per_se", 4}, {"ha_mode", "HA_MODE_SHARED_PAIR"}}, c),
              IsOk());
  EXPECT_THAT(std::string(CheckFieldValues({{"max_cpu_usage", 95}}, c).message()),
              HasSubstr("max_cpu_usage"));
  EXPECT_THAT(std::string(CheckFieldValues({{"vcpus_per_se", "two"}}, c).message()),
              HasSubstr("vcpus_per_se"));
  EXPECT_THAT(std::string(CheckFieldValues({{"num_dispatcher_cores", 3}}, c).message()),
              HasSubstr("0,1,2,4,8,16"));
  EXPECT_THAT(std::string(CheckFieldValues({{"ha_mode", "HA_MODE_BOGUS"}}, c).message()),
              HasSubstr("ha_mode"));
  // memory_per_se has a range only from 30.1 on.
  EXPECT_THAT(CheckFieldValues({{"memory_per_se", 1024}}, c), IsOk());
  EXPECT_THAT(CheckFieldValues({{"memory_per_se", 1024}}, V("30.1.1")), Not(IsOk()));
}

TEST(FieldRulesTest, AcceptsSpecialValuesOutsideTheRange) {
  const ApiVersion c = V("22.1.3");
  EXPECT_THAT(CheckFieldValues({{"se_pcap_reinit_frequency", 0}}, c), IsOk());
  EXPECT_THAT(CheckFieldValues({{"se_pcap_reinit_frequency", 43200}}, c), IsOk());
  EXPECT_EQ(std::string(CheckFieldValues({{"se_pcap_reinit_frequency", 1}}, c).message()),
            "Value 1 of field se_pcap_reinit_frequency is out of range [900-43200]. Special "
            "values are 0.");
  EXPECT_THAT(CheckFieldValues({{"se_vnic_tx_sw_queue_flush_frequency", 0}}, c), IsOk());
  EXPECT_THAT(CheckFieldValues({{"ntp_sync_status_interval", 0}}, c), IsOk());
  EXPECT_THAT(CheckFieldValues({{"app_cache_percent", 0}}, c), IsOk());
  EXPECT_THAT(CheckFieldValues({{"metrics_collection_mode", 9}}, V("30.2.1")), IsOk());
  EXPECT_THAT(CheckFieldValues({{"metrics_collection_mode", 8}}, V("30.2.1")), Not(IsOk()));
  // Without special values the message is as before.
  EXPECT_EQ(std::string(CheckFieldValues({{"max_cpu_usage", 95}}, c).message()),
            "Value 95 of field max_cpu_usage is out of range [40-90].");
}

TEST(FieldRulesTest, DefaultsFollowTheVersion) {
  json d22 = DefaultsFor(V("22.1.3"));
  EXPECT_EQ(d22["vcpus_per_se"], 1);
  EXPECT_EQ(d22["memory_per_se"], 2048);
  EXPECT_EQ(d22["ha_mode"], "HA_MODE_SHARED");
  EXPECT_EQ(d22["num_dispatcher_queues"], 1);
  EXPECT_FALSE(DefaultsFor(V("18.2.8")).contains("num_dispatcher_queues"));
}

TEST(CountersTest, NormalisesObjectIds) {
  EXPECT_EQ(Counters::Key("GET", "/api/serviceenginegroup/serviceenginegroup-1234"),
            "GET /api/serviceenginegroup/{uuid}");
  EXPECT_EQ(Counters::Key("GET", "/api/serviceenginegroup"), "GET /api/serviceenginegroup");
  EXPECT_EQ(Counters::Key("GET", "/api/serviceenginegroup/"), "GET /api/serviceenginegroup");
  EXPECT_EQ(Counters::Key("GET", "/api/cloud/cloud-1/"), "GET /api/cloud/{uuid}");
  EXPECT_EQ(Counters::Key("GET", "/"), "GET /");
  EXPECT_EQ(Counters::Key("POST", "/login"), "POST /login");
  Counters c;
  c.Record("GET", "/api/tenant/admin");
  c.Record("GET", "/api/tenant/other");
  json j = c.ToJson();
  EXPECT_EQ(j["total"], 2);
  EXPECT_EQ(j["requests"]["GET /api/tenant/{uuid}"], 2);
  c.Reset();
  EXPECT_EQ(c.ToJson()["total"], 0);
}

TEST(CountersTest, LogsArrivalTimesAndFaults) {
  int64_t now = 1000;
  Counters c([&now] { return now; });
  c.Record("POST", "/api/serviceenginegroup", "throttle");
  now = 2001000;
  c.Record("POST", "/api/serviceenginegroup/");
  json j = c.ToJson();
  ASSERT_EQ(j["log"].size(), 2u);
  EXPECT_EQ(
      j["log"][0],
      json({{"request", "POST /api/serviceenginegroup"}, {"at_us", 1000}, {"faults", "throttle"}}));
  EXPECT_EQ(j["log"][1], json({{"request", "POST /api/serviceenginegroup"}, {"at_us", 2001000}}));
  for (size_t i = 0; i < Counters::kMaxLogged; ++i) c.Record("GET", "/api/cloud");
  j = c.ToJson();
  EXPECT_EQ(j["log"].size(), Counters::kMaxLogged);
  EXPECT_EQ(j["log"][0]["request"], "GET /api/cloud");  // the oldest went first
  EXPECT_EQ(j["total"], Counters::kMaxLogged + 2);
  c.Reset();
  EXPECT_TRUE(c.ToJson()["log"].empty());
}

TEST(SessionsTest, IdleTimeoutAndExpiry) {
  absl::Time now = absl::FromUnixSeconds(1000);
  SessionManager m(absl::Seconds(60), [&now] { return now; });
  Session s = m.Create("admin");
  EXPECT_EQ(s.id.size(), 32u);
  EXPECT_NE(s.id, s.csrf_token);
  Session seen;
  EXPECT_EQ(m.Touch(s.id, &seen), SessionManager::State::kValid);
  EXPECT_EQ(seen.csrf_token, s.csrf_token);
  now += absl::Seconds(59);
  EXPECT_EQ(m.Touch(s.id, nullptr), SessionManager::State::kValid);  // refreshes
  now += absl::Seconds(59);
  EXPECT_EQ(m.Touch(s.id, nullptr), SessionManager::State::kValid);
  now += absl::Seconds(61);
  EXPECT_EQ(m.Touch(s.id, nullptr), SessionManager::State::kExpired);
  EXPECT_EQ(m.Touch("nope", nullptr), SessionManager::State::kUnknown);
  EXPECT_EQ(m.Touch("", nullptr), SessionManager::State::kUnknown);
  Session t = m.Create("admin");
  EXPECT_EQ(m.ValidCount(), 1u);
  m.ExpireAll();
  EXPECT_EQ(m.Touch(t.id, nullptr), SessionManager::State::kExpired);
  m.Remove(t.id);
  EXPECT_EQ(m.Touch(t.id, nullptr), SessionManager::State::kUnknown);
  std::string token = m.IssueToken("admin");
  EXPECT_TRUE(m.CheckToken("admin", token));
  EXPECT_FALSE(m.CheckToken("other", token));
  EXPECT_FALSE(m.CheckToken("admin", "x"));
  // Everything issued stays listed, the removed session too.
  IssuedSecrets issued = m.Issued();
  EXPECT_EQ(issued.session_ids, (std::vector<std::string>{s.id, t.id}));
  EXPECT_EQ(issued.csrf_tokens, (std::vector<std::string>{s.csrf_token, t.csrf_token}));
  EXPECT_EQ(issued.auth_tokens, (std::vector<std::string>{token}));
}

TEST(FaultsTest, CountsDownAndValidates) {
  Faults f(FaultConfig{});
  EXPECT_EQ(f.OnRequest().status, 0);
  ASSERT_THAT(f.Update({{"fail_next", 2},
                        {"fail_status", 502},
                        {"throttle_next", 1},
                        {"retry_after_seconds", 3}}),
              IsOk());
  FaultDecision d = f.OnRequest();
  EXPECT_EQ(d.status, 429);
  EXPECT_EQ(d.retry_after_seconds, 3);
  EXPECT_EQ(f.OnRequest().status, 502);
  EXPECT_EQ(f.OnRequest().status, 502);
  EXPECT_EQ(f.OnRequest().status, 0);
  EXPECT_THAT(std::string(f.Update({{"bogus", 1}}).message()), HasSubstr("bogus"));
  EXPECT_THAT(f.Update({{"fail_status", 200}}), Not(IsOk()));
  EXPECT_THAT(f.Update({{"latency_ms", "x"}}), Not(IsOk()));
  ASSERT_THAT(f.Update({{"drop_after_create", 1}}), IsOk());
  EXPECT_TRUE(f.TakeDropAfterCreate());
  EXPECT_FALSE(f.TakeDropAfterCreate());
  ASSERT_THAT(f.Update({{"latency_ms", 5}}), IsOk());
  f.Clear();
  EXPECT_EQ(f.ToJson()["latency_ms"], 0);
}

TEST(FaultsTest, MatchRestrictsTheFaultsSetWithIt) {
  Faults f(FaultConfig{});
  ASSERT_THAT(f.Update({{"fail_next", 1}, {"fail_status", 500}, {"match", "GET /api/cloud*"}}),
              IsOk());
  ASSERT_THAT(f.Update({{"throttle_next", 1}}), IsOk());  // no match: any request
  EXPECT_EQ(f.OnRequest("POST /login").status, 429);
  EXPECT_EQ(f.OnRequest("POST /login").status, 0);
  EXPECT_EQ(f.OnRequest("GET /api/cloud/{uuid}").status, 500);
  EXPECT_EQ(f.OnRequest("GET /api/cloud").status, 0);
  EXPECT_EQ(f.ToJson()["fail_match"], "GET /api/cloud*");
  // A later update without a match resets the match of the faults it sets.
  ASSERT_THAT(f.Update({{"fail_next", 1}}), IsOk());
  EXPECT_EQ(f.ToJson()["fail_match"], "");
  EXPECT_THAT(f.Update({{"fail_next", 1}, {"match", 3}}), Not(IsOk()));
}

TEST(FaultsTest, NewModesDecideAndValidate) {
  Faults f(FaultConfig{});
  ASSERT_THAT(f.Update({{"expire_next", 1},
                        {"bad_body_next", 1},
                        {"bad_body", "truncated"},
                        {"latency_ms", 5},
                        {"latency_after_commit", true}}),
              IsOk());
  FaultDecision d = f.OnRequest("GET /api/cloud");
  EXPECT_TRUE(d.expire);
  EXPECT_EQ(d.bad_body, "truncated");
  EXPECT_EQ(d.latency_ms, 5);
  EXPECT_TRUE(d.latency_after_commit);
  EXPECT_EQ(d.Names(), "latency,expire,bad_body:truncated");
  d = f.OnRequest("GET /api/cloud");
  EXPECT_FALSE(d.expire);
  EXPECT_EQ(d.bad_body, "");

  ASSERT_THAT(f.Update({{"fail_next", 1}, {"fail_after_commit", true}, {"fail_body", "html"}}),
              IsOk());
  d = f.OnRequest();
  EXPECT_EQ(d.status, 503);
  EXPECT_TRUE(d.after_commit);
  EXPECT_EQ(d.fail_body, "html");
  EXPECT_EQ(d.Names(), "latency,fail_after_commit");

  ASSERT_THAT(f.Update({{"hang_next", 1}, {"throttle_next", 1}}), IsOk());
  d = f.OnRequest();
  EXPECT_TRUE(d.hang);
  EXPECT_EQ(d.status, 0);  // a hung request answers nothing else
  EXPECT_FALSE(f.HangReleased(d.hang_generation));
  f.ReleaseHangs();
  EXPECT_TRUE(f.HangReleased(d.hang_generation));
  EXPECT_EQ(f.OnRequest().status, 429);  // the throttle was not consumed by the hung request
  ASSERT_THAT(f.Update({{"hang_next", 1}}), IsOk());
  d = f.OnRequest();
  f.Clear();
  EXPECT_TRUE(f.HangReleased(d.hang_generation));

  EXPECT_THAT(std::string(f.Update({{"bad_body", "xml"}}).message()), HasSubstr("bad_body"));
  EXPECT_THAT(f.Update({{"fail_body", "text"}}), Not(IsOk()));
  EXPECT_THAT(f.Update({{"fail_after_commit", 1}}), Not(IsOk()));
  EXPECT_THAT(f.Update({{"hang_next", -1}}), Not(IsOk()));
}

TEST(ConfigTest, ParsesFlags) {
  absl::StatusOr<Config> c = ParseCommandLine(
      {"--bind", "::1", "--port=0", "--controller-version", "21.1.3", "--session-idle-timeout", "5",
       "--fail-next", "2", "--fail-status", "502", "--drop-after-create", "1"},
      nullptr);
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(c->bind, "::1");
  EXPECT_EQ(c->controller_version, V("21.1.3"));
  EXPECT_EQ(c->session_idle_timeout_seconds, 5);
  EXPECT_EQ(c->faults.fail_next, 2);
  EXPECT_EQ(c->faults.fail_status, 502);
  EXPECT_EQ(c->password, "admin");
  EXPECT_FALSE(c->exit_with_parent);
  EXPECT_EQ(ParseCommandLine({}, "from-env")->password, "from-env");
  EXPECT_TRUE(ParseCommandLine({"--exit-with-parent"}, nullptr)->exit_with_parent);
}

TEST(ConfigTest, ErrorsNameTheFlag) {
  EXPECT_THAT(std::string(ParseCommandLine({"--bind", "10.0.0.1"}, nullptr).status().message()),
              HasSubstr("--bind"));
  EXPECT_THAT(std::string(ParseCommandLine({"--port", "70000"}, nullptr).status().message()),
              HasSubstr("--port"));
  EXPECT_THAT(std::string(ParseCommandLine({"--port"}, nullptr).status().message()),
              HasSubstr("--port needs a value"));
  EXPECT_THAT(std::string(ParseCommandLine({"--nope"}, nullptr).status().message()),
              HasSubstr("--nope"));
  EXPECT_THAT(
      std::string(ParseCommandLine({"--controller-version", "x"}, nullptr).status().message()),
      HasSubstr("--controller-version"));
  absl::Status pw = ParseCommandLine({"--password", "s3cret", "--port", "x"}, nullptr).status();
  EXPECT_THAT(std::string(pw.message()), ::testing::Not(HasSubstr("s3cret")));
}

class StoreTest : public ::testing::Test {
 protected:
  StoreTest() : store_([this] { return ++clock_; }) { store_.Seed(); }

  std::string CloudUuid(const std::string& name) {
    ListFilter f;
    f.name = name;
    return store_.List(kCloud, f).at(0)["uuid"].get<std::string>();
  }

  int64_t clock_ = 1000;
  Store store_;
};

TEST_F(StoreTest, SeedsTenantCloudsAndDefaultGroups) {
  EXPECT_EQ(store_.TenantUuid("admin").value(), "admin");
  EXPECT_THAT(store_.TenantUuid("nope"), Not(IsOk()));
  std::vector<json> clouds = store_.List(kCloud, ListFilter{});
  ASSERT_EQ(clouds.size(), 2u);
  EXPECT_EQ(clouds[0]["name"], "Default-Cloud");
  EXPECT_EQ(clouds[0]["vtype"], "CLOUD_VCENTER");
  EXPECT_EQ(clouds[1]["vtype"], "CLOUD_NSXT");
  ListFilter f;
  f.name = "Default-Group";
  EXPECT_EQ(store_.List(kSeGroup, f).size(), 2u);
}

TEST_F(StoreTest, CreateResolvesRefsAndEnforcesUniqueness) {
  const std::string nsxt = CloudUuid("nsxt-cloud");
  absl::StatusOr<json> a = store_.CreateSeGroup({{"name", "g"}}, "admin");
  ASSERT_THAT(a, IsOk());
  EXPECT_TRUE(absl::StartsWith((*a)["uuid"].get<std::string>(), "serviceenginegroup-"));
  EXPECT_EQ((*a)["cloud_ref"], CloudUuid("Default-Cloud"));
  absl::StatusOr<json> dup = store_.CreateSeGroup({{"name", "g"}}, "admin");
  EXPECT_TRUE(absl::IsAlreadyExists(dup.status()));
  for (const std::string& ref :
       {std::string("/api/cloud/?name=nsxt-cloud"), absl::StrCat("/api/cloud/", nsxt),
        absl::StrCat("https://127.0.0.1:1/api/cloud/", nsxt, "#nsxt-cloud"), nsxt}) {
    absl::StatusOr<json> b = store_.CreateSeGroup({{"name", ref}, {"cloud_ref", ref}}, "admin");
    ASSERT_THAT(b, IsOk()) << ref << ": " << b.status();
    EXPECT_EQ((*b)["cloud_ref"], nsxt) << ref;
  }
  EXPECT_THAT(
      std::string(store_.CreateSeGroup({{"name", "z"}, {"cloud_ref", "/api/cloud/nope"}}, "admin")
                      .status()
                      .message()),
      HasSubstr("cloud_ref"));
  EXPECT_THAT(
      std::string(store_.CreateSeGroup({{"name", "z"}, {"cloud_ref", "/api/tenant/admin"}}, "admin")
                      .status()
                      .message()),
      HasSubstr("cloud"));
  EXPECT_TRUE(
      absl::IsInvalidArgument(store_.CreateSeGroup({{"vcpus_per_se", 1}}, "admin").status()));
}

TEST_F(StoreTest, DefaultGroupCannotBeDeleted) {
  ListFilter f;
  f.name = "Default-Group";
  const std::string uuid = store_.List(kSeGroup, f)[0]["uuid"];
  absl::Status s = store_.DeleteSeGroup(uuid, "admin").status();
  EXPECT_TRUE(absl::IsPermissionDenied(s));
  EXPECT_EQ(s.message(), "Cannot delete system default object");
  EXPECT_TRUE(absl::IsNotFound(store_.DeleteSeGroup("serviceenginegroup-nope", "admin").status()));
}

TEST_F(StoreTest, ReplaceResetsOmittedFieldsAndKeepsIdentity) {
  json a =
      store_.CreateSeGroup({{"name", "g"}, {"vcpus_per_se", 4}, {"x_unknown", 1}}, "admin").value();
  json b =
      store_.ReplaceSeGroup(a["uuid"], {{"name", "g2"}, {"memory_per_se", 4096}}, "admin").value();
  EXPECT_EQ(b["uuid"], a["uuid"]);
  EXPECT_EQ(b["cloud_ref"], a["cloud_ref"]);
  EXPECT_FALSE(b.contains("vcpus_per_se"));
  EXPECT_FALSE(b.contains("x_unknown"));
  EXPECT_GT(std::stoll(b["_last_modified"].get<std::string>()),
            std::stoll(a["_last_modified"].get<std::string>()));
  EXPECT_TRUE(absl::IsNotFound(store_.ReplaceSeGroup("nope", {{"name", "n"}}, "admin").status()));
}

TEST_F(StoreTest, RenderFormsRefsAndDefaults) {
  json a =
      store_.CreateSeGroup({{"name", "g"}, {"vcpus_per_se", 1}, {"memory_per_se", 8192}}, "admin")
          .value();
  RenderOptions o;
  o.base_url = "https://127.0.0.1:9";
  o.version = V("22.1.3");
  json full = store_.Render(kSeGroup, a, o);
  EXPECT_EQ(full["url"], absl::StrCat("https://127.0.0.1:9/api/serviceenginegroup/",
                                      a["uuid"].get<std::string>()));
  EXPECT_EQ(full["tenant_ref"], "https://127.0.0.1:9/api/tenant/admin");
  EXPECT_EQ(full["disk_per_se"], 15);
  o.include_name = true;
  o.skip_default = true;
  json skip = store_.Render(kSeGroup, a, o);
  EXPECT_EQ(skip["tenant_ref"], "https://127.0.0.1:9/api/tenant/admin#admin");
  EXPECT_TRUE(absl::EndsWith(skip["url"].get<std::string>(), "#g"));
  EXPECT_TRUE(absl::EndsWith(skip["cloud_ref"].get<std::string>(), "#Default-Cloud"));
  EXPECT_FALSE(skip.contains("disk_per_se"));
  EXPECT_FALSE(skip.contains("vcpus_per_se"));  // equal to the default
  EXPECT_EQ(skip["memory_per_se"], 8192);
  o.fields = {"memory_per_se"};
  json projected = store_.Render(kSeGroup, a, o);
  EXPECT_EQ(projected.size(), 3u);
}

TEST_F(StoreTest, SaveAndLoadRoundTrip) {
  json a = store_.CreateSeGroup({{"name", "persisted"}}, "admin").value();
  char path[] = "/tmp/nsxalb-store-test-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  ASSERT_THAT(store_.Save(path), IsOk());
  Store other([] { return int64_t{1}; });
  ASSERT_THAT(other.Load(path), IsOk());
  EXPECT_EQ(other.Get(kSeGroup, a["uuid"], "admin").value(), a);
  EXPECT_EQ(other.Dump(), store_.Dump());
  std::FILE* f = std::fopen(path, "w");
  std::fputs("not json", f);
  std::fclose(f);
  EXPECT_THAT(std::string(other.Load(path).message()), HasSubstr(path));
  std::remove(path);
  EXPECT_TRUE(absl::IsNotFound(other.Load(path)));
}

}  // namespace
}  // namespace nsxalb::emulator
