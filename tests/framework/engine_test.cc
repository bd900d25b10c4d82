// The rest of the engine: state upgrade, read, import, validation, configure and stop.
#include <gtest/gtest.h>

#include "tests/framework/engine_test_util.h"

namespace nsxalb::framework::testing {
namespace {

constexpr char kState[] =
    R"({"id":"i1","name":"a","size":2,"note":null,"secret":null,"item":[{"key":"k","uid":"u"}]})";

TEST(UpgradeTest, CurrentVersionDecodesJson) {
  Engine e;
  auto r = e.server.UpgradeResourceState("fake_thing", 1, kState);
  ASSERT_FALSE(r.diagnostics.HasError()) << r.diagnostics.ToString();
  EXPECT_TRUE(r.upgraded_state.GetAttribute("size")->Equals(N(2)));
}

TEST(UpgradeTest, CurrentVersionDropsRemovedAttributesAndFillsMissingOnes) {
  Engine e;
  auto r = e.server.UpgradeResourceState(
      "fake_thing", 1, "{\n  \"id\": \"i1\",\n  \"name\": \"a\",\n  \"gone\": true\n}\n");
  ASSERT_FALSE(r.diagnostics.HasError()) << r.diagnostics.ToString();
  EXPECT_TRUE(r.upgraded_state.GetAttribute("note")->IsNull());
  EXPECT_FALSE(r.upgraded_state.GetAttribute("item")->IsNull());  // empty list, not null
  EXPECT_EQ(r.upgraded_state.GetAttribute("gone"), nullptr);
}

TEST(UpgradeTest, WrongTypeInStateNamesThePath) {
  Engine e;
  auto r = e.server.UpgradeResourceState("fake_thing", 1, R"({"id":"i1","name":"a","size":"x"})");
  EXPECT_TRUE(HasErrorAt(r.diagnostics, P("size"))) << r.diagnostics.ToString();
}

TEST(UpgradeTest, InvalidJsonIsAnError) {
  Engine e;
  auto r = e.server.UpgradeResourceState("fake_thing", 1, "{\"id\":");
  EXPECT_TRUE(r.diagnostics.HasError());
}

TEST(UpgradeTest, NewerVersionIsAnError) {
  Engine e;
  auto r = e.server.UpgradeResourceState("fake_thing", 2, kState);
  ASSERT_TRUE(r.diagnostics.HasError());
  EXPECT_NE(r.diagnostics.ToString().find("newer provider version"), std::string::npos);
}

TEST(UpgradeTest, OlderVersionGoesThroughTheUpgrader) {
  Engine e;
  int64_t seen = -1;
  e.hooks->upgrade = [&](const UpgradeStateRequest& q, UpgradeStateResponse& r) {
    seen = q.version;
    r.upgraded_state = Thing({{"id", S("i0")}, {"name", S("old")}});
  };
  auto r = e.server.UpgradeResourceState("fake_thing", 0, R"({"id":"i0","title":"old"})");
  ASSERT_FALSE(r.diagnostics.HasError()) << r.diagnostics.ToString();
  EXPECT_EQ(seen, 0);
  EXPECT_TRUE(r.upgraded_state.GetAttribute("name")->Equals(S("old")));

  auto plain = e.server.UpgradeResourceState("plain_thing", 0, "{}");
  EXPECT_TRUE(plain.diagnostics.HasError());
}

TEST(ReadTest, GoneObjectReadsAsNullAndPrivatePasses) {
  Engine e;
  const cty::Value state = Thing({{"id", S("i1")}, {"name", S("a")}});
  auto same = e.server.ReadResource("fake_thing", state, "p");
  ASSERT_FALSE(same.diagnostics.HasError());
  EXPECT_TRUE(same.new_state.Equals(state));
  EXPECT_EQ(same.private_data, "p");
  e.hooks->read = [](const ReadRequest&, ReadResponse& r) {
    r.new_state = cty::Value::Null(r.new_state.type());
  };
  auto gone = e.server.ReadResource("fake_thing", state, "p");
  ASSERT_FALSE(gone.diagnostics.HasError());
  EXPECT_TRUE(gone.new_state.IsNull());
}

TEST(ReadTest, UnknownInReadResultIsAnError) {
  Engine e;
  e.hooks->read = [](const ReadRequest&, ReadResponse& r) {
    r.new_state = r.new_state.WithAttribute("note", UnknownString());
  };
  auto r = e.server.ReadResource("fake_thing", Thing({{"id", S("i1")}, {"name", S("a")}}), "");
  EXPECT_TRUE(HasErrorAt(r.diagnostics, P("note")));
}

TEST(ImportTest, ImportFillsStateAndTypeName) {
  Engine e;
  e.hooks->import = [](const ImportStateRequest& q, ImportStateResponse& r) {
    EXPECT_TRUE(r.state.GetAttribute("id")->IsNull());
    r.state = r.state.WithAttribute("id", S(q.id));
    r.private_data = "imported";
  };
  auto r = e.server.ImportResourceState("fake_thing", "i9");
  ASSERT_FALSE(r.diagnostics.HasError()) << r.diagnostics.ToString();
  ASSERT_EQ(r.imported.size(), 1u);
  EXPECT_EQ(r.imported[0].type_name, "fake_thing");
  EXPECT_EQ(r.imported[0].private_data, "imported");
  EXPECT_TRUE(r.imported[0].state.GetAttribute("id")->Equals(S("i9")));
}

TEST(ImportTest, ResourceWithoutImportIsAnError) {
  Engine e;
  auto r = e.server.ImportResourceState("plain_thing", "i9");
  ASSERT_TRUE(r.diagnostics.HasError());
  EXPECT_TRUE(r.imported.empty());
}

TEST(ValidateTest, ResourceDiagnosticsPassThroughWithPaths) {
  Engine e;
  e.hooks->validate = [](const ValidateResourceConfigRequest& q,
                         ValidateResourceConfigResponse& r) {
    if (q.config.GetAttribute("name")->Equals(S("bad"))) {
      r.diagnostics.AddAttributeError(P("name"), "Invalid name", "bad is bad");
    }
  };
  EXPECT_FALSE(
      e.server.ValidateResourceConfig("fake_thing", Thing({{"name", S("ok")}})).HasError());
  EXPECT_TRUE(HasErrorAt(e.server.ValidateResourceConfig("fake_thing", Thing({{"name", S("bad")}})),
                         P("name")));
  EXPECT_TRUE(e.server.ValidateResourceConfig("nope", Thing({})).HasError());
}

TEST(ProviderServerTest, ConfigureAndStopReachTheProvider) {
  Engine e;
  EXPECT_FALSE(e.server.Configure("1.0.0", cty::Value::Null(cty::Type::Object({}))).HasError());
  EXPECT_EQ(e.provider->configured, 1);
  bool stopped_seen = false;
  e.hooks->read = [&](const ReadRequest& q, ReadResponse&) { stopped_seen = q.context.Stopped(); };
  e.server.ReadResource("fake_thing", Thing({{"id", S("i1")}, {"name", S("a")}}), "");
  EXPECT_FALSE(stopped_seen);
  EXPECT_EQ(e.server.Stop(), "");
  EXPECT_EQ(e.provider->stopped, 1);
  e.server.ReadResource("fake_thing", Thing({{"id", S("i1")}, {"name", S("a")}}), "");
  EXPECT_TRUE(stopped_seen);
}

TEST(ProviderServerTest, InvalidResourceSchemaIsReported) {
  Schema bad = ThingSchema();
  bad.block.attributes["name"].optional = true;  // required and optional
  auto hooks = std::make_shared<FakeHooks>();
  ProviderServer server(std::make_shared<FakeProvider>(bad, hooks));
  ASSERT_TRUE(server.schema_diagnostics().HasError());
  EXPECT_NE(server.schema_diagnostics().ToString().find(".name"), std::string::npos)
      << server.schema_diagnostics().ToString();
}

}  // namespace
}  // namespace nsxalb::framework::testing
