// The emulator's Service Engines and analytics API over real HTTPS on loopback: the SE collection
// (refers_to, paging, fields, include_name), the object GET, the metrics GETs and the collection
// POST (session, CSRF, counters, faults), the two control endpoints, --state and the delete of a
// group with SEs.
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/emulator/api_client.h"
#include "tests/support/emulator_process.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::testing {
namespace {

using ::nsxalb::testing::IsOk;

using ::nlohmann::json;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::unique_ptr<EmulatorProcess> StartOrDie(std::vector<std::string> extra = {}) {
  EmulatorProcess::Options o;
  o.extra_args = std::move(extra);
  absl::StatusOr<std::unique_ptr<EmulatorProcess>> p = EmulatorProcess::Start(o);
  EXPECT_THAT(p, IsOk());
  return p.ok() ? std::move(*p) : nullptr;
}

class EmulatorAnalyticsTest : public ::testing::Test {
 protected:
  void SetUp() override { Start({}); }

  void Start(std::vector<std::string> extra) {
    api_.reset();
    emu_.reset();
    emu_ = StartOrDie(std::move(extra));
    ASSERT_NE(emu_, nullptr);
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

  std::vector<std::string> Ses(const std::string& group, int count, const json& extra = {}) {
    json body = {{"se_group_uuid", group}, {"count", count}};
    if (extra.is_object()) body.update(extra);
    absl::StatusOr<json> r = emu_->Control("POST", "serviceengines", body);
    EXPECT_THAT(r, IsOk());
    return r.ok() ? (*r)["uuids"].get<std::vector<std::string>>() : std::vector<std::string>{};
  }

  std::unique_ptr<EmulatorProcess> emu_;
  std::unique_ptr<ApiClient> api_;
};

TEST_F(EmulatorAnalyticsTest, ServiceEnginesOfAGroupPagedWithRefersTo) {
  const std::string web = Group("web", {{"vcpus_per_se", 2}, {"memory_per_se", 4096}});
  const std::string other = Group("other");
  std::vector<std::string> ses = Ses(web, 5);
  ASSERT_EQ(ses.size(), 5u);
  Ses(other, 2, {{"vcpus", 8}});
  for (const std::string& uuid : ses) EXPECT_THAT(uuid, StartsWith("se-"));

  std::vector<std::string> listed;
  std::string path =
      absl::StrCat("/api/serviceengine?refers_to=serviceenginegroup:", web, "&page_size=2");
  int pages = 0;
  while (!path.empty() && pages < 10) {
    ApiResponse r = api_->Send("GET", path);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json["count"], 5);
    for (const json& se : r.json["results"]) {
      listed.push_back(se["uuid"]);
      EXPECT_EQ(se["se_group_ref"],
                absl::StrCat(api_->base_url(), "/api/serviceenginegroup/", web));
      EXPECT_EQ(se["resources"], (json{{"num_vcpus", 2}, {"memory", 4096}, {"disk", 15}}));
      EXPECT_THAT(se["cloud_ref"].get<std::string>(), HasSubstr("/api/cloud/cloud-"));
      EXPECT_THAT(se["tenant_ref"].get<std::string>(), HasSubstr("/api/tenant/admin"));
    }
    path = r.json.contains("next")
               ? r.json["next"].get<std::string>().substr(api_->base_url().size())
               : "";
    ++pages;
  }
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(listed, ses);

  ApiResponse all = api_->Send("GET", "/api/serviceengine?page_size=100");
  EXPECT_EQ(all.json["count"], 7);
  ApiResponse fields =
      api_->Send("GET", absl::StrCat("/api/serviceengine?refers_to=serviceenginegroup:", other,
                                     "&fields=se_group_ref,resources&include_name=true"));
  ASSERT_EQ(fields.json["count"], 2);
  const json& first = fields.json["results"][0];
  EXPECT_EQ(first["resources"]["num_vcpus"], 8);
  EXPECT_THAT(first["se_group_ref"].get<std::string>(), ::testing::EndsWith("#other"));
  EXPECT_FALSE(first.contains("name"));
  ApiResponse one = api_->Send("GET", absl::StrCat("/api/serviceengine/", ses[0]));
  ASSERT_EQ(one.status, 200);
  EXPECT_EQ(one.json["name"], "web-se-1");
  EXPECT_EQ(api_->Send("GET", "/api/serviceengine/se-nope").status, 404);
  EXPECT_EQ(api_->Send("GET", "/api/serviceengine?refers_to=nocolon").status, 400);
}

TEST_F(EmulatorAnalyticsTest, ControlEndpointsRejectBadBodies) {
  const std::string web = Group("web");
  absl::StatusOr<json> unknown =
      emu_->Control("POST", "serviceengines", {{"se_group_uuid", "nope"}, {"count", 1}});
  EXPECT_THAT(std::string(unknown.status().message()), HasSubstr("404"));
  for (const json& count : {json(0), json(-1), json("2"), json(1.5), json(1001)}) {
    absl::StatusOr<json> r =
        emu_->Control("POST", "serviceengines", {{"se_group_uuid", web}, {"count", count}});
    EXPECT_THAT(std::string(r.status().message()), HasSubstr("400")) << count;
  }
  const std::string se = Ses(web, 1)[0];
  absl::StatusOr<json> bad = emu_->Control("POST", "metrics",
                                           {{"series",
                                             {{{"entity_uuid", se},
                                               {"metric_id", "se_stats.avg_cpu_usage"},
                                               {"step", 300},
                                               {"values", {1, -1}}}}}});
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("series[0].values[1]"));
}

TEST_F(EmulatorAnalyticsTest, MetricsGetsAndTheCollectionPost) {
  const std::string web = Group("web");
  std::vector<std::string> ses = Ses(web, 2);
  const std::string stop = "2026-11-28T14:05:00Z";
  absl::StatusOr<json> loaded = emu_->Control("POST", "metrics",
                                              {{"series",
                                                {{{"entity_uuid", ses[0]},
                                                  {"metric_id", "se_stats.avg_cpu_usage"},
                                                  {"step", 300},
                                                  {"values", {50, nullptr, 91}},
                                                  {"stop", stop}},
                                                 {{"entity_uuid", "virtualservice-1"},
                                                  {"serviceengine_uuid", ses[0]},
                                                  {"metric_id", "l7_client.avg_complete_responses"},
                                                  {"step", 300},
                                                  {"values", {120000, 80000, 10}},
                                                  {"stop", stop}},
                                                 {{"entity_uuid", "virtualservice-2"},
                                                  {"serviceengine_uuid", ses[0]},
                                                  {"metric_id", "l7_client.avg_complete_responses"},
                                                  {"step", 300},
                                                  {"values", {5, 6, 7}},
                                                  {"stop", stop}}}}});
  ASSERT_THAT(loaded, IsOk());
  EXPECT_EQ((*loaded)["series"][0]["stop"], "2026-11-28T14:05:00+00:00");

  ApiResponse cpu = api_->Send(
      "GET", absl::StrCat("/api/analytics/metrics/serviceengine/", ses[0],
                          "?metric_id=se_stats.avg_cpu_usage&step=300&limit=3&stop=", stop));
  ASSERT_EQ(cpu.status, 200) << cpu.body;
  EXPECT_EQ(cpu.json["entity_uuid"], ses[0]);
  const json& data = cpu.json["series"][0]["data"];
  ASSERT_EQ(data.size(), 3u);
  EXPECT_EQ(data[1]["is_null"], true);
  EXPECT_EQ(cpu.json["series"][0]["header"]["statistics"]["max"], 91);

  ApiResponse agg = api_->Send(
      "GET", absl::StrCat(
                 "/api/analytics/metrics/virtualservice/?entity_uuid=*&serviceengine_uuid=", ses[0],
                 "&aggregate_entity=true&metric_id=l7_client.avg_complete_responses",
                 "&step=300&limit=3&pad_missing_data=false&stop=", stop));
  ASSERT_EQ(agg.status, 200) << agg.body;
  EXPECT_EQ(agg.json["series"][0]["header"]["statistics"]["max"], 120005);

  json body = {{"metric_requests",
                {{{"id", "cpu"},
                  {"entity_uuid", absl::StrCat(ses[0], ",", ses[1])},
                  {"metric_id", "se_stats.avg_cpu_usage"},
                  {"step", 300},
                  {"limit", 3},
                  {"stop", stop}},
                 {{"id", "rps"},
                  {"entity_uuid", "*"},
                  {"serviceengine_uuid", ses[0]},
                  {"aggregate_entity", true},
                  {"metric_id", "l7_client.avg_complete_responses"},
                  {"step", 300},
                  {"limit", 3},
                  {"stop", stop}}}}};
  ApiResponse coll =
      api_->Send("POST", "/api/analytics/metrics/collection?pad_missing_data=false", body);
  ASSERT_EQ(coll.status, 200) << coll.body;
  EXPECT_EQ(coll.json["series"]["cpu"][ses[0]][0]["data"].size(), 2u);
  EXPECT_TRUE(coll.json["series"]["cpu"][ses[1]][0]["data"].empty());
  EXPECT_EQ(coll.json["series"]["rps"][ses[0]][0]["header"]["serviceengine_uuid"], ses[0]);
  EXPECT_EQ(api_->Send("POST", "/api/analytics/metrics/collection/", body).status, 200);

  // Errors name the request and the field; an unknown SE is 404.
  json bad = body;
  bad["metric_requests"][1]["metric_id"] = "l7_client.nope";
  ApiResponse r = api_->Send("POST", "/api/analytics/metrics/collection", bad);
  EXPECT_EQ(r.status, 400);
  EXPECT_THAT(r.json["error"].get<std::string>(), HasSubstr("metric_requests[id=rps].metric_id"));
  bad = body;
  bad["metric_requests"][0]["step"] = 60;
  EXPECT_THAT(api_->Send("POST", "/api/analytics/metrics/collection", bad).body,
              HasSubstr("metric_requests[id=cpu].step"));
  bad = body;
  bad["metric_requests"][0]["entity_uuid"] = "se-unknown";
  EXPECT_EQ(api_->Send("POST", "/api/analytics/metrics/collection", bad).status, 404);
  EXPECT_EQ(api_->Send("GET",
                       "/api/analytics/metrics/serviceengine/se-unknown"
                       "?metric_id=se_stats.avg_cpu_usage&step=300")
                .status,
            404);

  // Like every unsafe request: CSRF checked; counted; faults apply.
  EXPECT_EQ(
      api_->Send("POST", "/api/analytics/metrics/collection", body, {{"X-CSRFToken", "wrong"}})
          .status,
      401);
  ASSERT_THAT(
      emu_->Control("POST", "faults",
                    {{"fail_next", 1}, {"match", "POST /api/analytics/metrics/collection"}}),
      IsOk());
  EXPECT_EQ(api_->Send("GET", "/api/serviceengine").status, 200);
  EXPECT_EQ(api_->Send("POST", "/api/analytics/metrics/collection", body).status, 503);
  absl::StatusOr<json> counters = emu_->Control("GET", "counters");
  ASSERT_THAT(counters, IsOk());
  EXPECT_EQ((*counters)["requests"]["POST /api/analytics/metrics/collection"], 7);
  EXPECT_EQ((*counters)["requests"]["GET /api/analytics/metrics/serviceengine/{uuid}"], 2);
  EXPECT_EQ((*counters)["requests"]["GET /api/analytics/metrics/virtualservice"], 1);
  EXPECT_EQ((*counters)["requests"]["GET /api/serviceengine"], 1);
}

TEST_F(EmulatorAnalyticsTest, ServiceEnginesPersistAndGoWithTheirGroup) {
  char dir[] = "/tmp/nsxalb-emulator-se-state-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string state = absl::StrCat(dir, "/state.json");
  Start({"--state", state});
  const std::string web = Group("web");
  std::vector<std::string> ses = Ses(web, 2);
  ASSERT_THAT(emu_->Stop(), IsOk());
  Start({"--state", state});
  ApiResponse listed =
      api_->Send("GET", absl::StrCat("/api/serviceengine?refers_to=serviceenginegroup:", web));
  EXPECT_EQ(listed.json["count"], 2);
  ASSERT_THAT(emu_->Control("POST", "metrics",
                            {{"series",
                              {{{"entity_uuid", ses[0]},
                                {"metric_id", "se_stats.avg_cpu_usage"},
                                {"step", 300},
                                {"values", {1}}}}}}),
              IsOk());
  // Deleting the group deletes its SEs (and their series) with it.
  EXPECT_EQ(api_->Send("DELETE", absl::StrCat("/api/serviceenginegroup/", web)).status, 204);
  EXPECT_EQ(api_->Send("GET", "/api/serviceengine").json["count"], 0);
  EXPECT_EQ(api_->Send("GET", absl::StrCat("/api/analytics/metrics/serviceengine/", ses[0],
                                           "?metric_id=se_stats.avg_cpu_usage&step=300"))
                .status,
            404);
  api_.reset();
  emu_.reset();
  std::remove(state.c_str());
  rmdir(dir);
}

}  // namespace
}  // namespace nsxalb::testing
