// Terraform's plan rules as the engine implements them: each rule with a passing and a failing
// case.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>

#include "plugin/framework/value_util.h"
#include "tests/framework/engine_test_util.h"

namespace nsxalb::framework::testing {
namespace {

TEST(PlanTest, CreateMarksComputedNullsUnknownAndKeepsConfig) {
  Engine e;
  const cty::Value config = Thing({{"name", S("a")}, {"note", S("n")}}, {Item("k")});
  auto r = e.server.PlanResourceChange("fake_thing", NullThing(), config, config, "");
  ASSERT_FALSE(r.diagnostics.HasError()) << r.diagnostics.ToString();
  EXPECT_FALSE(r.planned_state.GetAttribute("id")->IsKnown());
  EXPECT_FALSE(r.planned_state.GetAttribute("size")->IsKnown());
  EXPECT_TRUE(r.planned_state.GetAttribute("name")->Equals(S("a")));
  EXPECT_TRUE(r.planned_state.GetAttribute("note")->Equals(S("n")));
  EXPECT_TRUE(r.planned_state.GetAttribute("secret")->IsNull());
  const cty::Value& item = r.planned_state.GetAttribute("item")->elements().at(0);
  EXPECT_FALSE(item.GetAttribute("uid")->IsKnown());
  EXPECT_TRUE(item.GetAttribute("key")->Equals(S("k")));
  EXPECT_TRUE(r.requires_replace.empty());
}

TEST(PlanTest, CreateAcceptsComputedValueTheResourceKnows) {
  Engine e;
  e.hooks->modify_plan = [](const ModifyPlanRequest&, ModifyPlanResponse& r) {
    r.planned_state = r.planned_state.WithAttribute("size", N(3));
  };
  const cty::Value config = Thing({{"name", S("a")}});
  auto r = e.server.PlanResourceChange("fake_thing", NullThing(), config, config, "");
  ASSERT_FALSE(r.diagnostics.HasError()) << r.diagnostics.ToString();
  EXPECT_TRUE(r.planned_state.GetAttribute("size")->Equals(N(3)));
}

TEST(PlanTest, RejectsValueForNonComputedAttributeNullInConfig) {
  Engine e;
  e.hooks->modify_plan = [](const ModifyPlanRequest&, ModifyPlanResponse& r) {
    r.planned_state = r.planned_state.WithAttribute("note", S("invented"));
  };
  const cty::Value config = Thing({{"name", S("a")}});
  auto r = e.server.PlanResourceChange("fake_thing", NullThing(), config, config, "");
  EXPECT_TRUE(HasErrorAt(r.diagnostics, P("note"))) << r.diagnostics.ToString();
  EXPECT_TRUE(r.requires_replace.empty());
}

TEST(PlanTest, RejectsPlannedValueDifferentFromConfig) {
  Engine e;
  e.hooks->modify_plan = [](const ModifyPlanRequest&, ModifyPlanResponse& r) {
    r.planned_state = r.planned_state.WithAttribute("name", S("other"));
  };
  const cty::Value config = Thing({{"name", S("a")}});
  auto r = e.server.PlanResourceChange("fake_thing", NullThing(), config, config, "");
  ASSERT_TRUE(HasErrorAt(r.diagnostics, P("name"))) << r.diagnostics.ToString();
  EXPECT_NE(r.diagnostics.ToString().find("does not match config value"), std::string::npos);
}

TEST(PlanTest, SensitiveValuesNeverAppearInPlanErrors) {
  Engine e;
  e.hooks->modify_plan = [](const ModifyPlanRequest&, ModifyPlanResponse& r) {
    r.planned_state = r.planned_state.WithAttribute("secret", S("hunter2-planned"));
  };
  const cty::Value config = Thing({{"name", S("a")}, {"secret", S("hunter2-config")}});
  auto r = e.server.PlanResourceChange("fake_thing", NullThing(), config, config, "");
  ASSERT_TRUE(HasErrorAt(r.diagnostics, P("secret")));
  EXPECT_EQ(r.diagnostics.ToString().find("hunter2"), std::string::npos)
      << r.diagnostics.ToString();
}

TEST(PlanTest, UpdateKeepsPriorComputedValues) {
  Engine e;
  const cty::Value prior =
      Thing({{"id", S("i1")}, {"name", S("a")}, {"size", N(3)}}, {Item("k", S("u1"))});
  const cty::Value config = Thing({{"name", S("a")}, {"note", S("new")}}, {Item("k")});
  // Terraform's proposed new state: config plus computed values from prior.
  const cty::Value proposed =
      Thing({{"id", S("i1")}, {"name", S("a")}, {"size", N(3)}, {"note", S("new")}},
            {Item("k", S("u1"))});
  auto r = e.server.PlanResourceChange("fake_thing", prior, proposed, config, "");
  ASSERT_FALSE(r.diagnostics.HasError()) << r.diagnostics.ToString();
  EXPECT_TRUE(r.planned_state.Equals(proposed)) << r.planned_state.DebugString();
  EXPECT_TRUE(r.requires_replace.empty());
}

TEST(PlanTest, UpdateMarksComputedOfNewNestedElementUnknown) {
  Engine e;
  const cty::Value prior =
      Thing({{"id", S("i1")}, {"name", S("a")}, {"size", N(3)}}, {Item("k", S("u1"))});
  const cty::Value config = Thing({{"name", S("a")}}, {Item("k"), Item("k2")});
  const cty::Value proposed =
      Thing({{"id", S("i1")}, {"name", S("a")}, {"size", N(3)}}, {Item("k", S("u1")), Item("k2")});
  auto r = e.server.PlanResourceChange("fake_thing", prior, proposed, config, "");
  ASSERT_FALSE(r.diagnostics.HasError()) << r.diagnostics.ToString();
  const auto& items = r.planned_state.GetAttribute("item")->elements();
  EXPECT_TRUE(items.at(0).GetAttribute("uid")->Equals(S("u1")));
  EXPECT_FALSE(items.at(1).GetAttribute("uid")->IsKnown());
}

TEST(PlanTest, ModifyPlanMayMarkComputedUnknownOnUpdate) {
  Engine e;
  e.hooks->modify_plan = [](const ModifyPlanRequest&, ModifyPlanResponse& r) {
    r.planned_state =
        r.planned_state.WithAttribute("size", cty::Value::Unknown(cty::Type::Number()));
  };
  const cty::Value prior = Thing({{"id", S("i1")}, {"name", S("a")}, {"size", N(3)}});
  const cty::Value config = Thing({{"name", S("a")}, {"note", S("x")}});
  const cty::Value proposed =
      Thing({{"id", S("i1")}, {"name", S("a")}, {"size", N(3)}, {"note", S("x")}});
  auto r = e.server.PlanResourceChange("fake_thing", prior, proposed, config, "");
  ASSERT_FALSE(r.diagnostics.HasError()) << r.diagnostics.ToString();
  EXPECT_FALSE(r.planned_state.GetAttribute("size")->IsKnown());
}

TEST(PlanTest, RejectsKeepingPriorValueOfRemovedOptionalAttribute) {
  Engine e;
  e.hooks->modify_plan = [](const ModifyPlanRequest& q, ModifyPlanResponse& r) {
    r.planned_state = r.planned_state.WithAttribute("note", *q.prior_state.GetAttribute("note"));
  };
  const cty::Value prior = Thing({{"id", S("i1")}, {"name", S("a")}, {"note", S("old")}});
  const cty::Value config = Thing({{"name", S("a")}});
  const cty::Value proposed = Thing({{"id", S("i1")}, {"name", S("a")}});
  auto r = e.server.PlanResourceChange("fake_thing", prior, proposed, config, "");
  EXPECT_TRUE(HasErrorAt(r.diagnostics, P("note"))) << r.diagnostics.ToString();
}

TEST(PlanTest, RequiresReplaceOnlyWhenTheAttributeChanges) {
  Engine e;
  const cty::Value prior = Thing({{"id", S("i1")}, {"name", S("a")}, {"size", N(1)}});
  // name changes: replacement.
  {
    const cty::Value config = Thing({{"name", S("b")}});
    const cty::Value proposed = Thing({{"id", S("i1")}, {"name", S("b")}, {"size", N(1)}});
    auto r = e.server.PlanResourceChange("fake_thing", prior, proposed, config, "");
    ASSERT_FALSE(r.diagnostics.HasError()) << r.diagnostics.ToString();
    ASSERT_EQ(r.requires_replace.size(), 1u);
    EXPECT_EQ(r.requires_replace[0], P("name"));
  }
  // only note changes: no replacement.
  {
    const cty::Value config = Thing({{"name", S("a")}, {"note", S("x")}});
    const cty::Value proposed =
        Thing({{"id", S("i1")}, {"name", S("a")}, {"size", N(1)}, {"note", S("x")}});
    auto r = e.server.PlanResourceChange("fake_thing", prior, proposed, config, "");
    ASSERT_FALSE(r.diagnostics.HasError()) << r.diagnostics.ToString();
    EXPECT_TRUE(r.requires_replace.empty());
  }
}

TEST(PlanTest, RequiresReplaceFromModifyPlanIsFilteredAndIgnoredOnCreate) {
  Engine e;
  e.hooks->modify_plan = [](const ModifyPlanRequest&, ModifyPlanResponse& r) {
    r.requires_replace.push_back(P("note"));
    r.requires_replace.push_back(P("no_such_attribute"));
  };
  const cty::Value prior = Thing({{"id", S("i1")}, {"name", S("a")}, {"size", N(1)}});
  const cty::Value same = Thing({{"name", S("a")}});
  auto unchanged = e.server.PlanResourceChange(
      "fake_thing", prior, Thing({{"id", S("i1")}, {"name", S("a")}, {"size", N(1)}}), same, "");
  ASSERT_FALSE(unchanged.diagnostics.HasError()) << unchanged.diagnostics.ToString();
  EXPECT_TRUE(unchanged.requires_replace.empty());

  const cty::Value changed_config = Thing({{"name", S("a")}, {"note", S("x")}});
  auto changed = e.server.PlanResourceChange(
      "fake_thing", prior,
      Thing({{"id", S("i1")}, {"name", S("a")}, {"size", N(1)}, {"note", S("x")}}), changed_config,
      "");
  ASSERT_EQ(changed.requires_replace.size(), 1u);
  EXPECT_EQ(changed.requires_replace[0], P("note"));

  auto create =
      e.server.PlanResourceChange("fake_thing", NullThing(), changed_config, changed_config, "");
  EXPECT_TRUE(create.requires_replace.empty());
}

TEST(PlanTest, PrivateDataPassesThroughAndModifyPlanMayChangeIt) {
  Engine e;
  const cty::Value prior = Thing({{"id", S("i1")}, {"name", S("a")}, {"size", N(1)}});
  const cty::Value config = Thing({{"name", S("a")}});
  const cty::Value proposed = Thing({{"id", S("i1")}, {"name", S("a")}, {"size", N(1)}});
  auto r = e.server.PlanResourceChange("fake_thing", prior, proposed, config, "secret-bytes");
  EXPECT_EQ(r.planned_private, "secret-bytes");
  e.hooks->modify_plan = [](const ModifyPlanRequest& q, ModifyPlanResponse& r) {
    EXPECT_EQ(r.planned_private, q.prior_private);
    r.planned_private = "v2";
  };
  auto r2 = e.server.PlanResourceChange("fake_thing", prior, proposed, config, "secret-bytes");
  EXPECT_EQ(r2.planned_private, "v2");
}

TEST(PlanTest, DestroyPlansNull) {
  Engine e;
  bool called = false;
  e.hooks->modify_plan = [&](const ModifyPlanRequest&, ModifyPlanResponse&) { called = true; };
  const cty::Value prior = Thing({{"id", S("i1")}, {"name", S("a")}});
  auto r = e.server.PlanResourceChange("fake_thing", prior, NullThing(), NullThing(), "p");
  ASSERT_FALSE(r.diagnostics.HasError());
  EXPECT_TRUE(r.planned_state.IsNull());
  EXPECT_EQ(r.planned_private, "p");
  EXPECT_FALSE(called);
}

TEST(PlanTest, RejectsDroppingAConfiguredBlock) {
  Engine e;
  e.hooks->modify_plan = [](const ModifyPlanRequest&, ModifyPlanResponse& r) {
    r.planned_state = r.planned_state.WithAttribute("item", cty::Value::List(ItemType(), {}));
  };
  const cty::Value config = Thing({{"name", S("a")}}, {Item("k")});
  auto r = e.server.PlanResourceChange("fake_thing", NullThing(), config, config, "");
  EXPECT_TRUE(HasErrorAt(r.diagnostics, P("item"))) << r.diagnostics.ToString();
}

TEST(PlanTest, RejectsUnknownWholeBlockAndNonConformingPlan) {
  Engine e;
  e.hooks->modify_plan = [](const ModifyPlanRequest&, ModifyPlanResponse& r) {
    r.planned_state =
        r.planned_state.WithAttribute("item", cty::Value::Unknown(cty::Type::List(ItemType())));
  };
  const cty::Value config = Thing({{"name", S("a")}});
  auto r = e.server.PlanResourceChange("fake_thing", NullThing(), config, config, "");
  EXPECT_TRUE(HasErrorAt(r.diagnostics, P("item"))) << r.diagnostics.ToString();

  e.hooks->modify_plan = [](const ModifyPlanRequest&, ModifyPlanResponse& r) {
    r.planned_state = r.planned_state.WithAttribute("size", S("not a number"));
  };
  auto r2 = e.server.PlanResourceChange("fake_thing", NullThing(), config, config, "");
  ASSERT_TRUE(r2.diagnostics.HasError());
  EXPECT_NE(r2.diagnostics.ToString().find("does not conform"), std::string::npos)
      << r2.diagnostics.ToString();
}

// A "fake_thing" whose blocks may be `dynamic`: one block of each nesting Terraform can send as a
// wholly unknown value, each {key required, uid computed}, beside id (computed) and name.
Schema DynamicBlocksSchema() {
  Schema s;
  s.block.attributes.emplace("id", Attr("id", cty::Type::String(), "computed"));
  s.block.attributes.emplace("name", Attr("name", cty::Type::String(), "required"));
  for (const auto& [name, nesting] : {std::pair{"rule", NestedBlock::Nesting::kList},
                                      std::pair{"tag", NestedBlock::Nesting::kSet},
                                      std::pair{"limits", NestedBlock::Nesting::kSingle},
                                      std::pair{"zone", NestedBlock::Nesting::kMap}}) {
    NestedBlock b;
    b.type_name = name;
    b.nesting = nesting;
    b.block.attributes.emplace("key", Attr("key", cty::Type::String(), "required"));
    b.block.attributes.emplace("uid", Attr("uid", cty::Type::String(), "computed"));
    s.block.block_types.emplace(name, b);
  }
  return s;
}

// An engine over DynamicBlocksSchema.
struct DynamicBlocksEngine {
  std::shared_ptr<FakeHooks> hooks = std::make_shared<FakeHooks>();
  ProviderServer server{std::make_shared<FakeProvider>(DynamicBlocksSchema(), hooks)};
  cty::Type type = ImpliedType(DynamicBlocksSchema().block);
  cty::Type block_type(const std::string& name) const { return type.attributes().at(name); }
};

constexpr const char* kDynamicBlocks[] = {"rule", "tag", "limits", "zone"};

TEST(PlanTest, WhollyUnknownBlockConfigPlannedAsTheSameUnknownIsValid) {
  for (const char* block : kDynamicBlocks) {
    SCOPED_TRACE(block);
    DynamicBlocksEngine e;
    // Config and proposed state as Terraform sends them for `dynamic "<block>"` with an unknown
    // for_each: the whole block value is unknown.
    const cty::Value config = cty::Value::ObjectOf(
        e.type, {{"name", S("a")}, {block, cty::Value::Unknown(e.block_type(block))}});
    auto created =
        e.server.PlanResourceChange("fake_thing", cty::Value::Null(e.type), config, config, "");
    ASSERT_FALSE(created.diagnostics.HasError()) << created.diagnostics.ToString();
    EXPECT_FALSE(created.planned_state.GetAttribute(block)->IsKnown());
    EXPECT_FALSE(created.planned_state.GetAttribute("id")->IsKnown());

    // The same on update, where the prior state has known (empty) blocks.
    const cty::Value prior =
        NormalizeBlocks(DynamicBlocksSchema().block,
                        cty::Value::ObjectOf(e.type, {{"id", S("i1")}, {"name", S("a")}}));
    const cty::Value proposed = config.WithAttribute("id", S("i1"));
    auto updated = e.server.PlanResourceChange("fake_thing", prior, proposed, config, "");
    ASSERT_FALSE(updated.diagnostics.HasError()) << updated.diagnostics.ToString();
    EXPECT_FALSE(updated.planned_state.GetAttribute(block)->IsKnown());
  }
}

TEST(PlanTest, RejectsAKnownPlanForAWhollyUnknownBlockConfig) {
  for (const char* block : kDynamicBlocks) {
    SCOPED_TRACE(block);
    DynamicBlocksEngine e;
    // No blocks (an empty collection, or a null single block): a known value.
    const cty::Value known = *EmptyObject(DynamicBlocksSchema().block).GetAttribute(block);
    e.hooks->modify_plan = [&](const ModifyPlanRequest&, ModifyPlanResponse& r) {
      r.planned_state = r.planned_state.WithAttribute(block, known);
    };
    const cty::Value config = cty::Value::ObjectOf(
        e.type, {{"name", S("a")}, {block, cty::Value::Unknown(e.block_type(block))}});
    auto r =
        e.server.PlanResourceChange("fake_thing", cty::Value::Null(e.type), config, config, "");
    EXPECT_TRUE(HasErrorAt(r.diagnostics, P(block))) << r.diagnostics.ToString();
  }
}

TEST(PlanTest, UnknownResourceTypeIsAnErrorNamingIt) {
  Engine e;
  auto r = e.server.PlanResourceChange("nope_thing", NullThing(), NullThing(), NullThing(), "");
  ASSERT_TRUE(r.diagnostics.HasError());
  EXPECT_NE(r.diagnostics.ToString().find("nope_thing"), std::string::npos);
}

TEST(PlanTest, PlainResourceGetsTheEnginePlan) {
  Engine e;
  const cty::Value config = Thing({{"name", S("a")}});
  auto r = e.server.PlanResourceChange("plain_thing", NullThing(), config, config, "");
  ASSERT_FALSE(r.diagnostics.HasError()) << r.diagnostics.ToString();
  EXPECT_FALSE(r.planned_state.GetAttribute("id")->IsKnown());
}

}  // namespace
}  // namespace nsxalb::framework::testing
