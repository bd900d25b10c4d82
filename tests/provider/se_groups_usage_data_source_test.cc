// nsxalb_se_groups_usage through the framework's engine (ProviderServer) against the Controller
// emulator: each group's `usage` has the type of nsxalb_se_group_usage's computed attributes and
// the same figures that data source reads for the group; the totals are the sums of the groups;
// a failed metrics request leaves its groups without figures and says so once; bad arguments are
// errors at their attribute. The real-Terraform scenario
// tests/terraform/se_groups_usage_estate_test.sh covers 30 groups end to end.
#include "plugin/provider/se_groups_usage_data_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/time/clock.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "plugin/framework/provider_server.h"
#include "plugin/provider/provider.h"
#include "plugin/provider/se_group_usage_data_source.h"
#include "plugin/provider/usage_attributes.h"
#include "plugin/sizing/rules.h"
#include "tests/support/emulator_process.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::provider {
namespace {

using cty::Value;
using framework::Diagnostics;
using ::nsxalb::testing::EmulatorProcess;
using ::nsxalb::testing::IsOk;
using Json = nlohmann::json;

// The attribute `name` of object `v` (null of nothing when absent).
const Value& At(const Value& v, const std::string& name) {
  static const Value* const kNull = new Value(Value::Null(cty::Type::String()));
  const Value* a = v.GetAttribute(name);
  return a == nullptr ? *kNull : *a;
}

double Number(const Value& v) { return v.IsNull() ? 0 : v.AsNumber().AsDouble(); }

// The attribute paths of `d`'s errors.
std::vector<std::string> ErrorPaths(const Diagnostics& d) {
  std::vector<std::string> out;
  for (const auto& x : d) {
    if (x.severity == framework::Severity::kError) {
      out.push_back(x.path.has_value() ? x.path->ToString() : "");
    }
  }
  return out;
}

TEST(SeGroupsUsageSchemaTest, EachGroupsUsageHasTheOneGroupDataSourcesComputedAttributes) {
  const framework::Schema& estate = EmbeddedDataSourceSchema(kSeGroupsUsageDataSourceType);
  const cty::Type& group = estate.block.attributes.at("groups").type.element();
  EXPECT_TRUE(group.attributes().at("usage") == UsageReportType())
      << group.attributes().at("usage").FriendlyName();
  std::vector<std::string> names;
  for (const auto& [name, type] : UsageReportType().attributes()) names.push_back(name);
  EXPECT_THAT(names,
              ::testing::UnorderedElementsAre(
                  "se_count", "step_seconds", "samples", "expected_samples", "basis", "observed",
                  "observed_at", "service_engines", "ses_behind_settings", "calibration",
                  "assumptions", "recommendation", "service_units", "forecast", "findings"));
  for (const char* name : {"id", "name", "cloud", "platform", "at_risk", "observed", "usage"}) {
    EXPECT_EQ(group.attributes().count(name), 1u) << name;
  }
}

class SeGroupsUsageDataSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto emulator = EmulatorProcess::Start(EmulatorProcess::Options{});
    ASSERT_THAT(emulator, IsOk());
    emulator_ = *std::move(emulator);
    controller::ClientConfig config;
    config.controller = emulator_->url();
    config.username = "admin";
    config.password = "admin";
    config.ca_file = emulator_->ca_file();
    auto client = controller::NewClient(config);
    ASSERT_THAT(client, IsOk());
    client_ = *std::move(client);

    // hot: 2 SEs on vcenter, one at 91% CPU; idle: 3 SEs of 8 vCPUs on nsxt carrying little;
    // empty: no SEs.
    hot_ = Create("t-hot", "Default-Cloud", 2, 2);
    idle_ = Create("t-idle", "nsxt-cloud", 8, 3);
    Create("t-empty", "nsxt-cloud", 2, 0);
    Json series = Json::array();
    for (size_t i = 0; i < ses_.size(); ++i) {
      const bool hot = i < 2;
      std::vector<double> cpu(288, hot ? 50.0 : 4.0), rps(288, hot ? 20000.0 : 500.0);
      if (hot) cpu[100 + i] = 91.0;
      rps[120 + i] = hot ? 30000.0 : 900.0;
      series.push_back({{"entity_uuid", ses_[i]},
                        {"metric_id", "se_stats.avg_cpu_usage"},
                        {"step", 300},
                        {"values", cpu}});
      series.push_back({{"entity_uuid", hot ? "virtualservice-hot" : "virtualservice-idle"},
                        {"serviceengine_uuid", ses_[i]},
                        {"metric_id", "l7_client.avg_complete_responses"},
                        {"step", 300},
                        {"values", rps}});
    }
    ASSERT_THAT(emulator_->Control("POST", "metrics", {{"series", series}}), IsOk());

    server_ = std::make_unique<framework::ProviderServer>(NewProvider());
    const framework::Block& block = server_->provider_schema().block;
    Diagnostics d = server_->Configure(
        "1.11.4", Value::ObjectOf(framework::ImpliedType(block),
                                  {{"controller", Value::String(emulator_->url())},
                                   {"username", Value::String("admin")},
                                   {"password", Value::String("admin")},
                                   {"ca_file", Value::String(emulator_->ca_file())}}));
    ASSERT_FALSE(d.HasError()) << d.ToString();
  }

  // Creates a group of `vcpus` vCPUs per SE with `ses` SEs; returns its uuid.
  std::string Create(const std::string& name, const std::string& cloud, int vcpus, int ses) {
    controller::SeGroupSpec spec;
    spec.name = name;
    spec.cloud = cloud;
    spec.fields = {{"vcpus_per_se", vcpus}};
    absl::StatusOr<controller::SeGroup> group = client_->CreateSeGroup(spec);
    EXPECT_THAT(group, IsOk());
    if (!group.ok()) return "";
    if (ses > 0) {
      absl::StatusOr<Json> made = emulator_->Control(
          "POST", "serviceengines", {{"se_group_uuid", group->uuid}, {"count", ses}});
      EXPECT_THAT(made, IsOk());
      if (made.ok()) {
        for (const Json& uuid : (*made)["uuids"]) ses_.push_back(uuid.get<std::string>());
      }
    }
    return group->uuid;
  }

  Value Config(const std::string& type, std::map<std::string, Value> attrs) const {
    return Value::ObjectOf(framework::ImpliedType(server_->DataSourceSchema(type)->block),
                           std::move(attrs));
  }

  framework::ReadDataSourceResult ReadEstate(std::map<std::string, Value> attrs) {
    return server_->ReadDataSource(kSeGroupsUsageDataSourceType,
                                   Config(kSeGroupsUsageDataSourceType, std::move(attrs)));
  }

  // The group called `name` among the estate's groups.
  static std::optional<Value> Group(const Value& state, const std::string& name) {
    for (const Value& g : At(state, "groups").elements()) {
      if (At(g, "name").AsString() == name) return g;
    }
    return std::nullopt;
  }

  std::unique_ptr<EmulatorProcess> emulator_;
  std::unique_ptr<controller::Client> client_;
  std::unique_ptr<framework::ProviderServer> server_;
  std::vector<std::string> ses_;
  std::string hot_, idle_;
};

TEST_F(SeGroupsUsageDataSourceTest, EachGroupHasTheOneGroupDataSourcesFigures) {
  // Both reads within one 5-minute step, so that both windows hold the same points.
  for (int attempt = 0; attempt < 2; ++attempt) {
    const int64_t step = absl::ToUnixSeconds(absl::Now()) / 300;
    framework::ReadDataSourceResult estate =
        ReadEstate({{"name_regex", Value::String("^t-")}, {"window", Value::String("24h")}});
    ASSERT_FALSE(estate.diagnostics.HasError()) << estate.diagnostics.ToString();
    std::map<std::string, Value> one;
    for (const auto& [name, id] : {std::pair{"t-hot", hot_}, std::pair{"t-idle", idle_}}) {
      framework::ReadDataSourceResult r = server_->ReadDataSource(
          kSeGroupUsageDataSourceType,
          Config(kSeGroupUsageDataSourceType,
                 {{"id", Value::String(id)}, {"window", Value::String("24h")}}));
      ASSERT_FALSE(r.diagnostics.HasError()) << r.diagnostics.ToString();
      one.emplace(name, r.state);
    }
    if (absl::ToUnixSeconds(absl::Now()) / 300 != step) continue;

    ASSERT_EQ(At(estate.state, "groups").elements().size(), 3u);
    for (const auto& [name, state] : one) {
      std::optional<Value> group = Group(estate.state, name);
      ASSERT_TRUE(group.has_value()) << name;
      EXPECT_EQ(At(*group, "id").AsString(), At(state, "id").AsString());
      EXPECT_EQ(At(*group, "platform").AsString(), At(state, "platform").AsString());
      for (const auto& [attribute, type] : UsageReportType().attributes()) {
        EXPECT_TRUE(At(At(*group, "usage"), attribute).Equals(At(state, attribute)))
            << name << "." << attribute << ": " << At(At(*group, "usage"), attribute).DebugString()
            << " != " << At(state, attribute).DebugString();
      }
    }
    const Value hot = *Group(estate.state, "t-hot");
    EXPECT_TRUE(At(hot, "at_risk").AsBool());
    EXPECT_TRUE(At(hot, "observed").AsBool());
    EXPECT_EQ(At(hot, "cloud").AsString(), "Default-Cloud");
    EXPECT_EQ(At(hot, "platform").AsString(), "vcenter");
    const Value idle = *Group(estate.state, "t-idle");
    EXPECT_FALSE(At(idle, "at_risk").AsBool());
    EXPECT_EQ(At(idle, "platform").AsString(), "nsxt");
    EXPECT_GT(Number(At(At(At(idle, "usage"), "service_units"), "reclaimable")), 0);
    const Value empty = *Group(estate.state, "t-empty");
    EXPECT_FALSE(At(empty, "observed").AsBool());
    // Most reclaimable first.
    EXPECT_EQ(At(At(estate.state, "groups").elements()[0], "name").AsString(), "t-idle");

    // The totals are the sums of the groups.
    double now = 0, recommended = 0, reclaimable = 0;
    int at_risk = 0, without = 0;
    for (const Value& g : At(estate.state, "groups").elements()) {
      const Value& su = At(At(g, "usage"), "service_units");
      now += Number(At(su, "now"));
      recommended += Number(At(su, "recommended"));
      reclaimable += Number(At(su, "reclaimable"));
      at_risk += At(g, "at_risk").AsBool() ? 1 : 0;
      without += At(g, "observed").AsBool() ? 0 : 1;
    }
    const Value& totals = At(estate.state, "totals");
    EXPECT_EQ(Number(At(totals, "groups")), 3);
    EXPECT_EQ(Number(At(totals, "groups_at_risk")), at_risk);
    EXPECT_EQ(Number(At(totals, "groups_without_observed_load")), without);
    EXPECT_DOUBLE_EQ(Number(At(totals, "service_units_now")), now);
    EXPECT_DOUBLE_EQ(Number(At(totals, "service_units_recommended")), recommended);
    EXPECT_DOUBLE_EQ(Number(At(totals, "service_units_reclaimable")), reclaimable);
    EXPECT_EQ(Number(At(estate.state, "metrics_requests")), 1);
    EXPECT_EQ(At(estate.state, "window").AsString(), "24h");
    EXPECT_EQ(At(estate.state, "statistic").AsString(), "max");
    EXPECT_EQ(Number(At(estate.state, "forecast_days")), 30);
    return;
  }
  FAIL() << "two 5-minute boundaries passed during the reads";
}

TEST_F(SeGroupsUsageDataSourceTest, AFailedMetricsRequestLeavesItsGroupsWithoutFiguresAndSaysSo) {
  ASSERT_THAT(emulator_->Control("POST", "faults",
                                 {{"fail_next", 1},
                                  {"fail_status", 403},
                                  {"match", "POST /api/analytics/metrics/collection"}}),
              IsOk());
  framework::ReadDataSourceResult estate = ReadEstate({{"name_regex", Value::String("^t-")}});
  ASSERT_FALSE(estate.diagnostics.HasError()) << estate.diagnostics.ToString();
  const Value hot = *Group(estate.state, "t-hot");
  EXPECT_FALSE(At(hot, "observed").AsBool());
  EXPECT_THAT(At(At(hot, "usage"), "findings").DebugString(),
              ::testing::HasSubstr(sizing::rules::kAnalyticsUnavailable));
  EXPECT_EQ(Number(At(At(estate.state, "totals"), "groups_without_observed_load")), 3);
  int warnings = 0;
  for (const auto& d : estate.diagnostics) {
    if (d.severity != framework::Severity::kWarning) continue;
    ++warnings;
    EXPECT_EQ(d.summary, "SE groups usage: 2 of 3 groups have no observed figures");
    EXPECT_THAT(d.detail, ::testing::HasSubstr("t-hot: "));
    EXPECT_THAT(d.detail, ::testing::HasSubstr("t-idle: "));
    EXPECT_THAT(d.detail, ::testing::Not(::testing::HasSubstr("t-empty")));
  }
  EXPECT_EQ(warnings, 1);
}

TEST_F(SeGroupsUsageDataSourceTest, FiltersKeepTheirGroups) {
  framework::ReadDataSourceResult nsxt =
      ReadEstate({{"cloud", Value::String("nsxt-cloud")}, {"name_regex", Value::String("^t-")}});
  ASSERT_FALSE(nsxt.diagnostics.HasError()) << nsxt.diagnostics.ToString();
  EXPECT_EQ(At(nsxt.state, "groups").elements().size(), 2u);
  framework::ReadDataSourceResult with_ses = ReadEstate({{"min_se_count", Value::Int(1)}});
  ASSERT_FALSE(with_ses.diagnostics.HasError()) << with_ses.diagnostics.ToString();
  EXPECT_EQ(At(with_ses.state, "groups").elements().size(), 2u);
  // Without a filter, the Default-Groups too.
  framework::ReadDataSourceResult all = ReadEstate({});
  ASSERT_FALSE(all.diagnostics.HasError()) << all.diagnostics.ToString();
  EXPECT_EQ(At(all.state, "groups").elements().size(), 5u);
}

TEST_F(SeGroupsUsageDataSourceTest, BadArgumentsAreErrorsAtTheirAttribute) {
  EXPECT_THAT(ErrorPaths(ReadEstate({{"name_regex", Value::String("web-(")}}).diagnostics),
              ::testing::ElementsAre(".name_regex"));
  EXPECT_THAT(ErrorPaths(ReadEstate({{"cloud", Value::String("no-such-cloud")}}).diagnostics),
              ::testing::ElementsAre(".cloud"));
  EXPECT_THAT(ErrorPaths(ReadEstate({{"min_se_count", Value::Int(-1)}}).diagnostics),
              ::testing::ElementsAre(".min_se_count"));
  const auto validate = [&](std::map<std::string, Value> attrs) {
    return ErrorPaths(server_->ValidateDataSourceConfig(
        kSeGroupsUsageDataSourceType, Config(kSeGroupsUsageDataSourceType, std::move(attrs))));
  };
  EXPECT_THAT(validate({{"forecast_days", Value::Int(0)}}),
              ::testing::ElementsAre(".forecast_days"));
  EXPECT_THAT(validate({{"forecast_days", Value::Int(366)}}),
              ::testing::ElementsAre(".forecast_days"));
  EXPECT_THAT(validate({{"window", Value::String("31d")}}), ::testing::ElementsAre(".window"));
  EXPECT_THAT(validate({{"statistic", Value::String("p50")}}),
              ::testing::ElementsAre(".statistic"));
  EXPECT_THAT(validate({{"platform", Value::String("aws")}}), ::testing::ElementsAre(".platform"));
  EXPECT_THAT(validate({{"min_se_count", Value::Float(1.5)}}),
              ::testing::ElementsAre(".min_se_count"));
  EXPECT_THAT(validate({{"forecast_days", Value::Int(365)}, {"min_se_count", Value::Int(2)}}),
              ::testing::IsEmpty());
}

}  // namespace
}  // namespace nsxalb::provider
