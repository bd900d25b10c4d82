// Data source nsxalb_se_sizing through the framework's engine (ProviderServer), as Terraform
// reaches it: no Configure, no Controller.
#include "plugin/provider/se_sizing_data_source.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "plugin/framework/provider_server.h"
#include "plugin/framework/schema.h"
#include "plugin/provider/provider.h"
#include "tests/provider/test_values.h"

namespace nsxalb::provider {
namespace {

using cty::AttributePath;
using cty::Value;
using framework::Diagnostics;
using framework::Severity;

class SeSizingDataSourceTest : public ::testing::Test {
 protected:
  SeSizingDataSourceTest() : server_(NewProvider()) {}

  const framework::Block& Block() const {
    return server_.DataSourceSchema(kSeSizingDataSource)->block;
  }

  Value Config(std::map<std::string, Value> attrs) const {
    return Value::ObjectOf(framework::ImpliedType(Block()), std::move(attrs));
  }

  Value Workload(std::map<std::string, Value> attrs) const {
    return Value::ObjectOf(framework::ImpliedType(Block().FindBlockType("workload")->block),
                           std::move(attrs));
  }

  framework::ReadDataSourceResult Read(const Value& config) {
    return server_.ReadDataSource(kSeSizingDataSource, config);
  }

  Diagnostics Validate(const Value& config) {
    return server_.ValidateDataSourceConfig(kSeSizingDataSource, config);
  }

  framework::ProviderServer server_;
};

std::string Num(const Value& state, const std::string& name) {
  return state.GetAttribute(name)->AsNumber().ToString();
}

std::string Str(const Value& state, const std::string& name) {
  return state.GetAttribute(name)->AsString();
}

// The only diagnostic of `d` with `severity`, which must be at `path`.
bool HasAt(const Diagnostics& d, Severity severity, const AttributePath& path) {
  for (const auto& x : d) {
    if (x.severity == severity && x.path == path) return true;
  }
  return false;
}

TEST_F(SeSizingDataSourceTest, IsRegisteredWithAValidSchema) {
  EXPECT_TRUE(server_.schema_diagnostics().empty()) << server_.schema_diagnostics().ToString();
  ASSERT_NE(server_.DataSourceSchema(kSeSizingDataSource), nullptr);
  const framework::Attribute* platform = Block().FindAttribute("platform");
  ASSERT_NE(platform, nullptr);
  EXPECT_TRUE(platform->required);
  for (const char* name :
       {"se_count", "summary", "basis", "binding_metric", "findings", "metrics"}) {
    ASSERT_NE(Block().FindAttribute(name), nullptr) << name;
    EXPECT_TRUE(Block().FindAttribute(name)->computed) << name;
  }
}

TEST_F(SeSizingDataSourceTest, RecommendsForAWorkload) {
  const auto r =
      Read(Config({{"platform", S("nsxt")}, {"workload", Workload({{"l7_rps", N(150000)}})}}));
  ASSERT_TRUE(r.diagnostics.empty()) << r.diagnostics.ToString();
  EXPECT_EQ(Num(r.state, "vcpus_per_se"), "6");
  EXPECT_EQ(Num(r.state, "memory_per_se"), "12288");
  EXPECT_EQ(Num(r.state, "num_dispatcher_cores"), "2");
  EXPECT_EQ(Num(r.state, "min_scaleout_per_vs"), "1");
  EXPECT_EQ(Num(r.state, "max_se"), "2");
  EXPECT_EQ(Str(r.state, "ha_mode"), "HA_MODE_SHARED");
  EXPECT_EQ(Num(r.state, "se_count"), "1");
  EXPECT_EQ(Str(r.state, "binding_metric"), "l7_rps");
  EXPECT_EQ(Str(r.state, "basis"), "measured");
  EXPECT_EQ(Str(r.state, "summary"), "1 SE of 6 vCPUs carries 150,000 L7 RPS at 73.2% (measured)");
  EXPECT_TRUE(r.state.GetAttribute("findings")->elements().empty());
  const auto& metrics = r.state.GetAttribute("metrics")->elements();
  ASSERT_EQ(metrics.size(), 1u);
  EXPECT_EQ(Str(metrics[0], "metric"), "l7_rps");
  EXPECT_EQ(Num(metrics[0], "demand"), "150000");
  EXPECT_EQ(Num(metrics[0], "capacity_per_se"), "205000");
  EXPECT_EQ(Num(metrics[0], "group_capacity"), "205000");
  EXPECT_EQ(Num(metrics[0], "utilization_pct"), "73.2");
  EXPECT_EQ(Str(metrics[0], "basis"), "measured");
}

TEST_F(SeSizingDataSourceTest, ThroughputMetricsAreInGbps) {
  const auto r =
      Read(Config({{"platform", S("vcenter")},
                   {"workload", Workload({{"l7_ssl_gbps", F(5.6)}, {"l7_rps", N(1000)}})}}));
  ASSERT_TRUE(r.diagnostics.empty()) << r.diagnostics.ToString();
  const auto& metrics = r.state.GetAttribute("metrics")->elements();
  ASSERT_EQ(metrics.size(), 2u);
  EXPECT_EQ(Str(metrics[0], "metric"), "l7_rps");
  EXPECT_EQ(Str(metrics[1], "metric"), "l7_ssl_gbps");
  EXPECT_EQ(Num(metrics[1], "demand"), "5.6");
  EXPECT_EQ(Num(metrics[1], "capacity_per_se"), "7.2");
  EXPECT_EQ(Num(metrics[1], "utilization_pct"), "77.8");
  // L7 SSL throughput and RPS share the CPU budget (77.8% + 0.5%): the budget binds.
  EXPECT_EQ(Str(r.state, "binding_metric"), "cpu");
}

TEST_F(SeSizingDataSourceTest, UnderSizedSettingsWarnUnderEitherPolicy) {
  std::map<std::string, Value> attrs = {{"platform", S("vcenter")},
                                        {"workload", Workload({{"ssl_tps_ecc", N(8000)}})},
                                        {"vcpus_per_se", N(2)}};
  const auto warn = Read(Config(attrs));
  ASSERT_FALSE(warn.diagnostics.HasError()) << warn.diagnostics.ToString();
  EXPECT_TRUE(HasAt(warn.diagnostics, Severity::kWarning, At("vcpus_per_se")));
  EXPECT_EQ(Num(warn.state, "vcpus_per_se"), "2");
  EXPECT_EQ(Num(warn.state, "memory_per_se"), "2048");
  const auto& findings = warn.state.GetAttribute("findings")->elements();
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].AsString().rfind("warning [vcpus_per_se] demand-within-capacity: ", 0), 0u);
  // Warnings are Read's: validation reports only what fails.
  EXPECT_TRUE(Validate(Config(attrs)).empty());

  // Terraform reads data sources in the refresh that begins a destroy, and validates before
  // it: under "enforce" too, under-sizing is a warning that says why, never an error.
  attrs["sizing_policy"] = S("enforce");
  const auto enforce = Read(Config(attrs));
  ASSERT_FALSE(enforce.diagnostics.HasError()) << enforce.diagnostics.ToString();
  EXPECT_TRUE(HasAt(enforce.diagnostics, Severity::kWarning, At("vcpus_per_se")));
  EXPECT_NE(enforce.diagnostics.ToString().find("terraform destroy"), std::string::npos)
      << enforce.diagnostics.ToString();
  EXPECT_FALSE(enforce.state.IsNull());
  EXPECT_TRUE(Validate(Config(attrs)).empty());

  // Enough vCPUs: no finding under either policy.
  attrs["vcpus_per_se"] = N(5);
  const auto ok = Read(Config(attrs));
  EXPECT_TRUE(ok.diagnostics.empty()) << ok.diagnostics.ToString();
}

TEST_F(SeSizingDataSourceTest, SettingsWithoutAWorkloadAreChecked) {
  const auto bad = Read(Config({{"platform", S("vcenter")}, {"vcpus_per_se", N(100)}}));
  EXPECT_TRUE(HasAt(bad.diagnostics, Severity::kError, At("vcpus_per_se")))
      << bad.diagnostics.ToString();
  EXPECT_TRUE(HasAt(Validate(Config({{"platform", S("vcenter")}, {"vcpus_per_se", N(100)}})),
                    Severity::kError, At("vcpus_per_se")));

  const auto ok = Read(Config({{"platform", S("vcenter")}, {"vcpus_per_se", N(4)}}));
  ASSERT_TRUE(ok.diagnostics.empty()) << ok.diagnostics.ToString();
  EXPECT_EQ(Num(ok.state, "vcpus_per_se"), "4");
  EXPECT_TRUE(ok.state.GetAttribute("memory_per_se")->IsNull());
  EXPECT_TRUE(ok.state.GetAttribute("se_count")->IsNull());
  EXPECT_TRUE(ok.state.GetAttribute("summary")->IsNull());
  EXPECT_TRUE(ok.state.GetAttribute("metrics")->elements().empty());
  EXPECT_TRUE(ok.state.GetAttribute("findings")->elements().empty());
}

TEST_F(SeSizingDataSourceTest, InvalidInputsAreErrorsAtTheirPaths) {
  EXPECT_TRUE(
      HasAt(Read(Config({{"platform", S("aws")}})).diagnostics, Severity::kError, At("platform")));
  EXPECT_TRUE(HasAt(Validate(Config({{"platform", S("aws")}})), Severity::kError, At("platform")));
  EXPECT_TRUE(HasAt(Validate(Config({{"platform", S("nsxt")}, {"sizing_policy", S("strict")}})),
                    Severity::kError, At("sizing_policy")));
  EXPECT_TRUE(HasAt(Validate(Config({{"platform", S("nsxt")}, {"vcpus_per_se", F(2.5)}})),
                    Severity::kError, At("vcpus_per_se")));
  EXPECT_TRUE(HasAt(Read(Config({{"platform", S("nsxt")},
                                 {"workload", Workload({{"target_utilization", N(20)}})}}))
                        .diagnostics,
                    Severity::kError,
                    AttributePath().Attribute("workload").Attribute("target_utilization")));
}

TEST_F(SeSizingDataSourceTest, ValidationSkipsUnknowns) {
  EXPECT_TRUE(Validate(Config({{"platform", Value::Unknown(cty::Type::String())},
                               {"vcpus_per_se", N(100)}}))
                  .empty());
  EXPECT_TRUE(Validate(Config({{"platform", S("vcenter")},
                               {"sizing_policy", S("enforce")},
                               {"workload",
                                Workload({{"ssl_tps_ecc", Value::Unknown(cty::Type::Number())}})},
                               {"vcpus_per_se", N(2)}}))
                  .empty());
  EXPECT_TRUE(Validate(Config({{"platform", S("vcenter")},
                               {"sizing_policy", Value::Unknown(cty::Type::String())},
                               {"workload", Workload({{"ssl_tps_ecc", N(8000)}})},
                               {"vcpus_per_se", N(2)}}))
                  .empty());
}

}  // namespace
}  // namespace nsxalb::provider
