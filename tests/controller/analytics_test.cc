// Integration tests of the client's analytics calls (ListServiceEngines, ListTenantServiceEngines,
// QueryMetricsCollection, StreamMetricsCollection) against nsxalb-controller-emulator over real
// HTTPS: paging, refers_to and fields filtering, the collection round trip parsed and streamed,
// status mapping (400, 403, 404, 503 after retries) and the body limits; and unit tests of
// ToServiceEngine.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "plugin/controller/client.h"
#include "plugin/controller/errors.h"
#include "plugin/controller/response.h"
#include "tests/controller/recording_sink.h"
#include "tests/support/emulator_process.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::controller {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;

using ::nsxalb::testing::EmulatorProcess;
using ::testing::HasSubstr;
using Json = nlohmann::json;

class AnalyticsClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto emulator = EmulatorProcess::Start(EmulatorProcess::Options{});
    ASSERT_THAT(emulator, IsOk());
    emulator_ = *std::move(emulator);
    ClientConfig c;
    c.controller = emulator_->url();
    c.username = "admin";
    c.password = "admin";
    c.ca_file = emulator_->ca_file();
    c.request_timeout = absl::Seconds(20);
    c.total_timeout = absl::Seconds(60);
    c.backoff_initial = absl::Milliseconds(10);
    c.backoff_max = absl::Milliseconds(50);
    c.max_retries = 2;
    c.page_size = 2;
    auto client = NewClient(c);
    ASSERT_THAT(client, IsOk());
    client_ = *std::move(client);
  }

  std::string Group(const std::string& name, Json fields) {
    SeGroupSpec spec;
    spec.name = name;
    spec.fields = std::move(fields);
    auto g = client_->CreateSeGroup(spec);
    EXPECT_THAT(g, IsOk());
    return g.ok() ? g->uuid : "";
  }

  std::vector<std::string> Ses(const std::string& group, int count, Json extra = Json::object()) {
    extra["se_group_uuid"] = group;
    extra["count"] = count;
    auto r = emulator_->Control("POST", "serviceengines", extra);
    EXPECT_THAT(r, IsOk());
    return r.ok() ? (*r)["uuids"].get<std::vector<std::string>>() : std::vector<std::string>{};
  }

  int Count(const std::string& key) {
    auto counters = emulator_->Control("GET", "counters");
    EXPECT_THAT(counters, IsOk());
    return counters.ok() ? (*counters)["requests"].value(key, 0) : -1;
  }

  void Fault(const Json& faults) {
    auto r = emulator_->Control("POST", "faults", faults);
    ASSERT_THAT(r, IsOk());
  }

  // One request for the CPU of `se` over the last three 5-minute points.
  static Json CpuRequest(const std::string& se) {
    return {{"metric_requests",
             {{{"id", "cpu"},
               {"entity_uuid", se},
               {"metric_id", "se_stats.avg_cpu_usage"},
               {"step", 300},
               {"limit", 3},
               {"pad_missing_data", false}}}}};
  }

  std::unique_ptr<EmulatorProcess> emulator_;
  std::unique_ptr<Client> client_;
};

TEST_F(AnalyticsClientTest, ListsAGroupsServiceEnginesOverThreePages) {
  const std::string web = Group("web", {{"vcpus_per_se", 2}, {"memory_per_se", 4096}});
  const std::string other = Group("other", Json::object());
  std::vector<std::string> ses = Ses(web, 4);
  std::vector<std::string> big = Ses(web, 1, {{"vcpus", 8}});
  Ses(other, 3);
  ASSERT_THAT(emulator_->Control("POST", "counters/reset"), IsOk());

  auto listed = client_->ListServiceEngines(web, "");
  ASSERT_THAT(listed, IsOk());
  ASSERT_EQ(listed->size(), 5u);
  EXPECT_EQ(Count("GET /api/serviceengine"), 3);  // five SEs, two a page
  for (size_t i = 0; i < 4; ++i) {
    const ServiceEngine& se = (*listed)[i];
    EXPECT_EQ(se.uuid, ses[i]);
    EXPECT_EQ(se.num_vcpus, 2);
    EXPECT_EQ(se.memory_mb, 4096);
    EXPECT_EQ(se.disk_gb, 15);
    EXPECT_THAT(se.se_group_ref, HasSubstr(web));
    EXPECT_EQ(se.name, absl::StrCat("web-se-", i + 1));
    EXPECT_EQ(se.body["uuid"], se.uuid);
  }
  EXPECT_EQ((*listed)[4].uuid, big[0]);
  EXPECT_EQ((*listed)[4].num_vcpus, 8);

  // A ref works as well as a uuid; a group without SEs (or unknown) lists none.
  auto by_ref = client_->ListServiceEngines(
      absl::StrCat(emulator_->url(), "/api/serviceenginegroup/", other, "#other"), "");
  ASSERT_THAT(by_ref, IsOk());
  EXPECT_EQ(by_ref->size(), 3u);
  auto none = client_->ListServiceEngines("serviceenginegroup-none", "");
  ASSERT_THAT(none, IsOk());
  EXPECT_TRUE(none->empty());
  EXPECT_EQ(client_->ListServiceEngines("", "").status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(AnalyticsClientTest, CollectionPostRoundTrip) {
  const std::string web = Group("web", Json::object());
  std::vector<std::string> ses = Ses(web, 2);
  ASSERT_THAT(emulator_->Control("POST", "metrics",
                                 {{"series",
                                   {{{"entity_uuid", ses[0]},
                                     {"metric_id", "se_stats.avg_cpu_usage"},
                                     {"step", 300},
                                     {"values", {40, Json(), 91}}},
                                    {{"entity_uuid", "virtualservice-1"},
                                     {"serviceengine_uuid", ses[1]},
                                     {"metric_id", "l7_client.avg_complete_responses"},
                                     {"step", 300},
                                     {"values", {110000, 90000}}}}}}),
              IsOk());
  Json request = CpuRequest(absl::StrCat(ses[0], ",", ses[1]));
  request["metric_requests"].push_back({{"id", "rps"},
                                        {"entity_uuid", "*"},
                                        {"serviceengine_uuid", ses[1]},
                                        {"aggregate_entity", true},
                                        {"metric_id", "l7_client.avg_complete_responses"},
                                        {"step", 300},
                                        {"limit", 3}});
  auto answer = client_->QueryMetricsCollection(request, "admin");
  ASSERT_THAT(answer, IsOk());
  const Json& cpu = (*answer)["series"]["cpu"][ses[0]][0];
  EXPECT_EQ(cpu["header"]["name"], "se_stats.avg_cpu_usage");
  EXPECT_EQ(cpu["header"]["statistics"]["max"], 91);
  EXPECT_EQ(cpu["data"].size(), 2u);
  EXPECT_TRUE((*answer)["series"]["cpu"][ses[1]][0]["data"].empty());
  const Json& rps = (*answer)["series"]["rps"][ses[1]][0];
  EXPECT_EQ(rps["header"]["serviceengine_uuid"], ses[1]);
  EXPECT_EQ(rps["header"]["statistics"]["max"], 110000);
  EXPECT_EQ(rps["data"].size(), 3u);  // padded: one is_null point
  EXPECT_EQ(Count("POST /api/analytics/metrics/collection"), 1);

  EXPECT_EQ(client_->QueryMetricsCollection(Json::array(), "").status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(AnalyticsClientTest, StatusesMapAsErrorsSays) {
  const std::string web = Group("web", Json::object());
  const std::string se = Ses(web, 1)[0];

  Json bad = CpuRequest(se);
  bad["metric_requests"][0]["metric_id"] = "se_stats.max_cpu_usage";
  auto invalid = client_->QueryMetricsCollection(bad, "");
  EXPECT_THAT(invalid, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_EQ(HttpStatusOf(invalid.status()), 400);
  EXPECT_THAT(std::string(invalid.status().message()),
              HasSubstr("metric_requests[id=cpu].metric_id"));

  auto unknown = client_->QueryMetricsCollection(CpuRequest("se-unknown"), "");
  EXPECT_THAT(unknown, StatusIs(absl::StatusCode::kNotFound));

  Fault({{"fail_next", 1}, {"fail_status", 403}, {"match", "POST /api/analytics/metrics/*"}});
  auto denied = client_->QueryMetricsCollection(CpuRequest(se), "");
  EXPECT_THAT(denied, StatusIs(absl::StatusCode::kPermissionDenied));

  // One 503 is retried away; more than max_retries is Unavailable.
  ASSERT_THAT(emulator_->Control("POST", "counters/reset"), IsOk());
  Fault({{"fail_next", 1}, {"fail_status", 503}, {"match", "POST /api/analytics/metrics/*"}});
  EXPECT_THAT(client_->QueryMetricsCollection(CpuRequest(se), ""), IsOk());
  EXPECT_EQ(Count("POST /api/analytics/metrics/collection"), 2);
  Fault({{"fail_next", 3}, {"fail_status", 503}, {"match", "POST /api/analytics/metrics/*"}});
  auto down = client_->QueryMetricsCollection(CpuRequest(se), "");
  EXPECT_THAT(down, StatusIs(absl::StatusCode::kUnavailable));
  EXPECT_EQ(HttpStatusOf(down.status()), 503);

  Fault({{"fail_next", 1}, {"fail_status", 503}, {"match", "GET /api/serviceengine"}});
  auto listed = client_->ListServiceEngines(web, "");
  ASSERT_THAT(listed, IsOk());
  EXPECT_EQ(listed->size(), 1u);
}

TEST_F(AnalyticsClientTest, AnswersMeetTheBodyLimits) {
  const std::string se = Ses(Group("web", Json::object()), 1)[0];
  Fault({{"bad_body_next", 1}, {"bad_body", "oversize"}});
  auto oversize = client_->QueryMetricsCollection(CpuRequest(se), "");
  EXPECT_THAT(oversize, StatusIs(absl::StatusCode::kResourceExhausted));
  Fault({{"bad_body_next", 1}, {"bad_body", "malformed_json"}});
  auto malformed = client_->QueryMetricsCollection(CpuRequest(se), "");
  EXPECT_THAT(malformed, StatusIs(absl::StatusCode::kInternal));
}

// The SEs of every group of the tenant in one paged listing: page_size 2, five SEs, three
// requests; only the fields asked for, with the sizes read from `resources`.
TEST_F(AnalyticsClientTest, ListsEveryServiceEngineOfATenantAcrossPages) {
  const std::string web = Group("web", {{"vcpus_per_se", 2}, {"memory_per_se", 4096}});
  const std::string db = Group("db", {{"vcpus_per_se", 8}, {"memory_per_se", 16384}});
  std::vector<std::string> web_ses = Ses(web, 3);
  std::vector<std::string> db_ses = Ses(db, 2);
  ASSERT_THAT(emulator_->Control("POST", "counters/reset"), IsOk());

  auto listed = client_->ListTenantServiceEngines("");
  ASSERT_THAT(listed, IsOk());
  EXPECT_EQ(Count("GET /api/serviceengine"), 3);  // five SEs, two a page
  EXPECT_EQ(Count("GET /api/serviceenginegroup"), 0);
  ASSERT_EQ(listed->size(), 5u);
  for (size_t i = 0; i < listed->size(); ++i) {
    const ServiceEngine& se = (*listed)[i];
    const bool in_web = i < 3;
    SCOPED_TRACE(se.name);
    EXPECT_EQ(se.uuid, in_web ? web_ses[i] : db_ses[i - 3]);
    EXPECT_THAT(se.se_group_ref, HasSubstr(in_web ? web : db));
    EXPECT_EQ(se.num_vcpus, in_web ? 2 : 8);
    EXPECT_EQ(se.memory_mb, in_web ? 4096 : 16384);
    EXPECT_FALSE(se.name.empty());
    EXPECT_FALSE(se.body.contains("cloud_ref"));  // fields= honoured
    EXPECT_EQ(se.enable_state, "SE_STATE_ENABLED");
  }
}

// A streamed collection brings the very answer QueryMetricsCollection parses, in many chunks:
// 7 days at 300 s of the SE metrics of SEs in two groups in one request, and of the virtual
// services on each SE aggregated, in one request per SE. One 503 on the way is retried without
// touching the sink.
TEST_F(AnalyticsClientTest, StreamedCollectionIsTheParsedOnesAnswer) {
  std::vector<std::string> ses = Ses(Group("web", Json::object()), 2);
  for (const std::string& se : Ses(Group("db", Json::object()), 2)) ses.push_back(se);
  const absl::Time stop = absl::FromUnixSeconds(absl::ToUnixSeconds(absl::Now()) / 3600 * 3600);
  const std::string stop_text = absl::FormatTime(absl::RFC3339_sec, stop, absl::UTCTimeZone());
  const std::string start_text =
      absl::FormatTime(absl::RFC3339_sec, stop - absl::Hours(24 * 7), absl::UTCTimeZone());
  constexpr int kPoints = 2016;
  Json values = Json::array();
  for (int i = 0; i < kPoints; ++i) values.push_back(i % 97);
  Json series = Json::array();
  for (const std::string& se : ses) {
    for (const char* metric :
         {"se_stats.avg_cpu_usage", "se_stats.avg_mem_usage", "se_if.avg_bandwidth"}) {
      series.push_back({{"entity_uuid", se},
                        {"metric_id", metric},
                        {"step", 300},
                        {"stop", stop_text},
                        {"values", values}});
    }
    series.push_back({{"entity_uuid", "virtualservice-on-" + se},
                      {"serviceengine_uuid", se},
                      {"metric_id", "l7_client.avg_complete_responses"},
                      {"step", 300},
                      {"stop", stop_text},
                      {"values", values}});
  }
  ASSERT_THAT(emulator_->Control("POST", "metrics", {{"series", series}}), IsOk());
  Json common = {{"step", 300},
                 {"limit", kPoints},
                 {"start", start_text},
                 {"stop", stop_text},
                 {"pad_missing_data", false}};
  Json se_stats = common;
  se_stats["id"] = "se-stats";
  se_stats["entity_uuid"] = absl::StrJoin(ses, ",");
  se_stats["metric_id"] = "se_stats.avg_cpu_usage,se_stats.avg_mem_usage,se_if.avg_bandwidth";
  Json request = {{"metric_requests", {se_stats}}};
  for (const std::string& se : ses) {
    Json vs_on = common;
    vs_on["id"] = "vs-on:" + se;
    vs_on["entity_uuid"] = "*";
    vs_on["serviceengine_uuid"] = se;
    vs_on["aggregate_entity"] = true;
    vs_on["metric_id"] = "l7_client.avg_complete_responses,l4_client.max_open_conns";
    request["metric_requests"].push_back(vs_on);
  }

  auto parsed = client_->QueryMetricsCollection(request, "");
  ASSERT_THAT(parsed, IsOk());
  for (const std::string& se : ses) {
    SCOPED_TRACE(se);
    const Json& by_se = (*parsed)["series"]["se-stats"][se];
    ASSERT_EQ(by_se.size(), 3u);
    for (const Json& one : by_se) EXPECT_EQ(one["data"].size(), static_cast<size_t>(kPoints));
    EXPECT_EQ((*parsed)["series"]["vs-on:" + se][se][0]["data"].size(),
              static_cast<size_t>(kPoints));
  }

  ASSERT_THAT(emulator_->Control("POST", "counters/reset"), IsOk());
  Fault({{"fail_next", 1}, {"fail_status", 503}, {"match", "POST /api/analytics/metrics/*"}});
  RecordingSink sink;
  ASSERT_THAT(client_->StreamMetricsCollection(request, "", sink), IsOk());
  EXPECT_EQ(Count("POST /api/analytics/metrics/collection"), 2);
  EXPECT_EQ(sink.begins(), 1);
  EXPECT_GT(sink.writes(), 10);
  EXPECT_GT(sink.data().size(), size_t{1} << 20);
  EXPECT_EQ(Json::parse(sink.data()), *parsed);
}

TEST(ToServiceEngineTest, ReadsSizesAndRejectsBadOnes) {
  auto se =
      ToServiceEngine({{"uuid", "se-1"},
                       {"name", "a"},
                       {"se_group_ref", "https://c/api/serviceenginegroup/serviceenginegroup-1"},
                       {"resources", {{"num_vcpus", 4}, {"memory", 8192}, {"disk", 20}}}},
                      "GET x");
  ASSERT_THAT(se, IsOk());
  EXPECT_EQ(se->num_vcpus, 4);
  EXPECT_EQ(se->memory_mb, 8192);
  EXPECT_EQ(se->disk_gb, 20);
  auto bare = ToServiceEngine({{"uuid", "se-2"}}, "GET x");
  ASSERT_THAT(bare, IsOk());
  EXPECT_EQ(bare->num_vcpus, 0);
  EXPECT_THAT(ToServiceEngine({{"name", "x"}}, "GET x"), StatusIs(absl::StatusCode::kInternal));
  EXPECT_THAT(ToServiceEngine(Json::array(), "GET x"), StatusIs(absl::StatusCode::kInternal));
  for (const Json& bad : {Json("4"), Json(2.5), Json(-1)}) {
    auto r = ToServiceEngine({{"uuid", "se-3"}, {"resources", {{"num_vcpus", bad}}}}, "GET x");
    EXPECT_THAT(r, StatusIs(absl::StatusCode::kInternal)) << bad;
    EXPECT_THAT(std::string(r.status().message()), HasSubstr("resources.num_vcpus"));
  }
}

// Where a group's virtual services sit, in one paged inventory request (two SEs a page), with
// the virtual services' names; and the upgrade status, all completed, then one group's upgrade
// and a system upgrade set through the control endpoint.
TEST_F(AnalyticsClientTest, PlacementsAndUpgradeStatusFromTheEmulator) {
  const std::string web = Group("web", {{"max_vs_per_se", 2}});
  Group("other", Json::object());
  std::vector<std::string> ses = Ses(web, 3);
  ASSERT_THAT(emulator_->Control("POST", "virtualservices", {{"se_group", web}, {"count", 3}}),
              IsOk());
  ASSERT_THAT(emulator_->Control("POST", "counters/reset"), IsOk());
  auto placements = client_->ListServiceEnginePlacements(web, "");
  ASSERT_THAT(placements, IsOk());
  EXPECT_EQ(Count("GET /api/serviceengine-inventory"), 2);  // three SEs, two a page
  ASSERT_EQ(placements->size(), 3u);
  // Packed, max_vs_per_se 2: the first SE full, then the second.
  EXPECT_EQ((*placements)[0].uuid, ses[0]);
  EXPECT_EQ((*placements)[0].name, "web-se-1");
  EXPECT_EQ((*placements)[0].oper_state, "OPER_UP");
  EXPECT_EQ((*placements)[0].enable_state, "SE_STATE_ENABLED");
  ASSERT_EQ((*placements)[0].virtual_services.size(), 2u);
  EXPECT_EQ((*placements)[0].virtual_services[0].name, "web-vs-1");
  EXPECT_EQ((*placements)[0].virtual_services[1].name, "web-vs-2");
  ASSERT_EQ((*placements)[1].virtual_services.size(), 1u);
  EXPECT_EQ((*placements)[1].virtual_services[0].name, "web-vs-3");
  EXPECT_THAT((*placements)[2].virtual_services, ::testing::IsEmpty());

  auto status = client_->GetUpgradeStatus();
  ASSERT_THAT(status, IsOk());
  EXPECT_TRUE(status->known);
  EXPECT_FALSE(status->InProgress());
  EXPECT_GE(status->nodes.size(), 3u);  // the Controller, web, other, the Default-Groups
  ASSERT_THAT(emulator_->Control("POST", "upgrade",
                                 {{"se_groups", {{web, "UPGRADE_FSM_SE_UPGRADE_IN_PROGRESS"}}}}),
              IsOk());
  status = client_->GetUpgradeStatus();
  ASSERT_THAT(status, IsOk());
  EXPECT_TRUE(status->SeGroupUpgrading(web));
  EXPECT_FALSE(status->SystemUpgrading());
  EXPECT_EQ(status->Describe(), "the upgrade of SE group web (UPGRADE_FSM_SE_UPGRADE_IN_PROGRESS)");
  ASSERT_THAT(emulator_->Control("POST", "upgrade", {{"system", "UPGRADE_FSM_IN_PROGRESS"}}),
              IsOk());
  status = client_->GetUpgradeStatus();
  ASSERT_THAT(status, IsOk());
  EXPECT_TRUE(status->SystemUpgrading());
  EXPECT_TRUE(status->SeGroupUpgrading("serviceenginegroup-any"));
}

}  // namespace
}  // namespace nsxalb::controller
