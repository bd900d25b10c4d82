// Unit tests of the emulator's analytics (emulator/metrics.h) and of the store's Service Engines:
// query parsing, windows, padding, roll-up, aggregation, statistics and loading. No network; "now"
// is passed in.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "emulator/counters.h"
#include "emulator/metrics.h"
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

// 2026-12-01T12:00:00Z, a multiple of every step.
constexpr int64_t kNow = 1796126400;

class MetricsTest : public ::testing::Test {
 protected:
  absl::Status Load(const json& series) {
    return store_
        .Load(json{{"series", series}}, kNow,
              [this](const std::string& se) {
                return std::find(ses_.begin(), ses_.end(), se) != ses_.end();
              })
        .status();
  }
  MetricsQuery Query(const json& fields, std::optional<MetricEntity> entity = std::nullopt) {
    absl::StatusOr<MetricsQuery> q = ParseMetricsQuery(fields, entity, "");
    EXPECT_THAT(q, IsOk());
    return q.value_or(MetricsQuery{});
  }
  MetricsAnswer Run(const json& fields, std::optional<MetricEntity> entity = std::nullopt) {
    absl::StatusOr<MetricsAnswer> a = store_.Run(Query(fields, entity), kNow, ses_, "");
    EXPECT_THAT(a, IsOk());
    return a.value_or(MetricsAnswer{});
  }
  static std::vector<double> Values(const json& series) {
    std::vector<double> out;
    for (const json& p : series["data"])
      out.push_back(p.value("is_null", false) ? -1 : p["value"].get<double>());
    return out;
  }

  std::vector<std::string> ses_ = {"se-a", "se-b"};
  MetricsStore store_;
};

TEST_F(MetricsTest, CatalogStepsAndTimes) {
  EXPECT_EQ(MetricCatalog().size(), 8u);
  ASSERT_NE(FindMetric("l4_client.max_open_conns"), nullptr);
  EXPECT_TRUE(FindMetric("l4_client.max_open_conns")->rolls_up_by_max);
  EXPECT_EQ(FindMetric("se_if.avg_bandwidth")->units, "BITS_PER_SECOND");
  EXPECT_EQ(FindMetric("se_stats.max_cpu_usage"), nullptr);
  EXPECT_TRUE(IsMetricStep(5) && IsMetricStep(300) && IsMetricStep(3600) && IsMetricStep(86400));
  EXPECT_FALSE(IsMetricStep(60));
  EXPECT_EQ(FormatMetricTime(kNow), "2026-12-01T12:00:00+00:00");
  for (const char* t :
       {"2026-12-01T12:00:00Z", "2026-12-01T12:00:00+00:00", "2026-12-01T12:00:00.000Z",
        "2026-12-01T12:00:00", "2026-12-01T13:00:00+01:00"}) {
    EXPECT_EQ(ParseMetricTime(t).value_or(0), kNow) << t;
  }
  EXPECT_THAT(ParseMetricTime("yesterday"), Not(IsOk()));
}

TEST_F(MetricsTest, ParseRejectsBadFieldsNamingThem) {
  auto error = [](const json& f, std::optional<MetricEntity> e = std::nullopt) {
    absl::StatusOr<MetricsQuery> q = ParseMetricsQuery(f, e, "metric_requests[id=r].");
    EXPECT_TRUE(absl::IsInvalidArgument(q.status())) << f.dump();
    return std::string(q.status().message());
  };
  EXPECT_THAT(error({{"metric_id", "se_stats.nope"}}),
              HasSubstr("metric_requests[id=r].metric_id"));
  EXPECT_THAT(error({{"step", 300}}), HasSubstr("metric_id: is required"));
  EXPECT_THAT(error({{"metric_id", "se_stats.avg_cpu_usage"}, {"step", 60}}), HasSubstr("step"));
  EXPECT_THAT(error({{"metric_id", "se_stats.avg_cpu_usage"}, {"step", "x"}}), HasSubstr("step"));
  EXPECT_THAT(error({{"metric_id", "se_stats.avg_cpu_usage"}, {"limit", 0}}), HasSubstr("limit"));
  EXPECT_THAT(error({{"metric_id", "se_stats.avg_cpu_usage,l7_client.avg_complete_responses"}}),
              HasSubstr("not a serviceengine metric"));
  EXPECT_THAT(error({{"metric_id", "se_stats.avg_cpu_usage"}}, MetricEntity::kVirtualService),
              HasSubstr("not a virtualservice metric"));
  EXPECT_THAT(error({{"metric_id", "se_stats.avg_cpu_usage"}, {"aggregate_entity", true}}),
              HasSubstr("aggregate_entity"));
  EXPECT_THAT(error({{"metric_id", "se_stats.avg_cpu_usage"}, {"start", "soon"}}),
              HasSubstr("start"));
  EXPECT_THAT(error({{"metric_id", "se_stats.avg_cpu_usage"}, {"pad_missing_data", "maybe"}}),
              HasSubstr("pad_missing_data"));
  // GET parameters arrive as strings.
  MetricsQuery q = Query({{"metric_id", "se_stats.avg_cpu_usage"},
                          {"step", "300"},
                          {"limit", "12"},
                          {"pad_missing_data", "False"},
                          {"entity_uuid", "se-a, se-b"}});
  EXPECT_EQ(q.step, 300);
  EXPECT_EQ(q.limit, 12);
  EXPECT_FALSE(q.pad_missing_data);
  EXPECT_EQ(q.entity_uuids, (std::vector<std::string>{"se-a", "se-b"}));
  EXPECT_EQ(Query({{"metric_id", "se_stats.avg_cpu_usage"}}).step, 5);  // the swagger's default
}

TEST_F(MetricsTest, LoadRejectsBadValuesNamingTheField) {
  auto error = [this](const json& series) {
    absl::Status s = Load(json::array({series}));
    EXPECT_THAT(s, Not(IsOk())) << series.dump();
    return std::string(s.message());
  };
  const json base = {
      {"entity_uuid", "se-a"}, {"metric_id", "se_stats.avg_cpu_usage"}, {"step", 300}};
  json v = base;
  v["values"] = {1, -2};
  EXPECT_EQ(error(v), "series[0].values[1]: -2 is negative");
  v["values"] = {1, "NaN"};
  EXPECT_THAT(error(v), HasSubstr("series[0].values[1]: \"NaN\" is not a number"));
  v["values"] = {1};
  v["step"] = 60;
  EXPECT_THAT(error(v), HasSubstr("series[0].step"));
  v["step"] = 300;
  v["metric_id"] = "se_stats.nope";
  EXPECT_THAT(error(v), HasSubstr("series[0].metric_id: unknown metric"));
  v = base;
  v["values"] = {1};
  v["entity_uuid"] = "se-zzz";
  absl::Status unknown = Load(json::array({v}));
  EXPECT_TRUE(absl::IsNotFound(unknown)) << unknown;
  EXPECT_TRUE(absl::IsInvalidArgument(Load(json::array({base}))));  // no values
}

TEST_F(MetricsTest, PadsGapsAndComputesStatisticsFromReturnedPoints) {
  ASSERT_THAT(Load({{{"entity_uuid", "se-a"},
                     {"metric_id", "se_stats.avg_cpu_usage"},
                     {"step", 300},
                     {"values", {12.5, nullptr, 40, 91, 30}}}}),
              IsOk());
  MetricsAnswer padded = Run({{"entity_uuid", "se-a"},
                              {"metric_id", "se_stats.avg_cpu_usage"},
                              {"step", 300},
                              {"limit", 6}});
  ASSERT_EQ(padded.series.size(), 1u);
  const json& s = padded.series[0].second;
  EXPECT_EQ(Values(s), (std::vector<double>{-1, 12.5, -1, 40, 91, 30}));
  EXPECT_EQ(s["data"].back()["timestamp"], "2026-12-01T12:00:00+00:00");
  EXPECT_EQ(s["data"][0]["value"], 0);
  EXPECT_EQ(s["header"]["units"], "PERCENT");
  const json& st = s["header"]["statistics"];
  EXPECT_EQ(st["max"], 91);
  EXPECT_EQ(st["max_ts"], "2026-12-01T11:55:00+00:00");
  EXPECT_EQ(st["min"], 12.5);
  EXPECT_EQ(st["num_samples"], 4);
  EXPECT_EQ(st["last_sample"], 30);
  EXPECT_DOUBLE_EQ(st["mean"].get<double>(), (12.5 + 40 + 91 + 30) / 4);
  // pad_missing_data=false leaves the gaps out; limit keeps the newest points.
  MetricsAnswer sparse = Run({{"entity_uuid", "se-a"},
                              {"metric_id", "se_stats.avg_cpu_usage"},
                              {"step", 300},
                              {"limit", 3},
                              {"pad_missing_data", false}});
  EXPECT_EQ(Values(sparse.series[0].second), (std::vector<double>{40, 91, 30}));
  EXPECT_EQ(sparse.series[0].second["header"]["statistics"]["max"], 91);
  // start and stop bound the window; with no start, start = stop - limit * step.
  MetricsAnswer window = Run({{"entity_uuid", "se-a"},
                              {"metric_id", "se_stats.avg_cpu_usage"},
                              {"step", 300},
                              {"start", "2026-12-01T11:40:00Z"},
                              {"stop", "2026-12-01T11:55:00Z"},
                              {"pad_missing_data", false}});
  EXPECT_EQ(Values(window.series[0].second), (std::vector<double>{12.5, 40, 91}));
  EXPECT_EQ(Run({{"entity_uuid", "se-a"},
                 {"metric_id", "se_stats.avg_cpu_usage"},
                 {"step", 300},
                 {"limit", 4}})
                .start,
            kNow - 1200);
  // A later load of the same series replaces it.
  ASSERT_THAT(Load({{{"entity_uuid", "se-a"},
                     {"metric_id", "se_stats.avg_cpu_usage"},
                     {"step", 300},
                     {"values", {7}}}}),
              IsOk());
  EXPECT_EQ(Values(Run({{"entity_uuid", "se-a"},
                        {"metric_id", "se_stats.avg_cpu_usage"},
                        {"step", 300},
                        {"limit", 3}})
                       .series[0]
                       .second),
            (std::vector<double>{-1, -1, 7}));
}

TEST_F(MetricsTest, CoarserStepsRollUpAvgByMeanAndMaxByMax) {
  // Twelve 5-minute points make the hour ending at kNow; one more falls in the hour before.
  json cpu = json::array();
  json open = json::array();
  for (int i = 0; i < 13; ++i) {
    cpu.push_back(i == 12 ? 90 : 10 * (i % 2));  // the hour: five 0s, six 10s, one 90
    open.push_back(i);
  }
  ASSERT_THAT(Load({{{"entity_uuid", "se-a"},
                     {"metric_id", "se_stats.avg_cpu_usage"},
                     {"step", 300},
                     {"values", cpu}},
                    {{"entity_uuid", "vs-1"},
                     {"metric_id", "l4_client.max_open_conns"},
                     {"step", 300},
                     {"values", open}}}),
              IsOk());
  MetricsAnswer a = Run({{"entity_uuid", "se-a"},
                         {"metric_id", "se_stats.avg_cpu_usage"},
                         {"step", 3600},
                         {"limit", 2}});
  EXPECT_EQ(Values(a.series[0].second), (std::vector<double>{0, (6 * 10 + 90) / 12.0}));
  MetricsAnswer m = Run({{"entity_uuid", "vs-1"},
                         {"metric_id", "l4_client.max_open_conns"},
                         {"step", 3600},
                         {"limit", 2}});
  EXPECT_EQ(Values(m.series[0].second), (std::vector<double>{0, 12}));
  // Realtime (step 5) is served only from 5 s series.
  MetricsAnswer rt = Run({{"entity_uuid", "se-a"},
                          {"metric_id", "se_stats.avg_cpu_usage"},
                          {"step", 5},
                          {"limit", 3},
                          {"pad_missing_data", false}});
  EXPECT_TRUE(rt.series[0].second["data"].empty());
}

TEST_F(MetricsTest, AggregatesVirtualServicesPerSeAtEachTimestamp) {
  const char* rps = "l7_client.avg_complete_responses";
  ASSERT_THAT(Load({{{"entity_uuid", "vs-1"},
                     {"serviceengine_uuid", "se-a"},
                     {"metric_id", rps},
                     {"step", 300},
                     {"values", {100, nullptr, 300}}},
                    {{"entity_uuid", "vs-2"},
                     {"serviceengine_uuid", "se-a"},
                     {"metric_id", rps},
                     {"step", 300},
                     {"values", {1, nullptr, 3}}},
                    {{"entity_uuid", "vs-2"},
                     {"serviceengine_uuid", "se-b"},
                     {"metric_id", rps},
                     {"step", 300},
                     {"values", {50, 60, 70}}}}),
              IsOk());
  MetricsAnswer on_a = Run({{"entity_uuid", "*"},
                            {"serviceengine_uuid", "se-a"},
                            {"aggregate_entity", true},
                            {"metric_id", rps},
                            {"step", 300},
                            {"limit", 3}},
                           MetricEntity::kVirtualService);
  ASSERT_EQ(on_a.series.size(), 1u);
  EXPECT_EQ(on_a.series[0].first, "se-a");
  EXPECT_EQ(on_a.series[0].second["header"]["serviceengine_uuid"], "se-a");
  EXPECT_EQ(Values(on_a.series[0].second), (std::vector<double>{101, -1, 303}));
  // Per SE for every SE; a VS's total over its SEs; one VS on one SE.
  MetricsAnswer per_se = Run({{"entity_uuid", "*"},
                              {"serviceengine_uuid", "*"},
                              {"aggregate_entity", true},
                              {"metric_id", rps},
                              {"step", 300},
                              {"limit", 3}});
  ASSERT_EQ(per_se.series.size(), 2u);
  EXPECT_EQ(per_se.series[1].first, "se-b");
  EXPECT_EQ(Values(per_se.series[1].second), (std::vector<double>{50, 60, 70}));
  MetricsAnswer total =
      Run({{"entity_uuid", "vs-2"}, {"metric_id", rps}, {"step", 300}, {"limit", 3}});
  EXPECT_EQ(Values(total.series[0].second), (std::vector<double>{51, 60, 73}));
  MetricsAnswer one = Run({{"entity_uuid", "vs-2"},
                           {"serviceengine_uuid", "se-b"},
                           {"metric_id", rps},
                           {"step", 300},
                           {"limit", 1}});
  EXPECT_EQ(Values(one.series[0].second), (std::vector<double>{70}));
  // Unknown SEs and virtual services are NotFound.
  EXPECT_TRUE(absl::IsNotFound(
      store_.Run(Query({{"entity_uuid", "vs-9"}, {"metric_id", rps}}), kNow, ses_, "").status()));
  EXPECT_TRUE(absl::IsNotFound(
      store_.Run(Query({{"serviceengine_uuid", "se-z"}, {"metric_id", rps}}), kNow, ses_, "")
          .status()));
  EXPECT_TRUE(absl::IsNotFound(
      store_
          .Run(Query({{"entity_uuid", "se-z"}, {"metric_id", "se_stats.avg_cpu_usage"}}), kNow,
               ses_, "")
          .status()));
  // Forgetting an SE drops the services' series on it.
  store_.ForgetServiceEngines({"se-a"});
  MetricsAnswer after =
      Run({{"entity_uuid", "*"}, {"metric_id", rps}, {"step", 300}, {"limit", 1}});
  ASSERT_EQ(after.series.size(), 1u);
  EXPECT_EQ(after.series[0].first, "vs-2");
}

TEST(AnalyticsCountersTest, KeysTellMetricsRequestsApart) {
  EXPECT_EQ(Counters::Key("POST", "/api/analytics/metrics/collection/"),
            "POST /api/analytics/metrics/collection");
  EXPECT_EQ(Counters::Key("GET", "/api/analytics/metrics/serviceengine/se-1"),
            "GET /api/analytics/metrics/serviceengine/{uuid}");
  EXPECT_EQ(Counters::Key("GET", "/api/analytics/metrics/virtualservice/"),
            "GET /api/analytics/metrics/virtualservice");
  EXPECT_EQ(Counters::Key("GET", "/api/serviceengine"), "GET /api/serviceengine");
  EXPECT_EQ(Counters::Key("GET", "/api/serviceengine/se-1"), "GET /api/serviceengine/{uuid}");
  EXPECT_EQ(Counters::Key("GET", "/api/licensing/ledger/details"),
            "GET /api/licensing/ledger/details");
}

TEST(StoreServiceEnginesTest, SizedFromTheGroupAndDeletedWithIt) {
  int64_t clock = 1;
  Store store([&clock] { return ++clock; });
  store.Seed();
  absl::StatusOr<json> g =
      store.CreateSeGroup({{"name", "web"}, {"vcpus_per_se", 4}, {"memory_per_se", 8192}}, "admin");
  ASSERT_THAT(g, IsOk());
  const std::string uuid = (*g)["uuid"];
  const json defaults = {{"vcpus_per_se", 1}, {"memory_per_se", 2048}, {"disk_per_se", 15}};
  absl::StatusOr<std::vector<std::string>> ses =
      store.CreateServiceEngines(uuid, 2, std::nullopt, defaults);
  ASSERT_THAT(ses, IsOk());
  ASSERT_EQ(ses->size(), 2u);
  absl::StatusOr<std::vector<std::string>> big = store.CreateServiceEngines(uuid, 1, 8, defaults);
  ASSERT_THAT(big, IsOk());
  json se = store.Get(kServiceEngine, (*ses)[0], "admin").value();
  EXPECT_EQ(se["resources"], (json{{"num_vcpus", 4}, {"memory", 8192}, {"disk", 15}}));
  EXPECT_EQ(store.Get(kServiceEngine, (*big)[0], "admin").value()["resources"]["num_vcpus"], 8);
  EXPECT_EQ(se["name"], "web-se-1");
  ListFilter f;
  f.refers_to = std::make_pair(std::string(kSeGroup), uuid);
  EXPECT_EQ(store.List(kServiceEngine, f).size(), 3u);
  f.refers_to = std::make_pair(std::string(kSeGroup), std::string("serviceenginegroup-other"));
  EXPECT_TRUE(store.List(kServiceEngine, f).empty());
  EXPECT_TRUE(
      absl::IsNotFound(store.CreateServiceEngines("nope", 1, std::nullopt, defaults).status()));
  absl::StatusOr<std::vector<std::string>> removed = store.DeleteSeGroup(uuid, "admin");
  ASSERT_THAT(removed, IsOk());
  EXPECT_EQ(removed->size(), 3u);
  EXPECT_TRUE(store.List(kServiceEngine, ListFilter{}).empty());
}

}  // namespace
}  // namespace nsxalb::emulator
