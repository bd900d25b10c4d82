// provider::nsxalb::recommend, capacity and check through the engine: the figures of
// nsxalb_se_sizing and the sizing library, and every bad input an error at its argument.
#include "plugin/provider/sizing_functions.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "plugin/framework/provider_server.h"
#include "plugin/framework/value_util.h"
#include "plugin/provider/provider.h"
#include "plugin/sizing/capacity.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::provider {
namespace {

using ::nsxalb::testing::IsOk;

using ::testing::HasSubstr;

cty::Value Obj(std::map<std::string, cty::Value> attrs) { return cty::Value::Object(attrs); }
cty::Value Num(double v) { return cty::Value::Float(v); }
cty::Value Str(const std::string& s) { return cty::Value::String(s); }

class SizingFunctionsTest : public ::testing::Test {
 protected:
  framework::CallFunctionResult Call(const std::string& name, std::vector<cty::Value> args) {
    return server_.CallFunction(name, args);
  }
  framework::ProviderServer server_{NewProvider()};
};

double NumberAt(const cty::Value& v, const std::string& name) {
  const cty::Value* a = v.GetAttribute(name);
  return a == nullptr || a->IsNull() ? -1 : a->AsNumber().AsDouble();
}

TEST_F(SizingFunctionsTest, DefinitionsAreServed) {
  ASSERT_EQ(server_.functions().size(), 3u);
  const framework::FunctionDefinition& recommend = server_.functions().at("recommend");
  ASSERT_EQ(recommend.parameters.size(), 2u);
  EXPECT_EQ(recommend.parameters[0].name, "platform");
  EXPECT_EQ(recommend.parameters[1].name, "workload");
  EXPECT_FALSE(recommend.summary.empty());
  EXPECT_EQ(server_.functions().at("check").parameters.size(), 3u);
  EXPECT_EQ(server_.functions().at("capacity").parameters[1].name, "vcpus");
  EXPECT_FALSE(server_.schema_diagnostics().HasError());
}

TEST_F(SizingFunctionsTest, RecommendGivesTheDataSourcesFigures) {
  framework::CallFunctionResult r =
      Call("recommend", {Str("nsxt"), Obj({{"l7_rps", Num(150000)}})});
  ASSERT_FALSE(r.error.has_value()) << r.error->text;
  EXPECT_EQ(NumberAt(r.result, "vcpus_per_se"), 6);
  EXPECT_EQ(NumberAt(r.result, "memory_per_se"), 12288);
  EXPECT_EQ(NumberAt(r.result, "se_count"), 1);
  EXPECT_EQ(NumberAt(r.result, "max_vs_per_se"), 10);
  EXPECT_EQ(r.result.GetAttribute("ha_mode")->AsString(), "HA_MODE_SHARED");
  EXPECT_EQ(r.result.GetAttribute("binding_metric")->AsString(), "l7_rps");
  EXPECT_EQ(r.result.GetAttribute("summary")->AsString(),
            "1 SE of 6 vCPUs carries 150,000 L7 RPS at 73.2% (measured)");

  // The same answer as nsxalb_se_sizing for the same workload.
  const framework::Block& block = EmbeddedDataSourceSchema("nsxalb_se_sizing").block;
  cty::Value workload = framework::EmptyObject(block.block_types.at("workload").block)
                            .WithAttribute("l7_rps", Num(150000));
  cty::Value config = framework::EmptyObject(block)
                          .WithAttribute("platform", Str("nsxt"))
                          .WithAttribute("workload", workload);
  framework::ReadDataSourceResult ds = server_.ReadDataSource("nsxalb_se_sizing", config);
  ASSERT_FALSE(ds.diagnostics.HasError()) << ds.diagnostics.ToString();
  for (const auto& [name, value] : r.result.entries()) {
    EXPECT_TRUE(ds.state.GetAttribute(name)->Equals(value)) << name;
  }
}

TEST_F(SizingFunctionsTest, RecommendSizesForTheHaPolicyGiven) {
  framework::CallFunctionResult r =
      Call("recommend", {Str("nsxt"), Obj({{"l7_rps", Num(150000)},
                                           {"ha_mode", Str("HA_MODE_SHARED_PAIR")},
                                           {"virtual_services", Num(30)}})});
  ASSERT_FALSE(r.error.has_value()) << r.error->text;
  EXPECT_EQ(r.result.GetAttribute("ha_mode")->AsString(), "HA_MODE_SHARED_PAIR");
  EXPECT_EQ(NumberAt(r.result, "buffer_se"), 0);
  EXPECT_GE(NumberAt(r.result, "se_count"), 3);  // 30 virtual services, 10 per SE
  EXPECT_EQ(NumberAt(r.result, "max_se"), NumberAt(r.result, "se_count"));

  framework::CallFunctionResult bad =
      Call("recommend", {Str("nsxt"), Obj({{"l7_rps", Num(1)}, {"ha_mode", Str("HA_BOTH")}})});
  ASSERT_TRUE(bad.error.has_value());
  EXPECT_EQ(bad.error->argument, 1);
  EXPECT_THAT(bad.error->text, HasSubstr("HA_MODE_SHARED_PAIR"));
}

TEST_F(SizingFunctionsTest, BadArgumentsPointAtTheArgument) {
  framework::CallFunctionResult platform = Call("recommend", {Str("nsx"), Obj({})});
  ASSERT_TRUE(platform.error.has_value());
  EXPECT_EQ(platform.error->argument, 0);
  EXPECT_THAT(platform.error->text, HasSubstr("\"vcenter\" and \"nsxt\""));

  framework::CallFunctionResult key = Call("recommend", {Str("nsxt"), Obj({{"l7rps", Num(1)}})});
  ASSERT_TRUE(key.error.has_value());
  EXPECT_EQ(key.error->argument, 1);
  EXPECT_THAT(key.error->text, HasSubstr("no key \"l7rps\""));
  EXPECT_THAT(key.error->text, HasSubstr("l7_rps, l7_ssl_gbps, max_vcpus_per_se"));
  EXPECT_THAT(key.error->text, HasSubstr("ha_mode, buffer_se"));

  framework::CallFunctionResult negative =
      Call("recommend", {Str("nsxt"), Obj({{"l7_rps", Num(-5)}})});
  ASSERT_TRUE(negative.error.has_value());
  EXPECT_EQ(negative.error->argument, 1);
  EXPECT_THAT(negative.error->text, HasSubstr("l7_rps"));

  framework::CallFunctionResult text =
      Call("recommend", {Str("nsxt"), Obj({{"l7_rps", Str("lots")}})});
  ASSERT_TRUE(text.error.has_value());
  EXPECT_EQ(text.error->argument, 1);

  framework::CallFunctionResult scalar = Call("recommend", {Str("nsxt"), Num(3)});
  ASSERT_TRUE(scalar.error.has_value());
  EXPECT_EQ(scalar.error->argument, 1);

  framework::CallFunctionResult vcpus = Call("capacity", {Str("vcenter"), Num(2.5)});
  ASSERT_TRUE(vcpus.error.has_value());
  EXPECT_EQ(vcpus.error->argument, 1);

  framework::CallFunctionResult setting =
      Call("check", {Str("nsxt"), Obj({{"vcpus", Num(2)}}), Obj({{"l7_rps", Num(150000)}})});
  ASSERT_TRUE(setting.error.has_value());
  EXPECT_EQ(setting.error->argument, 1);

  framework::CallFunctionResult fraction = Call(
      "check", {Str("nsxt"), Obj({{"vcpus_per_se", Num(2.5)}}), Obj({{"l7_rps", Num(150000)}})});
  ASSERT_TRUE(fraction.error.has_value());
  EXPECT_EQ(fraction.error->argument, 1);
  EXPECT_THAT(fraction.error->text, HasSubstr("vcpus_per_se"));

  framework::CallFunctionResult target = Call(
      "check", {Str("nsxt"), Obj({}), Obj({{"l7_rps", Num(1)}, {"target_utilization", Num(5)}})});
  ASSERT_TRUE(target.error.has_value() || !target.result.GetAttribute("ok")->AsBool());
}

TEST_F(SizingFunctionsTest, CapacityIsTheLibrarysFigures) {
  framework::CallFunctionResult r = Call("capacity", {Str("nsxt"), Num(6)});
  ASSERT_FALSE(r.error.has_value()) << r.error->text;
  absl::StatusOr<sizing::SeCapacity> c = sizing::CapacityOf(sizing::Platform::kNsxt, 6);
  ASSERT_THAT(c, IsOk());
  const cty::Value* l7 = r.result.GetAttribute("l7_rps");
  EXPECT_EQ(NumberAt(*l7, "value"), c->Of(sizing::Metric::kL7Rps).value);
  EXPECT_EQ(NumberAt(*l7, "value"), 205000);
  EXPECT_EQ(l7->GetAttribute("basis")->AsString(), "measured");
  EXPECT_EQ(NumberAt(r.result, "memory_per_se"), c->memory_mb);
  EXPECT_EQ(NumberAt(*r.result.GetAttribute("l7_gbps"), "value"),
            c->Of(sizing::Metric::kL7Gbps).value / 1000);
}

TEST_F(SizingFunctionsTest, CheckReportsUnderSizingAsPlanDoes) {
  framework::CallFunctionResult small =
      Call("check", {Str("nsxt"), Obj({{"vcpus_per_se", Num(2)}}), Obj({{"l7_rps", Num(150000)}})});
  ASSERT_FALSE(small.error.has_value()) << small.error->text;
  EXPECT_FALSE(small.result.GetAttribute("ok")->AsBool());
  ASSERT_FALSE(small.result.GetAttribute("findings")->elements().empty());
  EXPECT_THAT(small.result.GetAttribute("findings")->elements()[0].AsString(),
              HasSubstr("demand-within-capacity"));

  framework::CallFunctionResult fits =
      Call("check", {Str("nsxt"), Obj({{"vcpus_per_se", Num(6)}}), Obj({{"l7_rps", Num(150000)}})});
  ASSERT_FALSE(fits.error.has_value()) << fits.error->text;
  EXPECT_TRUE(fits.result.GetAttribute("ok")->AsBool());
  EXPECT_EQ(NumberAt(fits.result, "se_count"), 1);
}

TEST_F(SizingFunctionsTest, UnknownArgumentsGiveAnUnknownResult) {
  framework::CallFunctionResult r =
      Call("recommend", {Str("nsxt"), Obj({{"l7_rps", cty::Value::Unknown(cty::Type::Number())}})});
  ASSERT_FALSE(r.error.has_value());
  EXPECT_FALSE(r.result.IsKnown());
}

}  // namespace
}  // namespace nsxalb::provider
