// The test provider in-process: its schemas are valid, and a whole lifecycle (create, read,
// update, replace plan, import, data source, upgrade from version 0, destroy) works against a
// temporary directory. The harness repeats this over real gRPC against the binary.
#include "tests/harness/test_provider/test_provider.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "plugin/cty/msgpack.h"
#include "plugin/framework/provider_server.h"
#include "plugin/framework/value_util.h"
#include "plugin/wire/provider_service.h"
#include "tests/harness/test_provider/misbehave.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::test_provider {
namespace {

using ::nsxalb::testing::IsOk;

using cty::Value;

class TestProviderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "nsxalb_test_provider_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::remove_all(dir_);
    ASSERT_TRUE(server_.schema_diagnostics().empty()) << server_.schema_diagnostics().ToString();
    const framework::Diagnostics d =
        server_.Configure("1.5.0", Value::Object({{"directory", Value::String(dir_)}}));
    ASSERT_FALSE(d.HasError()) << d.ToString();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  const framework::Schema& Schema() { return *server_.ResourceSchema("nsxalbtest_thing"); }
  cty::Type Type() { return framework::ImpliedType(Schema().block); }
  cty::Type BlockType(const std::string& name) { return Type().attributes().at(name); }

  Value Config(const std::string& name, const std::string& host) {
    const cty::Type endpoint = BlockType("endpoint").element();
    std::map<std::string, Value> attrs = framework::EmptyObject(Schema().block).entries();
    attrs["name"] = Value::String(name);
    attrs["tags"] = Value::List(cty::Type::String(), {Value::String("a")});
    attrs["extra"] = Value::Bool(true);
    attrs["endpoint"] =
        Value::List(endpoint, {Value::ObjectOf(endpoint, {{"host", Value::String(host)}})});
    return Value::ObjectOf(Type(), attrs);
  }

  std::string dir_;
  framework::ProviderServer server_{NewTestProvider()};
};

TEST_F(TestProviderTest, SchemasUseVersionOneAndEveryNestingMode) {
  EXPECT_EQ(Schema().version, 1);
  std::set<framework::NestedBlock::Nesting> modes;
  for (const auto& [name, nested] : Schema().block.block_types) modes.insert(nested.nesting);
  EXPECT_EQ(modes.size(), 5u);
  EXPECT_NE(server_.DataSourceSchema("nsxalbtest_thing"), nullptr);
}

TEST_F(TestProviderTest, Lifecycle) {
  const std::string type = "nsxalbtest_thing";
  const Value null_state = Value::Null(Type());
  const Value config = Config("one", "h1");

  auto plan = server_.PlanResourceChange(type, null_state, config, config, "");
  ASSERT_FALSE(plan.diagnostics.HasError()) << plan.diagnostics.ToString();
  EXPECT_TRUE(plan.planned_state.GetAttribute("size")->Equals(Value::Int(1)));
  EXPECT_FALSE(plan.planned_state.GetAttribute("id")->IsKnown());

  auto created = server_.ApplyResourceChange(type, null_state, plan.planned_state, config,
                                             plan.planned_private);
  ASSERT_FALSE(created.diagnostics.HasError()) << created.diagnostics.ToString();
  const std::string id = created.new_state.GetAttribute("id")->AsString();
  EXPECT_TRUE(std::filesystem::exists(dir_ + "/" + id + ".json"));
  EXPECT_EQ(created.private_data, "{\"etag\":0}");

  auto read = server_.ReadResource(type, created.new_state, created.private_data);
  ASSERT_FALSE(read.diagnostics.HasError()) << read.diagnostics.ToString();
  EXPECT_TRUE(read.new_state.Equals(created.new_state)) << read.new_state.DebugString();

  // No change: the plan equals the state.
  auto same =
      server_.PlanResourceChange(type, read.new_state, read.new_state, config, read.private_data);
  ASSERT_FALSE(same.diagnostics.HasError()) << same.diagnostics.ToString();
  EXPECT_TRUE(same.planned_state.Equals(read.new_state));

  // Update in place: description changes, revision becomes unknown.
  const Value config2 = config.WithAttribute("description", Value::String("d"));
  const Value proposed2 = read.new_state.WithAttribute("description", Value::String("d"));
  auto plan2 = server_.PlanResourceChange(type, read.new_state, proposed2, config2, "");
  ASSERT_FALSE(plan2.diagnostics.HasError()) << plan2.diagnostics.ToString();
  EXPECT_FALSE(plan2.planned_state.GetAttribute("revision")->IsKnown());
  EXPECT_TRUE(plan2.requires_replace.empty());
  auto updated = server_.ApplyResourceChange(type, read.new_state, plan2.planned_state, config2,
                                             plan2.planned_private);
  ASSERT_FALSE(updated.diagnostics.HasError()) << updated.diagnostics.ToString();
  EXPECT_TRUE(updated.new_state.GetAttribute("revision")->Equals(Value::Int(1)));

  // Changing the name or an endpoint host requires replacement.
  const Value config3 = Config("two", "h2");
  Value proposed3 = config3.WithAttribute("id", *updated.new_state.GetAttribute("id"));
  auto plan3 = server_.PlanResourceChange(type, updated.new_state, proposed3, config3, "");
  ASSERT_FALSE(plan3.diagnostics.HasError()) << plan3.diagnostics.ToString();
  ASSERT_EQ(plan3.requires_replace.size(), 2u);

  // Import reads the same object back.
  auto imported = server_.ImportResourceState(type, id);
  ASSERT_FALSE(imported.diagnostics.HasError()) << imported.diagnostics.ToString();
  auto after_import = server_.ReadResource(type, imported.imported.at(0).state, "");
  EXPECT_TRUE(after_import.new_state.Equals(updated.new_state));
  EXPECT_TRUE(server_.ImportResourceState(type, "../etc").diagnostics.HasError());

  // Data source.
  const cty::Type ds = framework::ImpliedType(server_.DataSourceSchema(type)->block);
  auto data = server_.ReadDataSource(type, Value::ObjectOf(ds, {{"id", Value::String(id)}}));
  ASSERT_FALSE(data.diagnostics.HasError()) << data.diagnostics.ToString();
  EXPECT_TRUE(data.state.GetAttribute("name")->Equals(Value::String("one")));

  // Destroy.
  auto destroyed = server_.ApplyResourceChange(type, updated.new_state, null_state, null_state, "");
  ASSERT_FALSE(destroyed.diagnostics.HasError());
  EXPECT_TRUE(destroyed.new_state.IsNull());
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/" + id + ".json"));
  auto gone = server_.ReadResource(type, updated.new_state, "");
  EXPECT_TRUE(gone.new_state.IsNull());
}

TEST_F(TestProviderTest, UpgradesVersionZeroState) {
  auto r = server_.UpgradeResourceState(
      "nsxalbtest_thing", 0, R"({"id":"x1","name":"old","count":"7","endpoint":[{"host":"h"}]})");
  ASSERT_FALSE(r.diagnostics.HasError()) << r.diagnostics.ToString();
  EXPECT_TRUE(r.upgraded_state.GetAttribute("size")->Equals(Value::Int(7)));
  EXPECT_TRUE(r.upgraded_state.GetAttribute("revision")->Equals(Value::Int(0)));
  auto bad = server_.UpgradeResourceState("nsxalbtest_thing", 0, R"({"count":"many"})");
  EXPECT_TRUE(bad.diagnostics.HasError());
}

TEST_F(TestProviderTest, ValidationNamesNestedPaths) {
  Value config =
      Config("one", "h1")
          .WithAttribute("spec",
                         Value::Object({{"cpu", Value::Int(0)}, {"zone", Value::String("z")}}));
  framework::Diagnostics d = server_.ValidateResourceConfig("nsxalbtest_thing", config);
  ASSERT_TRUE(d.HasError());
  EXPECT_EQ(d.items()[0].path, cty::AttributePath().Attribute("spec").Attribute("cpu"));
  Value deprecated = Config("one", "h1").WithAttribute("legacy_note", Value::String("x"));
  framework::Diagnostics w = server_.ValidateResourceConfig("nsxalbtest_thing", deprecated);
  EXPECT_FALSE(w.HasError());
  EXPECT_EQ(w.size(), 1u);  // the deprecation warning
}

TEST(MisbehaveTest, KnownAndUnknownModes) {
  EXPECT_EQ(WrapMisbehaving(wire::NewProviderService(NewTestProvider()), "nonsense"), nullptr);
  EXPECT_NE(WrapMisbehaving(wire::NewProviderService(NewTestProvider()), ""), nullptr);
  auto bad = WrapMisbehaving(wire::NewProviderService(NewTestProvider()), "invalid_plan");
  ASSERT_NE(bad, nullptr);
  framework::ProviderServer reference(NewTestProvider());
  const framework::Schema& schema = *reference.ResourceSchema("nsxalbtest_thing");
  const cty::Type type = framework::ImpliedType(schema.block);
  std::map<std::string, Value> attrs = framework::EmptyObject(schema.block).entries();
  attrs["name"] = Value::String("mine");
  const Value config = Value::ObjectOf(type, attrs);
  tfplugin5::PlanResourceChange::Request req;
  req.set_type_name("nsxalbtest_thing");
  req.mutable_prior_state()->set_msgpack("\xc0");
  req.mutable_proposed_new_state()->set_msgpack(*cty::EncodeMsgpack(config, type));
  req.mutable_config()->set_msgpack(*cty::EncodeMsgpack(config, type));
  tfplugin5::PlanResourceChange::Response resp;
  ASSERT_THAT(bad->PlanResourceChange(nullptr, &req, &resp), IsOk());
  absl::StatusOr<Value> planned = cty::DecodeMsgpack(resp.planned_state().msgpack(), type);
  ASSERT_THAT(planned, IsOk());
  EXPECT_FALSE(planned->GetAttribute("name")->Equals(Value::String("mine")));
}

}  // namespace
}  // namespace nsxalb::test_provider
