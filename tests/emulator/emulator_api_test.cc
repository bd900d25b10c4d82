// The emulator's API behaviours over real HTTPS on loopback: login and cookies, CSRF and Referer,
// X-Avi-Version, SE group CRUD shapes, version rejections, pagination, faults, counters, idle
// timeout and --state persistence.
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "httplib.h"
#include "plugin/controller/se_group_fields.h"
#include "plugin/controller/version.h"
#include "tests/controller/vendor_se_group_facts.h"
#include "tests/emulator/api_client.h"
#include "tests/support/emulator_process.h"
#include "tests/support/status_matchers.h"

extern char** environ;

namespace nsxalb::testing {
namespace {

using ::nsxalb::testing::IsOk;
using ::testing::Not;

using ::nlohmann::json;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kSeg[] = "/api/serviceenginegroup";

bool IsDigits(const std::string& s, size_t size) {
  return s.size() == size &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "serviceenginegroup-" + a lowercase version-4 UUID.
bool IsSeGroupUuid(const std::string& s) {
  const std::string prefix = "serviceenginegroup-";
  if (s.compare(0, prefix.size(), prefix) != 0) return false;
  const std::string u = s.substr(prefix.size());
  if (u.size() != 36 || u[14] != '4' || std::string("89ab").find(u[19]) == std::string::npos) {
    return false;
  }
  for (size_t i = 0; i < u.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash != (u[i] == '-')) return false;
    if (!dash && std::string("0123456789abcdef").find(u[i]) == std::string::npos) return false;
  }
  return true;
}

std::unique_ptr<EmulatorProcess> StartOrDie(std::vector<std::string> extra = {},
                                            const std::string& version = "22.1.3") {
  EmulatorProcess::Options o;
  o.controller_version = version;
  o.extra_args = std::move(extra);
  absl::StatusOr<std::unique_ptr<EmulatorProcess>> p = EmulatorProcess::Start(o);
  EXPECT_THAT(p, IsOk());
  return p.ok() ? std::move(*p) : nullptr;
}

class EmulatorApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    emu_ = StartOrDie();
    ASSERT_NE(emu_, nullptr);
    api_ = std::make_unique<ApiClient>(*emu_);
    ASSERT_EQ(api_->Login().status, 200);
  }

  std::string CloudUuid(const std::string& name) {
    ApiResponse r = api_->Send("GET", absl::StrCat("/api/cloud?name=", name));
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.json["count"], 1);
    return r.json["results"][0]["uuid"].get<std::string>();
  }

  std::unique_ptr<EmulatorProcess> emu_;
  std::unique_ptr<ApiClient> api_;
};

TEST_F(EmulatorApiTest, LoginSetsCookiesAndReturnsVersion) {
  ApiClient fresh(*emu_);
  ApiResponse r = fresh.Login();
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["version"]["Version"], "22.1.3");
  EXPECT_EQ(r.json["session_cookie_name"], "avi-sessionid");
  EXPECT_EQ(r.json["controller"]["api_idle_timeout"], 15);
  EXPECT_EQ(r.json["user"]["username"], "admin");
  EXPECT_EQ(r.Header("AVI_API_VERSION"), "22.1.3");
  std::map<std::string, std::string> cookies;
  for (auto [it, end] = r.headers.equal_range("Set-Cookie"); it != end; ++it) {
    cookies[it->second.substr(0, it->second.find('='))] = it->second;
  }
  ASSERT_EQ(cookies.size(), 3u);
  EXPECT_THAT(cookies["csrftoken"], HasSubstr("Max-Age=31449600"));
  EXPECT_THAT(cookies["csrftoken"], HasSubstr("Secure"));
  EXPECT_THAT(cookies["avi-sessionid"], HasSubstr("HttpOnly"));
  EXPECT_THAT(cookies["avi-sessionid"], HasSubstr("Max-Age=86400"));
  EXPECT_THAT(cookies["sessionid"], StartsWith(absl::StrCat("sessionid=", fresh.session_id())));
  EXPECT_FALSE(fresh.csrf_token().empty());
}

TEST_F(EmulatorApiTest, WrongPasswordIs401WithoutEchoingIt) {
  ApiClient fresh(*emu_);
  ApiResponse r = fresh.Login("admin", "wrong-pass-123");
  EXPECT_EQ(r.status, 401);
  EXPECT_TRUE(r.json["error"].is_string());
  EXPECT_THAT(r.body, ::testing::Not(HasSubstr("wrong-pass-123")));
  EXPECT_EQ(r.Header("Set-Cookie"), "");
  EXPECT_EQ(fresh.Login("someone", "admin").status, 401);
}

TEST_F(EmulatorApiTest, TokenLogin) {
  absl::StatusOr<json> t = emu_->Control("POST", "tokens", json::object());
  ASSERT_THAT(t, IsOk());
  ApiClient fresh(*emu_);
  ApiResponse r = fresh.Send("POST", "/login", {{"username", "admin"}, {"token", (*t)["token"]}});
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(fresh.Send("POST", "/login", {{"username", "admin"}, {"token", "bogus"}}).status, 401);
  ApiResponse issued = api_->Send("POST", "/api/user-token", json::object());
  ASSERT_EQ(issued.status, 200) << issued.body;
  EXPECT_EQ(
      fresh.Send("POST", "/login", {{"username", "admin"}, {"token", issued.json["token"]}}).status,
      200);
}

TEST_F(EmulatorApiTest, ControlEndpointListsTheIssuedSecrets) {
  ApiClient second(*emu_);
  ASSERT_EQ(second.Login().status, 200);
  absl::StatusOr<json> t = emu_->Control("POST", "tokens", json::object());
  ASSERT_THAT(t, IsOk());
  absl::StatusOr<json> s = emu_->Control("GET", "secrets");
  ASSERT_THAT(s, IsOk());
  EXPECT_EQ((*s)["session_ids"], json::array({api_->session_id(), second.session_id()}));
  EXPECT_EQ((*s)["csrf_tokens"], json::array({api_->csrf_token(), second.csrf_token()}));
  EXPECT_EQ((*s)["auth_tokens"], json::array({(*t)["token"]}));
}

TEST_F(EmulatorApiTest, RequestsWithoutSessionAre401) {
  ApiClient anonymous(*emu_);
  ApiResponse r = anonymous.Send("GET", kSeg);
  EXPECT_EQ(r.status, 401);
  EXPECT_TRUE(r.json["error"].is_string());
}

TEST_F(EmulatorApiTest, CsrfAndRefererChecks) {
  const json body = {{"name", "csrf"}};
  ApiResponse missing = api_->Send("POST", kSeg, body, {{"X-CSRFToken", "<omit>"}});
  EXPECT_EQ(missing.status, 401);
  EXPECT_EQ(missing.body, "CSRF token missing or incorrect.");
  EXPECT_EQ(api_->Send("POST", kSeg, body, {{"X-CSRFToken", "wrong"}}).status, 401);
  ApiResponse no_referer = api_->Send("POST", kSeg, body, {{"Referer", "<omit>"}});
  EXPECT_EQ(no_referer.status, 401);
  EXPECT_THAT(no_referer.body, HasSubstr("Referer"));
  EXPECT_EQ(api_->Send("POST", kSeg, body, {{"Referer", "https://evil.example/"}}).status, 401);
  EXPECT_EQ(
      api_->Send("DELETE", absl::StrCat(kSeg, "/x"), nullptr, {{"X-CSRFToken", "<omit>"}}).status,
      401);
  // GET needs neither.
  EXPECT_EQ(api_->Send("GET", kSeg, nullptr, {{"X-CSRFToken", "<omit>"}}).status, 200);
  EXPECT_EQ(api_->Send("POST", kSeg, body).status, 201);
}

TEST_F(EmulatorApiTest, AviVersionHeaderRequiredAndBounded) {
  ApiResponse none = api_->Send("GET", kSeg, nullptr, {{"X-Avi-Version", "<omit>"}});
  EXPECT_EQ(none.status, 400);
  EXPECT_THAT(none.json["error"].get<std::string>(), HasSubstr("X-Avi-Version"));
  EXPECT_EQ(api_->Send("GET", kSeg, nullptr, {{"X-Avi-Version", "banana"}}).status, 400);
  ApiResponse newer = api_->Send("GET", kSeg, nullptr, {{"X-Avi-Version", "30.2.1"}});
  EXPECT_EQ(newer.status, 400);
  EXPECT_THAT(newer.json["error"].get<std::string>(), HasSubstr("v22_1_3"));
  EXPECT_EQ(api_->Send("GET", kSeg, nullptr, {{"X-Avi-Version", "18.2.8"}}).status, 200);
}

TEST_F(EmulatorApiTest, CreateReadDeleteShapes) {
  ApiResponse c =
      api_->Send("POST", kSeg, {{"name", "web"}, {"vcpus_per_se", 4}, {"x_custom_field", "kept"}});
  ASSERT_EQ(c.status, 201) << c.body;
  const std::string uuid = c.json["uuid"];
  EXPECT_TRUE(IsSeGroupUuid(uuid)) << uuid;
  const std::string base = emu_->url();
  EXPECT_EQ(c.Header("Location"), absl::StrCat(base, kSeg, "/", uuid, "#web"));
  EXPECT_EQ(c.json["url"], absl::StrCat(base, kSeg, "/", uuid, "#web"));
  EXPECT_EQ(c.json["tenant_ref"], absl::StrCat(base, "/api/tenant/admin#admin"));
  EXPECT_EQ(c.json["cloud_ref"],
            absl::StrCat(base, "/api/cloud/", CloudUuid("Default-Cloud"), "#Default-Cloud"));
  EXPECT_TRUE(IsDigits(c.json["_last_modified"].get<std::string>(), 16))
      << c.json["_last_modified"];
  EXPECT_EQ(c.json["x_custom_field"], "kept");
  EXPECT_EQ(c.json["memory_per_se"], 2048);  // default filled in

  ApiResponse g = api_->Send("GET", absl::StrCat(kSeg, "/", uuid));
  ASSERT_EQ(g.status, 200);
  EXPECT_EQ(g.json["url"], absl::StrCat(base, kSeg, "/", uuid));
  EXPECT_EQ(g.json["tenant_ref"], absl::StrCat(base, "/api/tenant/admin"));
  EXPECT_EQ(g.json["vcpus_per_se"], 4);
  EXPECT_EQ(g.json["x_custom_field"], "kept");
  ApiResponse named = api_->Send("GET", absl::StrCat(kSeg, "/", uuid, "?include_name=true"));
  EXPECT_TRUE(absl::EndsWith(named.json["cloud_ref"].get<std::string>(), "#Default-Cloud"));
  ApiResponse skip = api_->Send("GET", absl::StrCat(kSeg, "/", uuid, "?skip_default=true"));
  EXPECT_FALSE(skip.json.contains("memory_per_se"));
  EXPECT_EQ(skip.json["vcpus_per_se"], 4);

  ApiResponse d = api_->Send("DELETE", absl::StrCat(kSeg, "/", uuid));
  EXPECT_EQ(d.status, 204);
  EXPECT_EQ(d.body, "");
  ApiResponse again = api_->Send("GET", absl::StrCat(kSeg, "/", uuid));
  EXPECT_EQ(again.status, 404);
  EXPECT_TRUE(again.json["error"].is_string());
  EXPECT_EQ(api_->Send("DELETE", absl::StrCat(kSeg, "/", uuid)).status, 404);
}

TEST_F(EmulatorApiTest, FindByNameAndCloud) {
  const std::string nsxt = CloudUuid("nsxt-cloud");
  ASSERT_EQ(api_->Send("POST", kSeg, {{"name", "dup"}}).status, 201);
  ApiResponse conflict = api_->Send("POST", kSeg, {{"name", "dup"}});
  EXPECT_EQ(conflict.status, 409);
  EXPECT_THAT(conflict.json["error"].get<std::string>(), HasSubstr("dup"));
  ApiResponse other =
      api_->Send("POST", kSeg, {{"name", "dup"}, {"cloud_ref", "/api/cloud/?name=nsxt-cloud"}});
  ASSERT_EQ(other.status, 201) << other.body;
  ApiResponse both = api_->Send("GET", absl::StrCat(kSeg, "?name=dup"));
  EXPECT_EQ(both.json["count"], 2);
  ApiResponse one = api_->Send("GET", absl::StrCat(kSeg, "?name=dup&cloud_ref.uuid=", nsxt));
  ASSERT_EQ(one.json["count"], 1);
  EXPECT_EQ(one.json["results"][0]["uuid"], other.json["uuid"]);
  EXPECT_EQ(api_->Send("GET", absl::StrCat(kSeg, "?name=absent")).json["count"], 0);
}

TEST_F(EmulatorApiTest, RejectsFieldsNewerThanTheRequestVersion) {
  ApiClient old(*emu_, "18.2.8");
  ASSERT_EQ(old.Login().status, 200);
  ApiResponse r = old.Send("POST", kSeg, {{"name", "rss"}, {"hybrid_rss_mode", true}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.json["error"],
            "Incoming request (v18_2_8) has field (hybrid_rss_mode) introduced in later "
            "versions(v21_1_3).");
  // A backported field: available on the 18.2 train from 18.2.1.
  EXPECT_EQ(old.Send("POST", kSeg, {{"name", "disp"}, {"num_dispatcher_cores", 2}}).status, 201);
  ApiClient older(*emu_, "18.1.2");
  ASSERT_EQ(older.Login().status, 200);
  ApiResponse o = older.Send("POST", kSeg, {{"name", "disp2"}, {"num_dispatcher_cores", 2}});
  EXPECT_EQ(o.status, 400);
  EXPECT_THAT(o.json["error"].get<std::string>(), HasSubstr("(v18_1_3)"));
  // Reads leave out fields the request version does not know.
  ApiResponse c = api_->Send("POST", kSeg, {{"name", "new"}, {"hybrid_rss_mode", true}});
  ASSERT_EQ(c.status, 201);
  ApiResponse seen = old.Send("GET", absl::StrCat(kSeg, "/", c.json["uuid"].get<std::string>()));
  EXPECT_FALSE(seen.json.contains("hybrid_rss_mode"));
  EXPECT_FALSE(seen.json.contains("num_dispatcher_queues"));
  EXPECT_TRUE(c.json.contains("num_dispatcher_queues"));
}

TEST_F(EmulatorApiTest, ValidatesValues) {
  ApiResponse r = api_->Send("POST", kSeg, {{"name", "bad"}, {"max_cpu_usage", 95}});
  EXPECT_EQ(r.status, 400);
  EXPECT_THAT(r.json["error"].get<std::string>(), HasSubstr("max_cpu_usage"));
  EXPECT_EQ(api_->Send("POST", kSeg, {{"vcpus_per_se", 2}}).status, 400);  // no name
  EXPECT_EQ(api_->Send("POST", kSeg, nullptr, {}).status, 400);
  ApiResponse bad_ref = api_->Send("POST", kSeg, {{"name", "r"}, {"cloud_ref", "/api/cloud/nope"}});
  EXPECT_EQ(bad_ref.status, 400);
  EXPECT_THAT(bad_ref.json["error"].get<std::string>(), HasSubstr("cloud_ref"));
}

TEST_F(EmulatorApiTest, PutReplacesAndPatchMerges) {
  ApiResponse c = api_->Send("POST", kSeg, {{"name", "p"}, {"vcpus_per_se", 4}, {"x_keep", 1}});
  const std::string path = absl::StrCat(kSeg, "/", c.json["uuid"].get<std::string>());
  ApiResponse put = api_->Send("PUT", path, {{"name", "p"}, {"memory_per_se", 8192}});
  ASSERT_EQ(put.status, 200) << put.body;
  EXPECT_EQ(put.json["vcpus_per_se"], 1);  // back to the default
  EXPECT_FALSE(put.json.contains("x_keep"));
  EXPECT_EQ(put.json["memory_per_se"], 8192);
  EXPECT_NE(put.json["_last_modified"], c.json["_last_modified"]);
  ApiResponse patch = api_->Send("PATCH", path, {{"replace", {{"vcpus_per_se", 8}}}});
  ASSERT_EQ(patch.status, 200) << patch.body;
  EXPECT_EQ(patch.json["vcpus_per_se"], 8);
  EXPECT_EQ(patch.json["memory_per_se"], 8192);
  ASSERT_EQ(api_->Send("POST", kSeg, {{"name", "q"}}).status, 201);
  EXPECT_EQ(api_->Send("PUT", path, {{"name", "q"}}).status, 409);
  EXPECT_EQ(
      api_->Send("PUT", absl::StrCat(kSeg, "/serviceenginegroup-nope"), {{"name", "z"}}).status,
      404);
}

// Optimistic concurrency, as the Controller: a PUT or PATCH carrying an older _last_modified than
// the stored one is answered 412; the same _last_modified, or none, is accepted.
TEST_F(EmulatorApiTest, StaleWritesAre412AndWritesWithoutLastModifiedAreAccepted) {
  ApiResponse c = api_->Send("POST", kSeg, {{"name", "lm"}, {"vcpus_per_se", 4}});
  ASSERT_EQ(c.status, 201) << c.body;
  const std::string path = absl::StrCat(kSeg, "/", c.json["uuid"].get<std::string>());
  const json read = c.json["_last_modified"];
  ApiResponse fresh = api_->Send("PUT", path, {{"name", "lm"}, {"_last_modified", read}});
  ASSERT_EQ(fresh.status, 200) << fresh.body;
  // `read` is older now.
  ApiResponse stale =
      api_->Send("PUT", path, {{"name", "lm"}, {"vcpus_per_se", 6}, {"_last_modified", read}});
  EXPECT_EQ(stale.status, 412) << stale.body;
  EXPECT_THAT(stale.json.value("error", ""), HasSubstr("Concurrent Update Error"));
  ApiResponse stale_patch =
      api_->Send("PATCH", path, {{"replace", {{"vcpus_per_se", 6}, {"_last_modified", read}}}});
  EXPECT_EQ(stale_patch.status, 412) << stale_patch.body;
  EXPECT_EQ(api_->Send("GET", path).json["vcpus_per_se"], 1);
  ApiResponse blind = api_->Send("PUT", path, {{"name", "lm"}, {"vcpus_per_se", 6}});
  EXPECT_EQ(blind.status, 200) << blind.body;
  EXPECT_EQ(blind.json["vcpus_per_se"], 6);
}

// The other_writer fault: right after the next GET of a group, someone else sets a field and the
// group gets a new _last_modified, so a write based on that GET is stale.
TEST_F(EmulatorApiTest, OtherWriterFaultChangesTheGroupAfterTheNextGet) {
  ApiResponse c = api_->Send("POST", kSeg, {{"name", "ow"}});
  const std::string path = absl::StrCat(kSeg, "/", c.json["uuid"].get<std::string>());
  ASSERT_THAT(emu_->Control("POST", "faults",
                            {{"other_writer_next", 1},
                             {"other_writer_field", "se_deprovision_delay"},
                             {"other_writer_value", 31}}),
              IsOk());
  ApiResponse got = api_->Send("GET", path);
  ASSERT_EQ(got.status, 200);
  EXPECT_NE(got.json["se_deprovision_delay"], 31);  // the answer predates the other write
  json body = got.json;
  body["vcpus_per_se"] = 2;
  EXPECT_EQ(api_->Send("PUT", path, body).status, 412);
  ApiResponse again = api_->Send("GET", path);
  EXPECT_EQ(again.json["se_deprovision_delay"], 31);
  body = again.json;
  body["vcpus_per_se"] = 2;
  EXPECT_EQ(api_->Send("PUT", path, body).status, 200);  // the fault fired once
  auto bad = emu_->Control("POST", "faults", {{"other_writer_field", "uuid"}});
  EXPECT_THAT(bad, Not(IsOk()));
}

TEST_F(EmulatorApiTest, DefaultGroupCannotBeDeleted) {
  ApiResponse list = api_->Send("GET", absl::StrCat(kSeg, "?name=Default-Group"));
  ASSERT_EQ(list.json["count"], 2);
  const std::string uuid = list.json["results"][0]["uuid"];
  ApiResponse r = api_->Send("DELETE", absl::StrCat(kSeg, "/", uuid));
  EXPECT_EQ(r.status, 403);
  EXPECT_EQ(r.json["error"], "Cannot delete system default object");
  EXPECT_EQ(api_->Send("GET", absl::StrCat(kSeg, "/", uuid)).status, 200);
}

TEST_F(EmulatorApiTest, PaginationFollowsNext) {
  for (int i = 0; i < 7; ++i) {
    ASSERT_EQ(api_->Send("POST", kSeg, {{"name", absl::StrCat("page-", i)}}).status, 201);
  }
  // 7 created plus two Default-Groups.
  std::set<std::string> seen;
  std::string path = absl::StrCat(kSeg, "?page_size=4");
  int pages = 0;
  while (!path.empty() && pages < 10) {
    ApiResponse r = api_->Send("GET", path);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json["count"], 9);
    EXPECT_LE(r.json["results"].size(), 4u);
    for (const json& o : r.json["results"]) seen.insert(o["uuid"].get<std::string>());
    ++pages;
    if (!r.json.contains("next")) break;
    const std::string next = r.json["next"];
    ASSERT_THAT(next, StartsWith(absl::StrCat(emu_->url(), kSeg, "?")));
    EXPECT_THAT(next, HasSubstr(absl::StrCat("page=", pages + 1)));
    path = next.substr(emu_->url().size());
  }
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(seen.size(), 9u);
  EXPECT_EQ(api_->Send("GET", absl::StrCat(kSeg, "?page_size=0")).status, 400);
  EXPECT_EQ(api_->Send("GET", absl::StrCat(kSeg, "?page_size=-1")).status, 400);
  EXPECT_EQ(api_->Send("GET", absl::StrCat(kSeg, "?page_size=1000")).status, 200);  // pages of 200
  EXPECT_EQ(api_->Send("GET", absl::StrCat(kSeg, "?page_size=200")).status, 200);
  EXPECT_EQ(api_->Send("GET", absl::StrCat(kSeg, "?page_size=4&page=4")).status, 404);
}

TEST_F(EmulatorApiTest, CloudsTenantsAndInfoEndpoints) {
  ApiResponse clouds = api_->Send("GET", "/api/cloud");
  ASSERT_EQ(clouds.json["count"], 2);
  std::map<std::string, std::string> vtypes;
  for (const json& c : clouds.json["results"]) vtypes[c["name"]] = c["vtype"];
  EXPECT_EQ(vtypes["Default-Cloud"], "CLOUD_VCENTER");
  EXPECT_EQ(vtypes["nsxt-cloud"], "CLOUD_NSXT");
  const std::string uuid = CloudUuid("nsxt-cloud");
  EXPECT_THAT(uuid, StartsWith("cloud-"));
  EXPECT_EQ(api_->Send("GET", absl::StrCat("/api/cloud/", uuid)).json["vtype"], "CLOUD_NSXT");
  ApiResponse tenants = api_->Send("GET", "/api/tenant?name=admin");
  ASSERT_EQ(tenants.json["count"], 1);
  EXPECT_EQ(tenants.json["results"][0]["uuid"], "admin");
  ApiClient anonymous(*emu_);
  ApiResponse initial = anonymous.Send("GET", "/api/initial-data");
  EXPECT_EQ(initial.status, 200);
  EXPECT_EQ(initial.json["version"]["Version"], "22.1.3");
  ApiResponse cluster = anonymous.Send("GET", "/api/cluster/status");
  EXPECT_EQ(cluster.json["cluster_state"]["state"], "CLUSTER_UP_NO_HA");
  EXPECT_EQ(api_->Send("GET", "/api/no-such-type").status, 404);
  EXPECT_EQ(api_->Send("GET", kSeg, nullptr, {{"X-Avi-Tenant", "nope"}}).status, 400);
}

TEST_F(EmulatorApiTest, LogoutEndsTheSession) {
  ApiResponse r = api_->Send("POST", "/logout", json::object());
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(api_->Send("GET", kSeg).status, 401);
}

TEST_F(EmulatorApiTest, FaultsFromTheControlEndpoint) {
  ASSERT_THAT(emu_->Control("POST", "faults", {{"fail_next", 2}, {"fail_status", 502}}), IsOk());
  ApiResponse f1 = api_->Send("GET", kSeg);
  EXPECT_EQ(f1.status, 502);
  EXPECT_TRUE(f1.json["error"].is_string());
  EXPECT_EQ(api_->Send("GET", kSeg).status, 502);
  EXPECT_EQ(api_->Send("GET", kSeg).status, 200);

  ASSERT_THAT(emu_->Control("POST", "faults", {{"throttle_next", 1}, {"retry_after_seconds", 7}}),
              IsOk());
  ApiResponse t = api_->Send("GET", kSeg);
  EXPECT_EQ(t.status, 429);
  EXPECT_EQ(t.Header("Retry-After"), "7");
  EXPECT_EQ(api_->Send("GET", kSeg).status, 200);

  ASSERT_THAT(emu_->Control("POST", "faults", {{"latency_ms", 150}}), IsOk());
  const auto before = std::chrono::steady_clock::now();
  EXPECT_EQ(api_->Send("GET", kSeg).status, 200);
  EXPECT_GE(std::chrono::steady_clock::now() - before, std::chrono::milliseconds(150));
  ASSERT_THAT(emu_->Control("DELETE", "faults"), IsOk());
  EXPECT_EQ((*emu_->Control("GET", "faults"))["latency_ms"], 0);

  EXPECT_THAT(emu_->Control("POST", "faults", {{"nonsense", 1}}), Not(IsOk()));
}

TEST_F(EmulatorApiTest, DropAfterCreateCommitsTheObject) {
  ASSERT_THAT(emu_->Control("POST", "faults", {{"drop_after_create", 1}}), IsOk());
  ApiResponse dropped = api_->Send("POST", kSeg, {{"name", "dropped"}});
  EXPECT_EQ(dropped.status, 0) << "expected no response, got " << dropped.status;
  ApiClient again(*emu_);
  ASSERT_EQ(again.Login().status, 200);
  ApiResponse found = again.Send("GET", absl::StrCat(kSeg, "?name=dropped"));
  EXPECT_EQ(found.json["count"], 1);
  EXPECT_EQ(again.Send("POST", kSeg, {{"name", "after"}}).status, 201);
}

TEST_F(EmulatorApiTest, BadBodiesReplaceTheAnswerOfAProcessedRequest) {
  ASSERT_THAT(
      emu_->Control("POST", "faults",
                    {{"bad_body_next", 1}, {"bad_body", "malformed_json"}, {"match", "POST *"}}),
      IsOk());
  ApiResponse malformed = api_->Send("POST", kSeg, {{"name", "bad-1"}});
  EXPECT_EQ(malformed.status, 201);
  EXPECT_TRUE(malformed.json.is_null()) << malformed.body;
  EXPECT_THAT(malformed.Header("Location"), HasSubstr("/api/serviceenginegroup/"));

  ASSERT_THAT(emu_->Control("POST", "faults", {{"bad_body_next", 1}, {"bad_body", "html"}}),
              IsOk());
  ApiResponse html = api_->Send("GET", kSeg);
  EXPECT_EQ(html.status, 200);
  EXPECT_THAT(html.body, HasSubstr("<title>200 OK</title>"));
  EXPECT_EQ(html.Header("Content-Type"), "text/html");

  ASSERT_THAT(emu_->Control("POST", "faults", {{"bad_body_next", 1}, {"bad_body", "truncated"}}),
              IsOk());
  EXPECT_EQ(api_->Send("POST", kSeg, {{"name", "bad-2"}}).status, 0);  // the body is cut short

  ASSERT_THAT(emu_->Control("POST", "faults", {{"bad_body_next", 1}, {"bad_body", "oversize"}}),
              IsOk());
  ApiResponse big = api_->Send("GET", absl::StrCat(kSeg, "?name=bad-1"));
  EXPECT_EQ(big.status, 200);
  EXPECT_EQ(big.body.size(), size_t{65} << 20);
  EXPECT_EQ(big.json["count"], 1);  // valid JSON, padded with white space

  // Every one of those requests took effect.
  ApiClient again(*emu_);
  ASSERT_EQ(again.Login().status, 200);
  ApiResponse bad = again.Send("GET", absl::StrCat(kSeg, "?name.contains=bad-"));
  EXPECT_EQ(bad.json["count"], 2);
}

TEST_F(EmulatorApiTest, FailureAfterCommitAndHtmlErrorPages) {
  ASSERT_THAT(emu_->Control("POST", "faults",
                            {{"fail_next", 1},
                             {"fail_status", 504},
                             {"fail_after_commit", true},
                             {"fail_body", "html"}}),
              IsOk());
  ApiResponse r = api_->Send("POST", kSeg, {{"name", "committed"}});
  EXPECT_EQ(r.status, 504);
  EXPECT_THAT(r.body, HasSubstr("<title>504 Gateway Time-out</title>"));
  EXPECT_EQ(r.Header("Location"), "");
  EXPECT_EQ(api_->Send("GET", absl::StrCat(kSeg, "?name=committed")).json["count"], 1);
}

TEST_F(EmulatorApiTest, ExpireNextAndTheRequestLog) {
  ASSERT_THAT(emu_->Control("POST", "counters/reset"), IsOk());
  ASSERT_THAT(emu_->Control("POST", "faults", {{"expire_next", 1}, {"match", "GET /api/cloud"}}),
              IsOk());
  EXPECT_EQ(api_->Send("GET", kSeg).status, 200);
  EXPECT_EQ(api_->Send("GET", "/api/cloud").status, 419);
  json log = (*emu_->Control("GET", "counters"))["log"];
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[1]["request"], "GET /api/cloud");
  EXPECT_EQ(log[1]["faults"], "expire");
  EXPECT_GE(log[1]["at_us"].get<int64_t>(), log[0]["at_us"].get<int64_t>());
}

TEST_F(EmulatorApiTest, HangUntilTheFaultsAreCleared) {
  ASSERT_THAT(emu_->Control("POST", "faults", {{"hang_next", 1}}), IsOk());
  ApiResponse held;
  std::thread t([&] { held = api_->Send("GET", kSeg); });
  absl::SleepFor(absl::Milliseconds(300));
  ASSERT_THAT(emu_->Control("DELETE", "faults"), IsOk());
  t.join();
  EXPECT_EQ(held.status, 503);
  EXPECT_THAT(held.body, HasSubstr("held and released"));
}

// A request whose client leaves during the latency is dropped unprocessed, unless the latency
// comes after the commit.
TEST_F(EmulatorApiTest, LatencyAndAClientThatLeaves) {
  for (bool after_commit : {false, true}) {
    SCOPED_TRACE(after_commit ? "after commit" : "before processing");
    const std::string name = after_commit ? "left-after" : "left-before";
    ASSERT_THAT(emu_->Control("POST", "faults",
                              {{"latency_ms", 1500}, {"latency_after_commit", after_commit}}),
                IsOk());
    httplib::SSLClient impatient(emu_->host(), emu_->port());
    impatient.set_ca_cert_path(emu_->ca_file().c_str());
    impatient.set_read_timeout(0, 300000);
    httplib::Headers headers = {{"Cookie", absl::StrCat("avi-sessionid=", api_->session_id())},
                                {"X-CSRFToken", api_->csrf_token()},
                                {"Referer", api_->base_url() + "/"},
                                {"X-Avi-Version", "22.1.3"}};
    auto r = impatient.Post(kSeg, headers, json{{"name", name}}.dump(), "application/json");
    EXPECT_FALSE(r) << "expected a read timeout";
    impatient.stop();
    absl::SleepFor(absl::Milliseconds(1800));
    ASSERT_THAT(emu_->Control("DELETE", "faults"), IsOk());
    ApiResponse found = api_->Send("GET", absl::StrCat(kSeg, "?name=", name));
    EXPECT_EQ(found.json["count"], after_commit ? 1 : 0);
  }
}

TEST_F(EmulatorApiTest, ExpireSessions) {
  ASSERT_THAT(emu_->Control("POST", "faults", {{"expire_sessions", true}}), IsOk());
  ApiResponse r = api_->Send("GET", kSeg);
  EXPECT_EQ(r.status, 419);
  EXPECT_TRUE(r.json["error"].is_string());
  ASSERT_EQ(api_->Login().status, 200);
  EXPECT_EQ(api_->Send("GET", kSeg).status, 200);
}

TEST_F(EmulatorApiTest, CountersNormaliseAndSkipControl) {
  ApiResponse c = api_->Send("POST", kSeg, {{"name", "counted"}});
  ASSERT_THAT(emu_->Control("POST", "counters/reset"), IsOk());
  ApiClient fresh(*emu_);
  ASSERT_EQ(fresh.Login().status, 200);
  const std::string path = absl::StrCat(kSeg, "/", c.json["uuid"].get<std::string>());
  EXPECT_EQ(fresh.Send("GET", path).status, 200);
  EXPECT_EQ(fresh.Send("GET", path).status, 200);
  ASSERT_THAT(emu_->Control("GET", "state"), IsOk());
  absl::StatusOr<json> counters = emu_->Control("GET", "/_emulator/counters");
  ASSERT_THAT(counters, IsOk());
  EXPECT_EQ((*counters)["total"], 3);
  EXPECT_EQ((*counters)["requests"]["POST /login"], 1);
  EXPECT_EQ((*counters)["requests"]["GET /api/serviceenginegroup/{uuid}"], 2);
  // Faulted requests count too (they reached the Controller).
  ASSERT_THAT(emu_->Control("POST", "faults", {{"fail_next", 1}}), IsOk());
  EXPECT_EQ(fresh.Send("GET", path).status, 503);
  EXPECT_EQ((*emu_->Control("GET", "counters"))["total"], 4);
}

TEST_F(EmulatorApiTest, CountersCountNewTlsConnections) {
  // Every new connection counts, the control endpoint's too: each Control() call below opens
  // one, so each reading adds one.
  const auto connections = [this] {
    return (*emu_->Control("GET", "counters"))["tls_connections"].get<int>();
  };
  ASSERT_THAT(emu_->Control("POST", "counters/reset"), IsOk());
  const int base = connections();
  EXPECT_EQ(base, 1);
  // One kept-alive client: one connection for several requests.
  ApiClient kept(*emu_);
  ASSERT_EQ(kept.Login().status, 200);
  EXPECT_EQ(kept.Send("GET", kSeg).status, 200);
  EXPECT_EQ(kept.Send("GET", kSeg).status, 200);
  EXPECT_EQ(connections(), base + 2);
  // Each further client opens its own.
  ApiClient other(*emu_);
  ASSERT_EQ(other.Login().status, 200);
  EXPECT_EQ(connections(), base + 4);
}

TEST_F(EmulatorApiTest, ConcurrentCreatesFromSixteenThreads) {
  std::vector<std::thread> threads;
  std::vector<int> statuses(16, 0);
  for (int i = 0; i < 16; ++i) {
    threads.emplace_back([this, i, &statuses] {
      ApiClient c(*emu_);
      if (c.Login().status != 200) return;
      statuses[i] = c.Send("POST", kSeg, {{"name", absl::StrCat("c-", i)}}).status;
    });
  }
  for (auto& t : threads) t.join();
  for (int s : statuses) EXPECT_EQ(s, 201);
  EXPECT_EQ(api_->Send("GET", absl::StrCat(kSeg, "?name.contains=c-")).json["count"], 16);
}

TEST(EmulatorProcessTest, IdleTimeoutExpiresSessions) {
  auto emu = StartOrDie({"--session-idle-timeout", "1"});
  ASSERT_NE(emu, nullptr);
  ApiClient api(*emu);
  ApiResponse login = api.Login();
  ASSERT_EQ(login.status, 200);
  EXPECT_EQ(login.json["controller"]["api_idle_timeout"], 1);  // minutes, rounded up
  EXPECT_EQ(api.Send("GET", kSeg).status, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));
  EXPECT_EQ(api.Send("GET", kSeg).status, 419);
}

TEST(EmulatorProcessTest, ExpiredSessionStatusFlag) {
  auto emu = StartOrDie({"--expired-session-status", "401"});
  ASSERT_NE(emu, nullptr);
  ApiClient api(*emu);
  ASSERT_EQ(api.Login().status, 200);
  ASSERT_THAT(emu->Control("POST", "faults", {{"expire_sessions", true}}), IsOk());
  EXPECT_EQ(api.Send("GET", kSeg).status, 401);
}

TEST(EmulatorProcessTest, FaultFlags) {
  auto emu = StartOrDie(
      {"--fail-next", "1", "--fail-status", "504", "--throttle-next", "1", "--retry-after", "3"});
  ASSERT_NE(emu, nullptr);
  ApiClient api(*emu);
  ApiResponse first = api.Login();
  EXPECT_EQ(first.status, 429);
  EXPECT_EQ(first.Header("Retry-After"), "3");
  EXPECT_EQ(api.Login().status, 504);
  EXPECT_EQ(api.Login().status, 200);
}

TEST(EmulatorProcessTest, StatePersistsAcrossRestart) {
  char dir[] = "/tmp/nsxalb-emulator-state-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string state = absl::StrCat(dir, "/state.json");
  std::string uuid;
  json first_state;
  {
    auto emu = StartOrDie({"--state", state});
    ASSERT_NE(emu, nullptr);
    ApiClient api(*emu);
    ASSERT_EQ(api.Login().status, 200);
    ApiResponse c = api.Send("POST", kSeg, {{"name", "kept"}, {"vcpus_per_se", 3}});
    ASSERT_EQ(c.status, 201);
    uuid = c.json["uuid"];
    first_state = *emu->Control("GET", "state");
    EXPECT_THAT(emu->Stop(), IsOk());
  }
  {
    auto emu = StartOrDie({"--state", state});
    ASSERT_NE(emu, nullptr);
    ApiClient api(*emu);
    ASSERT_EQ(api.Login().status, 200);
    ApiResponse g = api.Send("GET", absl::StrCat(kSeg, "/", uuid));
    ASSERT_EQ(g.status, 200) << g.body;
    EXPECT_EQ(g.json["vcpus_per_se"], 3);
    json second_state = *emu->Control("GET", "state");
    EXPECT_EQ(second_state["cloud"], first_state["cloud"]);
    EXPECT_EQ(second_state["serviceenginegroup"], first_state["serviceenginegroup"]);
  }
  std::remove(state.c_str());
  rmdir(dir);
}

TEST(EmulatorProcessTest, ServiceEnginesAndVirtualServicesPersistAcrossRestart) {
  char dir[] = "/tmp/nsxalb-emulator-state-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string state = absl::StrCat(dir, "/state.json");
  json ses;
  json vss;
  {
    auto emu = StartOrDie({"--state", state});
    ASSERT_NE(emu, nullptr);
    ApiClient api(*emu);
    ASSERT_EQ(api.Login().status, 200);
    ApiResponse g = api.Send("POST", kSeg, {{"name", "placed"}, {"max_vs_per_se", 2}});
    ASSERT_EQ(g.status, 201) << g.body;
    ASSERT_THAT(emu->Control("POST", "serviceengines",
                             {{"se_group_uuid", g.json["uuid"]}, {"count", 2}, {"vcpus", 2}}),
                IsOk());
    ASSERT_THAT(emu->Control("POST", "virtualservices", {{"se_group", "placed"}, {"count", 3}}),
                IsOk());
    ses = (*emu->Control("GET", "state"))["serviceengine"];
    vss = (*emu->Control("GET", "virtualservices"))["results"];
    EXPECT_THAT(emu->Stop(), IsOk());
  }
  // The SEs run at 2 vCPUs; the file holds the virtual services (objects.virtualservice).
  ASSERT_EQ(ses.size(), 2u);
  EXPECT_EQ(ses[0]["resources"]["num_vcpus"], 2);
  std::ifstream in(state);
  const json file = json::parse(in);
  ASSERT_EQ(file["objects"]["virtualservice"].size(), 3u) << file.dump();
  EXPECT_EQ(file["objects"]["virtualservice"][0]["se_uuids"], vss[0]["se_uuids"]);
  {
    auto emu = StartOrDie({"--state", state});
    ASSERT_NE(emu, nullptr);
    EXPECT_EQ((*emu->Control("GET", "state"))["serviceengine"], ses);
    EXPECT_EQ((*emu->Control("GET", "virtualservices"))["results"], vss);
    ApiClient api(*emu);
    ASSERT_EQ(api.Login().status, 200);
    ApiResponse inventory = api.Send("GET", absl::StrCat("/api/serviceengine-inventory/",
                                                         vss[0]["se_uuids"][0].get<std::string>()));
    ASSERT_EQ(inventory.status, 200) << inventory.body;
    EXPECT_THAT(inventory.json["config"]["vs_refs"], ::testing::SizeIs(2)) << inventory.body;
  }
  std::remove(state.c_str());
  rmdir(dir);
}

TEST(EmulatorProcessTest, WithoutStateNothingPersists) {
  std::string uuid;
  {
    auto emu = StartOrDie();
    ASSERT_NE(emu, nullptr);
    ApiClient api(*emu);
    ASSERT_EQ(api.Login().status, 200);
    uuid = api.Send("POST", kSeg, {{"name", "gone"}}).json["uuid"];
  }
  auto emu = StartOrDie();
  ASSERT_NE(emu, nullptr);
  ApiClient api(*emu);
  ASSERT_EQ(api.Login().status, 200);
  EXPECT_EQ(api.Send("GET", absl::StrCat(kSeg, "/", uuid)).status, 404);
}

TEST(EmulatorProcessTest, ServesOnIpv6Loopback) {
  EmulatorProcess::Options o;
  o.extra_args = {"--bind", "::1"};
  absl::StatusOr<std::unique_ptr<EmulatorProcess>> emu = EmulatorProcess::Start(o);
  if (!emu.ok()) GTEST_SKIP() << "no IPv6 loopback here: " << emu.status();
  EXPECT_THAT((*emu)->url(), StartsWith("https://[::1]:"));
  EXPECT_EQ((*emu)->host(), "::1");
  // Control() verifies the certificate (SAN IP:::1) with libcurl. cpp-httplib 0.11's client is
  // not used here: it over-reads IPv4 SAN entries when verifying an IPv6 host.
  absl::StatusOr<json> state = (*emu)->Control("GET", "state");
  ASSERT_THAT(state, IsOk());
  EXPECT_EQ((*state)["controller_version"], "22.1.3");
}

TEST(EmulatorProcessTest, TlsFailsWithoutTheCa) {
  auto emu = StartOrDie();
  ASSERT_NE(emu, nullptr);
  httplib::SSLClient client(emu->host(), emu->port());
  client.enable_server_certificate_verification(true);
  client.set_ca_cert_path("/nonexistent-ca.pem");
  client.set_connection_timeout(5, 0);
  httplib::Result r = client.Get("/api/initial-data");
  EXPECT_FALSE(r);
}

TEST(EmulatorProcessTest, TlsDirHoldsAReusableCertificate) {
  char dir[] = "/tmp/nsxalb-emulator-tls-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string first_ca;
  {
    auto emu = StartOrDie({"--tls-dir", dir});
    ASSERT_NE(emu, nullptr);
    EXPECT_EQ(emu->ca_file(), absl::StrCat(dir, "/cert.pem"));
    EXPECT_EQ(access(absl::StrCat(dir, "/key.pem").c_str(), R_OK), 0);
    ApiClient api(*emu);
    EXPECT_EQ(api.Login().status, 200);
  }
  auto emu = StartOrDie({"--tls-dir", dir});
  ASSERT_NE(emu, nullptr);
  ApiClient api(*emu);
  EXPECT_EQ(api.Login().status, 200);
  emu.reset();
  std::remove(absl::StrCat(dir, "/cert.pem").c_str());
  std::remove(absl::StrCat(dir, "/key.pem").c_str());
  rmdir(dir);
}

TEST(EmulatorProcessTest, BadFlagsFailStartClearly) {
  EmulatorProcess::Options o;
  o.extra_args = {"--bind", "192.0.2.1"};
  absl::StatusOr<std::unique_ptr<EmulatorProcess>> emu = EmulatorProcess::Start(o);
  ASSERT_THAT(emu, Not(IsOk()));
  EXPECT_THAT(std::string(emu.status().message()), HasSubstr("exited with status 2"));
}

TEST(EmulatorProcessTest, OlderControllerVersion) {
  auto emu = StartOrDie({}, "20.1.9");
  ASSERT_NE(emu, nullptr);
  ApiClient api(*emu, "20.1.9");
  ApiResponse login = api.Login();
  EXPECT_EQ(login.json["version"]["Version"], "20.1.9");
  ApiResponse r = api.Send("POST", kSeg, {{"name", "x"}, {"hybrid_rss_mode", false}});
  EXPECT_EQ(r.status, 400);
  EXPECT_THAT(r.json["error"].get<std::string>(), HasSubstr("(v20_1_9)"));
  EXPECT_EQ(api.Send("GET", kSeg, nullptr, {{"X-Avi-Version", "22.1.3"}}).status, 400);
}

// The vendor's default for every catalog field that has one (the swagger's), and what the
// vendor's own Terraform provider sends for the fields it defaults where the swagger has none,
// for the fields available in `version`.
json VendorDefaults(const controller::ApiVersion& version) {
  json body = json::object();
  for (const controller::SeGroupField& f : controller::SeGroupFields()) {
    if (f.default_json.empty()) continue;
    body[std::string(f.name)] = json::parse(f.default_json.begin(), f.default_json.end());
  }
  for (const VendorFieldFacts& f : VendorSeGroupFacts()) {
    if (*f.client_default_json != '\0') body[f.name] = json::parse(f.client_default_json);
  }
  for (auto it = body.begin(); it != body.end();) {
    const controller::SeGroupField* f = controller::FindSeGroupField(it.key());
    it = controller::FieldIntroducedIn(*f).AvailableIn(version) ? std::next(it) : body.erase(it);
  }
  return body;
}

// A real Controller accepts its own defaults, and those a real Avi client sends on every create
// (for example se_pcap_reinit_frequency = 0, a special value below its 900-43200 range).
TEST(EmulatorProcessTest, AcceptsTheVendorsDefaultForEveryField) {
  for (const char* version : {"30.2.1", "22.1.3", "20.1.9"}) {
    SCOPED_TRACE(version);
    auto emu = StartOrDie({}, version);
    ASSERT_NE(emu, nullptr);
    ApiClient api(*emu, version);
    ASSERT_EQ(api.Login().status, 200);
    json body = VendorDefaults(*controller::ApiVersion::Parse(version));
    ASSERT_EQ(body["se_pcap_reinit_frequency"], 0);
    // The same values pass the client's pre-send check.
    absl::Status check = controller::ValidateFieldValues(body);
    EXPECT_THAT(check, IsOk());
    body["name"] = "vendor-defaults";
    ApiResponse r = api.Send("POST", kSeg, body);
    ASSERT_EQ(r.status, 201) << r.body;
    ApiResponse got = api.Send("GET", absl::StrCat(kSeg, "/", r.json["uuid"].get<std::string>()));
    for (auto it = body.begin(); it != body.end(); ++it) {
      EXPECT_EQ(got.json[it.key()], it.value()) << it.key();
    }
  }
}

TEST_F(EmulatorApiTest, SpecialValuesAreAcceptedAndTheErrorNamesThem) {
  EXPECT_EQ(api_->Send("POST", kSeg, {{"name", "pcap0"}, {"se_pcap_reinit_frequency", 0}}).status,
            201);
  ApiResponse r = api_->Send("POST", kSeg, {{"name", "pcap1"}, {"se_pcap_reinit_frequency", 1}});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.json["error"],
            "Value 1 of field se_pcap_reinit_frequency is out of range [900-43200]. Special "
            "values are 0.");
}

// True when `pid` is gone or a zombie (a container's init may not reap orphans).
bool ProcessEnded(pid_t pid) {
  std::FILE* f = std::fopen(absl::StrCat("/proc/", pid, "/stat").c_str(), "r");
  if (f == nullptr) return true;
  char state = '?';
  int scanned = std::fscanf(f, "%*d %*s %c", &state);
  std::fclose(f);
  return scanned == 1 && (state == 'Z' || state == 'X');
}

TEST(EmulatorProcessTest, ExitsWithItsParent) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const std::string script = absl::StrCat("'", NSXALB_EMULATOR_BINARY,
                                          "' --port 0 --exit-with-parent >/dev/null 2>&1 & "
                                          "echo $!; exec sleep 30");
  const char* argv[] = {"/bin/sh", "-c", script.c_str(), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  pid_t shell = -1;
  ASSERT_EQ(posix_spawn(&shell, "/bin/sh", &actions, nullptr, const_cast<char**>(argv), environ),
            0);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  std::string out;
  pollfd p{fds[0], POLLIN, 0};
  char buf[64];
  while (out.find('\n') == std::string::npos && poll(&p, 1, 5000) > 0) {
    ssize_t n = read(fds[0], buf, sizeof(buf));
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  const pid_t emulator = static_cast<pid_t>(std::atoi(out.c_str()));
  ASSERT_GT(emulator, 0) << out;
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // let it get going
  EXPECT_FALSE(ProcessEnded(emulator));
  kill(shell, SIGKILL);
  int status = 0;
  waitpid(shell, &status, 0);
  bool ended = false;
  for (int i = 0; i < 100 && !ended; ++i) {
    ended = ProcessEnded(emulator);
    if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(ended) << "the emulator outlived its parent";
  if (!ended) kill(emulator, SIGKILL);
}

// The README and docs/emulator.md quote start-up "over 20 runs": this is the measurement.
constexpr int kStartupRuns = 20;

TEST(EmulatorProcessTest, StartupTime) {
  std::vector<double> ms;
  for (int i = 0; i < kStartupRuns; ++i) {
    auto emu = StartOrDie();
    ASSERT_NE(emu, nullptr);
    ms.push_back(emu->startup_ms());
  }
  std::sort(ms.begin(), ms.end());
  std::printf(
      "emulator --port 0 start-to-ready over %zu runs: min %.1f ms, median %.1f ms, "
      "max %.1f ms\n",
      ms.size(), ms.front(), ms[ms.size() / 2], ms.back());
  RecordProperty("startup_median_ms", std::to_string(ms[ms.size() / 2]));
}

}  // namespace
}  // namespace nsxalb::testing
