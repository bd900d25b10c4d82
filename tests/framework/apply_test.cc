// The apply engine: dispatch, Terraform's result rules, and partial state on errors.
#include <gtest/gtest.h>

#include "tests/framework/engine_test_util.h"

namespace nsxalb::framework::testing {
namespace {

cty::Value PlannedCreate() {
  return Thing({{"id", UnknownString()},
                {"name", S("a")},
                {"size", cty::Value::Unknown(cty::Type::Number())}},
               {Item("k", UnknownString())});
}

void FillCreate(const CreateRequest&, CreateResponse& r) {
  r.new_state = Thing({{"id", S("i1")}, {"name", S("a")}, {"size", N(1)}}, {Item("k", S("u1"))});
  r.private_data = "etag-1";
}

TEST(ApplyTest, CreateReturnsTheResourceStateAndPrivate) {
  Engine e;
  e.hooks->create = FillCreate;
  auto r = e.server.ApplyResourceChange("fake_thing", NullThing(), PlannedCreate(),
                                        Thing({{"name", S("a")}}, {Item("k")}), "planned");
  ASSERT_FALSE(r.diagnostics.HasError()) << r.diagnostics.ToString();
  EXPECT_TRUE(r.new_state.GetAttribute("id")->Equals(S("i1")));
  EXPECT_EQ(r.private_data, "etag-1");
}

TEST(ApplyTest, CreateSeesPlannedPrivatePrefilled) {
  Engine e;
  std::string seen;
  e.hooks->create = [&](const CreateRequest& q, CreateResponse& r) {
    seen = r.private_data;
    EXPECT_EQ(q.planned_private, "planned");
    FillCreate(q, r);
    r.private_data = seen;
  };
  auto r = e.server.ApplyResourceChange("fake_thing", NullThing(), PlannedCreate(),
                                        Thing({{"name", S("a")}}, {Item("k")}), "planned");
  EXPECT_EQ(seen, "planned");
  EXPECT_EQ(r.private_data, "planned");
}

TEST(ApplyTest, UnknownLeftAfterApplyIsAnErrorNamingThePath) {
  Engine e;
  e.hooks->create = [](const CreateRequest& q, CreateResponse& r) {
    FillCreate(q, r);
    r.new_state = r.new_state.WithAttribute("id", UnknownString());
  };
  auto r = e.server.ApplyResourceChange("fake_thing", NullThing(), PlannedCreate(),
                                        Thing({{"name", S("a")}}, {Item("k")}), "");
  ASSERT_TRUE(HasErrorAt(r.diagnostics, P("id"))) << r.diagnostics.ToString();
  EXPECT_TRUE(r.new_state.IsWhollyKnown());  // unknowns became null
}

TEST(ApplyTest, ChangedKnownPlannedValueIsInconsistent) {
  Engine e;
  e.hooks->create = [](const CreateRequest& q, CreateResponse& r) {
    FillCreate(q, r);
    r.new_state = r.new_state.WithAttribute("name", S("b"));
  };
  auto r = e.server.ApplyResourceChange("fake_thing", NullThing(), PlannedCreate(),
                                        Thing({{"name", S("a")}}, {Item("k")}), "");
  ASSERT_TRUE(HasErrorAt(r.diagnostics, P("name"))) << r.diagnostics.ToString();
  EXPECT_NE(r.diagnostics.ToString().find("inconsistent"), std::string::npos);
}

TEST(ApplyTest, NestedBlockCountChangeIsInconsistent) {
  Engine e;
  e.hooks->create = [](const CreateRequest& q, CreateResponse& r) {
    FillCreate(q, r);
    r.new_state = r.new_state.WithAttribute("item", cty::Value::List(ItemType(), {}));
  };
  auto r = e.server.ApplyResourceChange("fake_thing", NullThing(), PlannedCreate(),
                                        Thing({{"name", S("a")}}, {Item("k")}), "");
  EXPECT_TRUE(HasErrorAt(r.diagnostics, P("item"))) << r.diagnostics.ToString();
}

TEST(ApplyTest, NullAfterCreateIsAnError) {
  Engine e;
  e.hooks->create = [](const CreateRequest&, CreateResponse& r) {
    r.new_state = cty::Value::Null(r.new_state.type());
  };
  auto r = e.server.ApplyResourceChange("fake_thing", NullThing(), PlannedCreate(),
                                        Thing({{"name", S("a")}}, {Item("k")}), "");
  EXPECT_TRUE(r.diagnostics.HasError());
}

TEST(ApplyTest, FailedCreateThatLeftPlanUntouchedReturnsNull) {
  Engine e;
  e.hooks->create = [](const CreateRequest&, CreateResponse& r) {
    r.diagnostics.AddError("Error creating thing", "boom");
  };
  auto r = e.server.ApplyResourceChange("fake_thing", NullThing(), PlannedCreate(),
                                        Thing({{"name", S("a")}}, {Item("k")}), "");
  ASSERT_TRUE(r.diagnostics.HasError());
  EXPECT_TRUE(r.new_state.IsNull());
}

TEST(ApplyTest, FailedCreateWithPartialObjectReturnsIt) {
  Engine e;
  e.hooks->create = [](const CreateRequest& q, CreateResponse& r) {
    r.new_state = q.planned_state.WithAttribute("id", S("i1"));  // created, then failed
    r.diagnostics.AddError("Error configuring thing", "half way");
  };
  auto r = e.server.ApplyResourceChange("fake_thing", NullThing(), PlannedCreate(),
                                        Thing({{"name", S("a")}}, {Item("k")}), "");
  ASSERT_TRUE(r.diagnostics.HasError());
  ASSERT_FALSE(r.new_state.IsNull());
  EXPECT_TRUE(r.new_state.GetAttribute("id")->Equals(S("i1")));
  EXPECT_TRUE(r.new_state.IsWhollyKnown());
}

TEST(ApplyTest, UpdateDispatchesAndFailedUpdateKeepsPrior) {
  Engine e;
  const cty::Value prior = Thing({{"id", S("i1")}, {"name", S("a")}, {"size", N(1)}});
  const cty::Value planned = Thing({{"id", S("i1")},
                                    {"name", S("a")},
                                    {"size", cty::Value::Unknown(cty::Type::Number())},
                                    {"note", S("x")}});
  const cty::Value config = Thing({{"name", S("a")}, {"note", S("x")}});
  bool updated = false;
  e.hooks->update = [&](const UpdateRequest& q, UpdateResponse& r) {
    updated = true;
    EXPECT_TRUE(q.prior_state.Equals(prior));
    r.new_state = r.new_state.WithAttribute("size", N(2));
  };
  auto ok = e.server.ApplyResourceChange("fake_thing", prior, planned, config, "");
  ASSERT_FALSE(ok.diagnostics.HasError()) << ok.diagnostics.ToString();
  EXPECT_TRUE(updated);
  EXPECT_TRUE(ok.new_state.GetAttribute("size")->Equals(N(2)));

  e.hooks->update = [](const UpdateRequest&, UpdateResponse& r) {
    r.diagnostics.AddError("Error updating thing", "boom");
  };
  auto failed = e.server.ApplyResourceChange("fake_thing", prior, planned, config, "");
  ASSERT_TRUE(failed.diagnostics.HasError());
  EXPECT_TRUE(failed.new_state.Equals(prior));
}

// A plan with every value known: ModifyPlan filled the computed ones, so nothing tells the
// engine's pre-filled new state from a result by its unknowns.
cty::Value WhollyKnownCreatePlan() {
  return Thing({{"id", S("a")}, {"name", S("a")}, {"size", N(1)}}, {Item("k", S("u1"))});
}

TEST(ApplyTest, FailedCreateWithWhollyKnownPlanLeftUntouchedReturnsNull) {
  Engine e;
  e.hooks->create = [](const CreateRequest&, CreateResponse& r) {
    r.diagnostics.AddError("Error creating thing", "refused before anything was created");
  };
  auto r = e.server.ApplyResourceChange("fake_thing", NullThing(), WhollyKnownCreatePlan(),
                                        Thing({{"name", S("a")}}, {Item("k")}), "");
  ASSERT_TRUE(r.diagnostics.HasError());
  EXPECT_TRUE(r.new_state.IsNull()) << r.new_state.DebugString();
}

TEST(ApplyTest, FailedCreateKeepsAnAssignedStateEvenWhenItEqualsThePlan) {
  Engine e;
  e.hooks->create = [](const CreateRequest& q, CreateResponse& r) {
    r.new_state = q.planned_state;  // the object exists as planned
    r.diagnostics.AddError("Error configuring thing", "failed after the object was created");
  };
  auto r = e.server.ApplyResourceChange("fake_thing", NullThing(), WhollyKnownCreatePlan(),
                                        Thing({{"name", S("a")}}, {Item("k")}), "");
  ASSERT_TRUE(r.diagnostics.HasError());
  EXPECT_TRUE(r.new_state.Equals(WhollyKnownCreatePlan())) << r.new_state.DebugString();
}

// An update of note from "old" to "x" whose plan is wholly known.
struct KnownUpdate {
  cty::Value prior = Thing({{"id", S("i1")}, {"name", S("a")}, {"size", N(1)}, {"note", S("old")}},
                           {Item("k", S("u1"))});
  cty::Value planned = Thing({{"id", S("i1")}, {"name", S("a")}, {"size", N(2)}, {"note", S("x")}},
                             {Item("k", S("u1"))});
  cty::Value config = Thing({{"name", S("a")}, {"size", N(2)}, {"note", S("x")}}, {Item("k")});
};

TEST(ApplyTest, FailedUpdateWithWhollyKnownPlanLeftUntouchedKeepsPrior) {
  Engine e;
  const KnownUpdate u;
  ASSERT_TRUE(u.planned.IsWhollyKnown());
  e.hooks->update = [](const UpdateRequest&, UpdateResponse& r) {
    r.diagnostics.AddError("Error updating thing", "refused; nothing changed");
  };
  auto r = e.server.ApplyResourceChange("fake_thing", u.prior, u.planned, u.config, "");
  ASSERT_TRUE(r.diagnostics.HasError());
  EXPECT_TRUE(r.new_state.Equals(u.prior)) << r.new_state.DebugString();
}

TEST(ApplyTest, FailedUpdateWithWhollyKnownPlanKeepsTheAssignedPartialState) {
  Engine e;
  const KnownUpdate u;
  e.hooks->update = [](const UpdateRequest& q, UpdateResponse& r) {
    // size was changed, then changing note failed.
    r.new_state = q.prior_state.WithAttribute("size", N(2));
    r.diagnostics.AddError("Error updating thing", "note could not be changed");
  };
  auto r = e.server.ApplyResourceChange("fake_thing", u.prior, u.planned, u.config, "");
  ASSERT_TRUE(r.diagnostics.HasError());
  EXPECT_TRUE(r.new_state.Equals(u.prior.WithAttribute("size", N(2)))) << r.new_state.DebugString();
}

TEST(ApplyTest, NewStateCountsOnlyTheResourcesAssignments) {
  NewState prefilled = NewState::Prefilled(S("plan"));
  EXPECT_FALSE(prefilled.assigned());
  EXPECT_TRUE(prefilled.Equals(S("plan")));
  prefilled = S("plan");  // same value, but now the resource's answer
  EXPECT_TRUE(prefilled.assigned());
  EXPECT_FALSE(NewState().assigned());
}

TEST(ApplyTest, DestroyReturnsNullAndFailedDestroyKeepsPrior) {
  Engine e;
  const cty::Value prior = Thing({{"id", S("i1")}, {"name", S("a")}, {"size", N(1)}});
  std::string seen_private;
  e.hooks->del = [&](const DeleteRequest& q, DeleteResponse&) { seen_private = q.private_data; };
  auto ok = e.server.ApplyResourceChange("fake_thing", prior, NullThing(), NullThing(), "p");
  ASSERT_FALSE(ok.diagnostics.HasError());
  EXPECT_TRUE(ok.new_state.IsNull());
  EXPECT_EQ(seen_private, "p");

  e.hooks->del = [](const DeleteRequest&, DeleteResponse& r) {
    r.diagnostics.AddError("Error deleting thing", "in use");
  };
  auto failed = e.server.ApplyResourceChange("fake_thing", prior, NullThing(), NullThing(), "p");
  ASSERT_TRUE(failed.diagnostics.HasError());
  EXPECT_TRUE(failed.new_state.Equals(prior));
}

}  // namespace
}  // namespace nsxalb::framework::testing
