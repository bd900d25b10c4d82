// The estate reader (plugin/segroup/usage/estate_reader.h) over a fake Controller client: the same
// figures per group as the one-group reader, a bounded number of requests (three listings and
// metrics POSTs of at most kMaxMetricRequestsPerCollection metric_requests), a failed POST that
// costs only its batch, the filters, the order and the totals; and the roll's current load
// (current_load.h), one POST for every SE of a tenant.
#include "plugin/segroup/usage/estate_reader.h"

#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "plugin/segroup/usage/current_load.h"
#include "plugin/segroup/usage/group_reader.h"
#include "plugin/sizing/rules.h"
#include "tests/controller/mock_client.h"
#include "tests/segroup/usage_test_support.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::segroup {
namespace {

using ::nsxalb::testing::StatusIs;
using ::testing::_;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::NiceMock;
using usage_testing::At;
using usage_testing::Iso;
using usage_testing::kMidnight;
using Json = nlohmann::json;

constexpr int kPoints = 2016;       // 7 days of 5-minute points
constexpr int kPointsPerDay = 288;  // 1 day of them

// A fake Controller: clouds, groups and SEs, and a metrics answer computed from each SE's uuid
// (its CPU is `cpu_of[se]`, its L7 RPS 100 times that), streamed in two chunks.
class FakeEstate {
 public:
  FakeEstate() {
    clouds_ = {{"cloud-vc", "Default-Cloud", "https://ctl/api/cloud/cloud-vc", "CLOUD_VCENTER", ""},
               {"cloud-nsxt", "nsxt-cloud", "https://ctl/api/cloud/cloud-nsxt", "CLOUD_NSXT", ""}};
    ON_CALL(client, ListClouds()).WillByDefault([this] {
      ++list_clouds;
      return clouds_;
    });
    ON_CALL(client, ListSeGroups(_, _))
        .WillByDefault([this](std::string_view tenant, std::string_view) {
          ++list_groups;
          listed_in.push_back(std::string(tenant));
          return groups_;
        });
    ON_CALL(client, ListTenants()).WillByDefault([this] {
      ++list_tenants;
      return std::vector<controller::TenantInfo>{
          {"admin", "admin", "https://ctl/api/tenant/admin"},
          {"tenant-b", "team-b", "https://ctl/api/tenant/tenant-b"}};
    });
    ON_CALL(client, ListTenantServiceEngines(_)).WillByDefault([this](std::string_view tenant) {
      ++list_ses;
      listed_in.push_back(std::string(tenant));
      std::vector<controller::ServiceEngine> all;
      for (const auto& [group, ses] : ses_) all.insert(all.end(), ses.begin(), ses.end());
      return all;
    });
    ON_CALL(client, ListServiceEngines(_, _))
        .WillByDefault(
            [this](std::string_view group, std::string_view) { return ses_[std::string(group)]; });
    ON_CALL(client, StreamMetricsCollection(_, _, _))
        .WillByDefault(
            [this](const Json& request, std::string_view tenant, controller::BodySink& sink) {
              ++posts;
              posted_in.push_back(std::string(tenant));
              largest_post =
                  std::max(largest_post, static_cast<int>(request["metric_requests"].size()));
              for (const Json& q : request["metric_requests"]) {
                if (q["id"] == kSeStatsRequestId) se_metric_ids.push_back(q["metric_id"]);
              }
              if (fail_post == posts) return absl::PermissionDeniedError("HTTP 403: not allowed");
              const std::string text = Answer(request).dump();
              if (absl::Status s = sink.Begin(); !s.ok()) return s;
              if (absl::Status s = sink.Write(text.substr(0, text.size() / 2)); !s.ok()) return s;
              return sink.Write(text.substr(text.size() / 2));
            });
  }

  // Adds a group in `cloud` (0 or 1) with `ses` SEs of `vcpus` whose CPU is `cpu` percent, in
  // the tenant of uuid `tenant`.
  void AddGroup(const std::string& name, int cloud, int ses, int vcpus, double cpu,
                const std::string& tenant = "admin") {
    const std::string uuid = absl::StrCat("serviceenginegroup-", name);
    controller::SeGroup g;
    g.uuid = uuid;
    g.name = name;
    g.tenant_ref = absl::StrCat("https://ctl/api/tenant/", tenant);
    g.cloud_ref = clouds_[cloud].ref;
    g.body = {{"uuid", uuid},
              {"name", name},
              {"cloud_ref", g.cloud_ref},
              {"ha_mode", "HA_MODE_SHARED"},
              {"max_cpu_usage", 80},
              {"buffer_se", 1}};
    groups_.push_back(g);
    for (int i = 0; i < ses; ++i) {
      controller::ServiceEngine se;
      se.uuid = absl::StrCat("se-", name, "-", i);
      se.name = se.uuid;
      se.se_group_ref = absl::StrCat("https://ctl/api/serviceenginegroup/", uuid);
      se.num_vcpus = vcpus;
      se.memory_mb = 8192;
      ses_[uuid].push_back(se);
      cpu_of_[se.uuid] = cpu + i;
    }
  }

  NiceMock<controller::MockClient> client;
  int list_clouds = 0, list_groups = 0, list_ses = 0, posts = 0, largest_post = 0;
  int fail_post = 0;  // the POST (1-based) that answers 403; 0: none
  int list_tenants = 0;
  std::vector<std::string> se_metric_ids;  // the metric_id of each POST's SE request
  // SE uuid -> its memory percent, answered when the SE request asks se_stats.avg_mem_usage
  // (an SE absent here has no memory series).
  std::map<std::string, double> mem_of;
  // SE uuid -> the bits/s of each of its se_if.avg_bandwidth series (one per interface), answered
  // when the SE request asks se_if.avg_bandwidth (an SE absent here has none).
  std::map<std::string, std::vector<double>> bandwidth_of;
  // The points of each series answered: a week by default. The tests of hundreds of groups count
  // requests and batches, which the length of a series does not change, and answer a day: a
  // week's worth for 400 SEs took 53 s of the sanitizer build's unit pass (4.5 s optimized).
  int points = kPoints;
  std::vector<std::string> listed_in;  // the tenant of each listing of groups and SEs
  std::vector<std::string> posted_in;  // the tenant of each metrics POST

 private:
  Json Points(double base) const {
    Json data = Json::array();
    for (int i = 0; i < points; ++i) {
      data.push_back(
          {{"timestamp", Iso(kMidnight - absl::Minutes(5 * (points - 1 - i)))},
           {"value", base * (0.5 + 0.5 * ((i % kPointsPerDay) / (kPointsPerDay - 1.0)))}});
    }
    return data;
  }
  Json Answer(const Json& request) const {
    Json series = Json::object();
    for (const Json& q : request["metric_requests"]) {
      const std::string id = q["id"];
      if (id == kSeStatsRequestId) {
        const std::string metric_ids = q["metric_id"];
        const bool memory = absl::StrContains(metric_ids, "se_stats.avg_mem_usage");
        const bool bandwidth = absl::StrContains(metric_ids, "se_if.avg_bandwidth");
        for (absl::string_view se : absl::StrSplit(q["entity_uuid"].get<std::string>(), ',')) {
          const double cpu = cpu_of_.at(std::string(se));
          series[id][std::string(se)].push_back(
              {{"header", {{"name", "se_stats.avg_cpu_usage"}, {"entity_uuid", se}}},
               {"data", Points(cpu)}});
          auto mem = mem_of.find(std::string(se));
          if (memory && mem != mem_of.end()) {
            series[id][std::string(se)].push_back(
                {{"header", {{"name", "se_stats.avg_mem_usage"}, {"entity_uuid", se}}},
                 {"data", Points(mem->second)}});
          }
          auto interfaces = bandwidth_of.find(std::string(se));
          for (size_t i = 0;
               bandwidth && interfaces != bandwidth_of.end() && i < interfaces->second.size();
               ++i) {
            series[id][std::string(se)].push_back({{"header",
                                                    {{"name", "se_if.avg_bandwidth"},
                                                     {"entity_uuid", se},
                                                     {"obj_id", absl::StrCat("eth", i + 1)},
                                                     {"units", "BITS_PER_SECOND"}}},
                                                   {"data", Points(interfaces->second[i])}});
          }
        }
      } else {
        const std::string se = q["serviceengine_uuid"];
        series[id]["*"].push_back(
            {{"header", {{"name", "l7_client.avg_complete_responses"}, {"entity_uuid", "*"}}},
             {"data", Points(100 * cpu_of_.at(se))}});
      }
    }
    return {{"series", series}};
  }

  std::vector<controller::CloudInfo> clouds_;
  std::vector<controller::SeGroup> groups_;
  std::map<std::string, std::vector<controller::ServiceEngine>> ses_;
  std::map<std::string, double> cpu_of_;
};

EstateUsageRequest Request() {
  EstateUsageRequest r;
  r.query.window = absl::Hours(24 * 7);
  r.now = kMidnight;
  return r;
}

const EstateGroup* Named(const EstateUsage& e, const std::string& name) {
  for (const EstateGroup& g : e.groups) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

TEST(EstateReaderTest, EachGroupHasTheOneGroupReadersFigures) {
  FakeEstate fake;
  fake.AddGroup("idle", 0, 3, 8, 6);
  fake.AddGroup("hot", 1, 2, 2, 85);
  fake.AddGroup("mid", 1, 2, 4, 40);
  absl::StatusOr<EstateUsage> estate = ReadEstateUsage(fake.client, Request());
  ASSERT_TRUE(estate.ok()) << estate.status();
  ASSERT_EQ(estate->groups.size(), 3u);
  for (const EstateGroup& g : estate->groups) {
    GroupUsageRequest one;
    one.query = Request().query;
    one.now = kMidnight;
    one.platform = g.platform;
    const Json body = {{"ha_mode", "HA_MODE_SHARED"}, {"max_cpu_usage", 80}, {"buffer_se", 1}};
    absl::StatusOr<UsageReport> alone = ReadGroupUsage(fake.client, g.uuid, "", body, one);
    ASSERT_TRUE(alone.ok());
    EXPECT_EQ(UsageReportJson(g.report), UsageReportJson(*alone)) << g.name;
    EXPECT_TRUE(g.observed) << g.name;
  }
  EXPECT_EQ(Named(*estate, "hot")->platform, sizing::Platform::kNsxt);
  EXPECT_EQ(Named(*estate, "idle")->cloud, "Default-Cloud");
  EXPECT_TRUE(Named(*estate, "hot")->at_risk);
  EXPECT_FALSE(Named(*estate, "idle")->at_risk);
}

// The provider's one shared tenant listing (GroupUsageRequest::tenant_ses) gives the one-group
// reader the same SEs, and so the same report, without a listing of the group's own.
TEST(EstateReaderTest, TheOneGroupReaderTakesItsSesFromTheTenantsListing) {
  FakeEstate fake;
  fake.AddGroup("hot", 1, 2, 2, 85);
  fake.AddGroup("idle", 0, 3, 8, 6);
  absl::StatusOr<EstateUsage> estate = ReadEstateUsage(fake.client, Request());
  ASSERT_TRUE(estate.ok()) << estate.status();
  absl::StatusOr<std::vector<controller::ServiceEngine>> tenant =
      fake.client.ListTenantServiceEngines("");
  ASSERT_TRUE(tenant.ok());
  EXPECT_CALL(fake.client, ListServiceEngines(_, _)).Times(0);
  for (const EstateGroup& g : estate->groups) {
    GroupUsageRequest one;
    one.query = Request().query;
    one.now = kMidnight;
    one.platform = g.platform;
    one.tenant_ses = &*tenant;
    const Json body = {{"ha_mode", "HA_MODE_SHARED"}, {"max_cpu_usage", 80}, {"buffer_se", 1}};
    absl::StatusOr<UsageReport> alone = ReadGroupUsage(fake.client, g.uuid, "", body, one);
    ASSERT_TRUE(alone.ok());
    EXPECT_EQ(UsageReportJson(g.report), UsageReportJson(*alone)) << g.name;
  }
}

TEST(EstateReaderTest, TwoHundredGroupsOfTwoSesAreThreeListingsAndFourPosts) {
  FakeEstate fake;
  fake.points = kPointsPerDay;
  for (int i = 0; i < 200; ++i) fake.AddGroup(absl::StrCat("g", i), i % 2, 2, 4, 10 + i % 50);
  EXPECT_CALL(fake.client, ListServiceEngines(_, _)).Times(0);
  EXPECT_CALL(fake.client, QueryMetricsCollection(_, _)).Times(0);
  absl::StatusOr<EstateUsage> estate = ReadEstateUsage(fake.client, Request());
  ASSERT_TRUE(estate.ok()) << estate.status();
  EXPECT_EQ(estate->groups.size(), 200u);
  EXPECT_EQ(fake.list_clouds + fake.list_groups + fake.list_ses, 3);
  EXPECT_EQ(fake.posts, 4);
  EXPECT_EQ(estate->metrics_requests, 4);
  EXPECT_LE(fake.largest_post, kMaxMetricRequestsPerCollection);
}

TEST(EstateReaderTest, AllTenantsListsTheGroupsOfTwoTenantsEachWithItsTenantAndFigures) {
  FakeEstate fake;
  fake.AddGroup("a-web", 0, 2, 4, 20);
  fake.AddGroup("b-web", 1, 2, 4, 60, "tenant-b");
  fake.AddGroup("a-api", 1, 1, 2, 35);
  EstateUsageRequest request = Request();
  request.tenant = kAllTenants;
  absl::StatusOr<EstateUsage> estate = ReadEstateUsage(fake.client, request);
  ASSERT_TRUE(estate.ok()) << estate.status();
  ASSERT_EQ(estate->groups.size(), 3u);
  const EstateGroup* a = Named(*estate, "a-web");
  const EstateGroup* b = Named(*estate, "b-web");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(a->tenant, "admin");
  EXPECT_EQ(b->tenant, "team-b");
  // Each group's own figures: the highest SE's CPU (cpu + i for the i-th SE).
  EXPECT_DOUBLE_EQ(*a->report.observed[static_cast<int>(ObservedKey::kCpuPct)].value, 21);
  EXPECT_DOUBLE_EQ(*b->report.observed[static_cast<int>(ObservedKey::kCpuPct)].value, 61);
  // The listings once each in the All Tenants view, the tenants' names once, and the metrics
  // in each group's tenant: one POST per tenant, never "*".
  EXPECT_EQ(fake.listed_in, (std::vector<std::string>{"*", "*"}));
  EXPECT_EQ(fake.list_tenants, 1);
  EXPECT_EQ(fake.posted_in, (std::vector<std::string>{"https://ctl/api/tenant/admin",
                                                      "https://ctl/api/tenant/tenant-b"}));
  const Json json = EstateUsageJson(*estate);
  for (const Json& g : json["groups"]) {
    EXPECT_EQ(g["tenant"], g["name"] == "b-web" ? "team-b" : "admin") << g["name"];
  }
}

TEST(EstateReaderTest, OneTenantReadsNoTenantNamesAndLeavesTheTenantOut) {
  FakeEstate fake;
  fake.AddGroup("a-web", 0, 2, 4, 20);
  EXPECT_CALL(fake.client, ListTenants()).Times(0);
  absl::StatusOr<EstateUsage> estate = ReadEstateUsage(fake.client, Request());
  ASSERT_TRUE(estate.ok()) << estate.status();
  EXPECT_EQ(estate->groups[0].tenant, "");
  EXPECT_TRUE(EstateUsageJson(*estate)["groups"][0]["tenant"].is_null());
  EXPECT_EQ(fake.posted_in, (std::vector<std::string>{""}));
}

TEST(EstateReaderTest, ARefusedAllTenantsViewIsPermissionDeniedNamingIt) {
  FakeEstate fake;
  fake.AddGroup("a-web", 0, 2, 4, 20);
  EXPECT_CALL(fake.client, ListSeGroups(_, _))
      .WillOnce([](std::string_view,
                   std::string_view) -> absl::StatusOr<std::vector<controller::SeGroup>> {
        return absl::PermissionDeniedError("GET /api/serviceenginegroup: HTTP 403: not allowed");
      });
  EstateUsageRequest request = Request();
  request.tenant = kAllTenants;
  absl::StatusOr<EstateUsage> estate = ReadEstateUsage(fake.client, request);
  EXPECT_THAT(estate.status(), StatusIs(absl::StatusCode::kPermissionDenied,
                                        HasSubstr("All Tenants view (X-Avi-Tenant: *)")));
  EXPECT_THAT(estate.status().message(), HasSubstr("HTTP 403: not allowed"));
  EXPECT_EQ(fake.posts, 0);
}

TEST(EstateReaderTest, AFailedPostCostsOnlyItsBatch) {
  FakeEstate fake;
  fake.points = kPointsPerDay;
  for (int i = 0; i < 100; ++i) fake.AddGroup(absl::StrCat("g", i), 0, 2, 4, 30);
  fake.fail_post = 2;
  absl::StatusOr<EstateUsage> estate = ReadEstateUsage(fake.client, Request());
  ASSERT_TRUE(estate.ok()) << estate.status();
  int unavailable = 0, observed = 0;
  for (const EstateGroup& g : estate->groups) {
    if (usage_testing::FindRule(g.report.findings, sizing::rules::kAnalyticsUnavailable)) {
      ++unavailable;
      EXPECT_FALSE(g.observed);
      EXPECT_THAT(usage_testing::AllText(g.report.findings), HasSubstr("403"));
    } else {
      ++observed;
      EXPECT_TRUE(g.observed);
    }
  }
  EXPECT_EQ(fake.posts, 2);
  EXPECT_EQ(observed, 63);  // the first batch: 127 SEs hold 63 whole groups of 2
  EXPECT_EQ(unavailable, 37);
  EXPECT_EQ(estate->totals.groups_without_observed_load, 37);
}

TEST(EstateReaderTest, FiltersByCloudNameAndSeCount) {
  FakeEstate fake;
  fake.AddGroup("web-1", 0, 2, 4, 20);
  fake.AddGroup("web-2", 1, 1, 4, 20);
  fake.AddGroup("db-1", 1, 3, 4, 20);
  fake.AddGroup("empty", 1, 0, 4, 20);
  EstateUsageRequest r = Request();
  r.cloud = "nsxt-cloud";
  absl::StatusOr<EstateUsage> estate = ReadEstateUsage(fake.client, r);
  ASSERT_TRUE(estate.ok());
  EXPECT_EQ(estate->groups.size(), 3u);
  r.name_regex = "^web-";
  estate = ReadEstateUsage(fake.client, r);
  ASSERT_TRUE(estate.ok());
  ASSERT_EQ(estate->groups.size(), 1u);
  EXPECT_EQ(estate->groups[0].name, "web-2");
  r = Request();
  r.min_se_count = 2;
  estate = ReadEstateUsage(fake.client, r);
  ASSERT_TRUE(estate.ok());
  EXPECT_EQ(estate->groups.size(), 2u);
}

TEST(EstateReaderTest, AGroupWithoutSesIsListedWithoutAPost) {
  FakeEstate fake;
  fake.AddGroup("empty", 0, 0, 4, 20);
  absl::StatusOr<EstateUsage> estate = ReadEstateUsage(fake.client, Request());
  ASSERT_TRUE(estate.ok());
  ASSERT_EQ(estate->groups.size(), 1u);
  EXPECT_EQ(fake.posts, 0);
  EXPECT_NE(usage_testing::FindRule(estate->groups[0].report.findings, sizing::rules::kUsageNoSes),
            nullptr);
  EXPECT_EQ(estate->totals.groups_without_observed_load, 1);
}

TEST(EstateReaderTest, BadFiltersNameTheFilter) {
  FakeEstate fake;
  EstateUsageRequest r = Request();
  r.name_regex = "web-(";
  EXPECT_THAT(ReadEstateUsage(fake.client, r),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("name_regex")));
  r = Request();
  r.cloud = "no-such-cloud";
  EXPECT_THAT(ReadEstateUsage(fake.client, r),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("cloud")));
}

TEST(EstateReaderTest, SortedByReclaimableAndTotalledAsTheSum) {
  FakeEstate fake;
  fake.AddGroup("small-idle", 0, 2, 2, 5);
  fake.AddGroup("big-idle", 0, 3, 8, 5);
  fake.AddGroup("busy", 0, 2, 4, 70);
  absl::StatusOr<EstateUsage> estate = ReadEstateUsage(fake.client, Request());
  ASSERT_TRUE(estate.ok());
  ASSERT_EQ(estate->groups.size(), 3u);
  EXPECT_EQ(estate->groups[0].name, "big-idle");
  double now = 0, recommended = 0, reclaimable = 0;
  for (size_t i = 0; i < estate->groups.size(); ++i) {
    const ServiceUnitsUsage& su = estate->groups[i].report.service_units;
    now += su.now.value_or(0);
    recommended += su.recommended.value_or(0);
    reclaimable += su.reclaimable.value_or(0);
    if (i > 0) {
      EXPECT_GE(estate->groups[i - 1].report.service_units.reclaimable.value_or(-1),
                su.reclaimable.value_or(-1));
    }
  }
  EXPECT_EQ(estate->totals.service_units_now, now);
  EXPECT_EQ(estate->totals.service_units_recommended, recommended);
  EXPECT_EQ(estate->totals.service_units_reclaimable, reclaimable);
  EXPECT_EQ(now, 2 * 2 + 3 * 8 + 2 * 4);
  const Json json = EstateUsageJson(*estate);
  EXPECT_EQ(json["totals"]["service_units_now"], now);
  EXPECT_EQ(json["groups"].size(), 3u);
}

TEST(EstateReaderTest, CancelledIsReturned) {
  FakeEstate fake;
  fake.AddGroup("g", 0, 2, 4, 20);
  ON_CALL(fake.client, StreamMetricsCollection(_, _, _))
      .WillByDefault([](const Json&, std::string_view, controller::BodySink&) {
        return absl::CancelledError("stopped");
      });
  EXPECT_THAT(ReadEstateUsage(fake.client, Request()), StatusIs(absl::StatusCode::kCancelled));
}

// The roll's current load (current_load.h): every SE of the tenant in one metrics POST with only
// the SE request, shared by every group; each SE's figure is the highest sample of the last hour
// (the fake's daily curve peaks at the last point: the SE's CPU).
TEST(CurrentLoadTest, OnePostForEverySeOfTheTenantSharedByEveryGroup) {
  FakeEstate estate;
  estate.AddGroup("checkout", 1, 2, 4, 40);
  estate.AddGroup("web", 1, 1, 2, 70);
  const std::vector<controller::ServiceEngine> ses =
      *estate.client.ListTenantServiceEngines("admin");
  SharedCurrentLoad shared;
  const UsageQuery query = RollLoadQuery(nullptr);
  EXPECT_EQ(query.window, absl::Hours(1));
  auto first = shared.Get(estate.client, "admin", ses, query, kMidnight);
  auto second = shared.Get(estate.client, "admin", ses, query, kMidnight);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(estate.posts, 1);
  EXPECT_EQ(estate.largest_post, 1);  // the SE request only, no virtual-service series
  EXPECT_EQ(shared.Fetches("admin", query), 1u);
  std::vector<lifecycle::RunningSe> checkout(2);
  checkout[0].uuid = "se-checkout-0";
  checkout[1].uuid = "se-checkout-1";
  const lifecycle::CurrentLoad load = CurrentLoadOf(**first, checkout);
  ASSERT_EQ(load.cpu_pct.size(), 2u);
  EXPECT_NEAR(load.cpu_pct.at("se-checkout-0"), 40, 1e-9);
  EXPECT_NEAR(load.cpu_pct.at("se-checkout-1"), 41, 1e-9);
  EXPECT_THAT(load.source, HasSubstr("the highest sample of the last 1 hour (300 s samples)"));
  EXPECT_EQ(CurrentLoadOf(**first, {}).cpu_pct.size(), 0u);
}

TEST(CurrentLoadTest, AFailedPostIsAReasonNotAnError) {
  FakeEstate estate;
  estate.AddGroup("checkout", 1, 2, 4, 40);
  estate.fail_post = 1;
  const std::vector<controller::ServiceEngine> ses =
      *estate.client.ListTenantServiceEngines("admin");
  auto now = ReadSesLoadNow(estate.client, "admin", ses, RollLoadQuery(nullptr), kMidnight);
  ASSERT_TRUE(now.ok());
  std::vector<lifecycle::RunningSe> checkout(1);
  checkout[0].uuid = "se-checkout-0";
  const lifecycle::CurrentLoad load = CurrentLoadOf(*now, checkout);
  EXPECT_TRUE(load.cpu_pct.empty());
  EXPECT_THAT(load.missing_reason, HasSubstr("the metrics request failed: HTTP 403"));
}

// The one POST's SE request asks both metrics, and both are decoded: each SE's highest sample of
// the hour (Points rises to its base at the newest sample). An SE with CPU samples but no memory
// ones has a CPU figure only; a group none of whose SEs has memory samples gets the reason the
// guard then states (CPU only).
TEST(CurrentLoadTest, TheOnePostAsksCpuAndMemoryAndDecodesBoth) {
  FakeEstate estate;
  estate.AddGroup("checkout", 1, 2, 4, 30);
  estate.AddGroup("web", 1, 1, 2, 50);
  estate.mem_of["se-checkout-0"] = 70;
  const std::vector<controller::ServiceEngine> ses =
      *estate.client.ListTenantServiceEngines("admin");
  auto now = ReadSesLoadNow(estate.client, "admin", ses, RollLoadQuery(nullptr), kMidnight);
  ASSERT_TRUE(now.ok());
  EXPECT_EQ(estate.posts, 1);
  EXPECT_EQ(estate.largest_post, 1);
  EXPECT_THAT(estate.se_metric_ids,
              ElementsAre("se_stats.avg_cpu_usage,se_stats.avg_mem_usage,se_if.avg_bandwidth"));
  EXPECT_THAT(now->source, HasSubstr("se_stats.avg_cpu_usage and se_stats.avg_mem_usage of each "
                                     "SE, the highest sample of the last 1 hour"));
  std::vector<lifecycle::RunningSe> checkout(2);
  checkout[0].uuid = "se-checkout-0";
  checkout[1].uuid = "se-checkout-1";
  const lifecycle::CurrentLoad load = CurrentLoadOf(*now, checkout);
  EXPECT_NEAR(load.cpu_pct.at("se-checkout-0"), 30, 1e-9);
  EXPECT_NEAR(load.cpu_pct.at("se-checkout-1"), 31, 1e-9);
  ASSERT_EQ(load.mem_pct.size(), 1u);
  EXPECT_NEAR(load.mem_pct.at("se-checkout-0"), 70, 1e-9);
  EXPECT_EQ(load.memory_missing_reason, "");
  std::vector<lifecycle::RunningSe> web(1);
  web[0].uuid = "se-web-0";
  const lifecycle::CurrentLoad web_load = CurrentLoadOf(*now, web);
  EXPECT_NEAR(web_load.cpu_pct.at("se-web-0"), 50, 1e-9);
  EXPECT_TRUE(web_load.mem_pct.empty());
  EXPECT_EQ(web_load.memory_missing_reason,
            "no sample of se_stats.avg_mem_usage in the last 1 hour for the group's 1 SE");
}

// The same one POST reads each SE's se_if.avg_bandwidth, and the decode adds up the series the
// Controller gives for one SE at each timestamp (one per interface: UNCONFIRMED; the emulator
// gives one per SE), then takes the statistic: se-checkout-0's two interfaces peak at 2 and 1
// Gbps at the same (newest) sample, 3,000,000,000 bits/s; se-checkout-1's one at 1.5 Gbps. A group
// none of whose SEs has bandwidth samples gets the reason the load line states.
TEST(CurrentLoadTest, TheOnePostAlsoReadsBandwidthSummingEachSesInterfaces) {
  FakeEstate estate;
  estate.AddGroup("checkout", 1, 2, 4, 30);
  estate.AddGroup("web", 1, 1, 2, 50);
  estate.bandwidth_of["se-checkout-0"] = {2e9, 1e9};
  estate.bandwidth_of["se-checkout-1"] = {1.5e9};
  const std::vector<controller::ServiceEngine> ses =
      *estate.client.ListTenantServiceEngines("admin");
  auto now = ReadSesLoadNow(estate.client, "admin", ses, RollLoadQuery(nullptr), kMidnight);
  ASSERT_TRUE(now.ok());
  EXPECT_EQ(estate.posts, 1);
  std::vector<lifecycle::RunningSe> checkout(2);
  checkout[0].uuid = "se-checkout-0";
  checkout[1].uuid = "se-checkout-1";
  const lifecycle::CurrentLoad load = CurrentLoadOf(*now, checkout);
  ASSERT_EQ(load.bandwidth_bps.size(), 2u);
  EXPECT_NEAR(load.bandwidth_bps.at("se-checkout-0"), 3e9, 1e-3);
  EXPECT_NEAR(load.bandwidth_bps.at("se-checkout-1"), 1.5e9, 1e-3);
  EXPECT_EQ(load.bandwidth_missing_reason, "");
  EXPECT_NEAR(load.cpu_pct.at("se-checkout-0"), 30, 1e-9);  // CPU unchanged beside it
  std::vector<lifecycle::RunningSe> web(1);
  web[0].uuid = "se-web-0";
  const lifecycle::CurrentLoad web_load = CurrentLoadOf(*now, web);
  EXPECT_TRUE(web_load.bandwidth_bps.empty());
  EXPECT_EQ(web_load.bandwidth_missing_reason,
            "no sample of se_if.avg_bandwidth in the last 1 hour for the group's 1 SE");
}

}  // namespace
}  // namespace nsxalb::segroup
