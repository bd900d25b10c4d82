// Integration tests of the client's analytics calls (ListServiceEngines, QueryMetricsCollection)
// against nsxalb-controller-emulator over real HTTPS: paging, refers_to filtering, the collection
// round trip, status mapping (400, 403, 404, 503 after retries) and the body limits; and unit
// tests of ToServiceEngine.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "plugin/controller/client.h"
#include "plugin/controller/errors.h"
#include "plugin/controller/response.h"
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

}  // namespace
}  // namespace nsxalb::controller
