// Tests for the harness's Terraform rules: each check passes on a valid answer and fails, with
// Terraform's wording, on a crafted violation.
#include "tests/harness/terraform_rules.h"

#include <map>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "plugin/cty/path.h"
#include "plugin/cty/type.h"
#include "plugin/cty/value.h"
#include "proto/tfplugin5.pb.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::harness {
namespace {

using ::nsxalb::testing::IsOk;

using cty::AttributePath;
using cty::Type;
using cty::Value;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kSecret[] = "hunter2-secret";

void AddAttr(tfplugin5::Schema::Block* b, const std::string& name, const std::string& type,
             const std::string& flags) {
  tfplugin5::Schema::Attribute* a = b->add_attributes();
  a->set_name(name);
  a->set_type(type);
  a->set_required(flags.find('R') != std::string::npos);
  a->set_optional(flags.find('O') != std::string::npos);
  a->set_computed(flags.find('C') != std::string::npos);
  a->set_sensitive(flags.find('S') != std::string::npos);
  a->set_write_only(flags.find('W') != std::string::npos);
}

tfplugin5::Schema::Block* AddBlock(tfplugin5::Schema::Block* b, const std::string& name,
                                   tfplugin5::Schema::NestedBlock::NestingMode mode,
                                   int64_t min_items = 0, int64_t max_items = 0) {
  tfplugin5::Schema::NestedBlock* nb = b->add_block_types();
  nb->set_type_name(name);
  nb->set_nesting(mode);
  nb->set_min_items(min_items);
  nb->set_max_items(max_items);
  return nb->mutable_block();
}

tfplugin5::Schema ThingProto() {
  tfplugin5::Schema s;
  s.set_version(1);
  tfplugin5::Schema::Block* b = s.mutable_block();
  AddAttr(b, "id", "\"string\"", "C");
  AddAttr(b, "name", "\"string\"", "R");
  AddAttr(b, "size", "\"number\"", "O");
  AddAttr(b, "zone", "\"string\"", "OC");
  AddAttr(b, "secret", "\"string\"", "OS");
  AddAttr(b, "token", "\"string\"", "OW");
  AddAttr(b, "tags", "[\"list\",\"string\"]", "O");
  tfplugin5::Schema::Block* vc = AddBlock(b, "vcenter", tfplugin5::Schema::NestedBlock::LIST);
  AddAttr(vc, "name", "\"string\"", "R");
  AddAttr(vc, "uuid", "\"string\"", "C");
  tfplugin5::Schema::Block* net = AddBlock(b, "network", tfplugin5::Schema::NestedBlock::SINGLE);
  AddAttr(net, "cidr", "\"string\"", "R");
  AddAttr(net, "gateway", "\"string\"", "OC");
  tfplugin5::Schema::Block* rule = AddBlock(b, "rule", tfplugin5::Schema::NestedBlock::SET);
  AddAttr(rule, "port", "\"number\"", "R");
  AddAttr(rule, "rule_id", "\"string\"", "C");
  tfplugin5::Schema::Block* label = AddBlock(b, "label", tfplugin5::Schema::NestedBlock::MAP);
  AddAttr(label, "value", "\"string\"", "R");
  tfplugin5::Schema::Block* to = AddBlock(b, "timeouts", tfplugin5::Schema::NestedBlock::GROUP);
  AddAttr(to, "create", "\"string\"", "O");
  return s;
}

class RulesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<Schema> schema = SchemaFromProto(ThingProto());
    ASSERT_THAT(schema, IsOk());
    block_ = schema->block;
  }

  const Block& NestedOf(const std::string& name) { return block_.FindBlockType(name)->block; }

  // An object of `block` with the given attributes; everything else as in an absent block.
  static Value Obj(const Block& block, std::map<std::string, Value> attrs) {
    std::map<std::string, Value> all = EmptyValue(block).entries();
    for (auto& [k, v] : attrs) all[k] = v;
    return Value::Object(std::move(all));
  }
  Value Thing(std::map<std::string, Value> attrs) { return Obj(block_, std::move(attrs)); }
  Value Vcenters(std::vector<Value> elems) {
    return Value::List(ImpliedType(NestedOf("vcenter")), std::move(elems));
  }
  Value Vcenter(const std::string& name, Value uuid) {
    return Obj(NestedOf("vcenter"), {{"name", Value::String(name)}, {"uuid", uuid}});
  }
  static Value S(const std::string& s) { return Value::String(s); }
  static Value UnknownString() { return Value::Unknown(Type::String()); }

  static std::string Message(const absl::Status& s) { return std::string(s.message()); }

  Block block_;
  Subject subject_;
};

// ---- Schema conversion and implied type ----

TEST_F(RulesTest, ImpliedTypeFollowsNesting) {
  Type t = ImpliedType(block_);
  Type vc = Type::Object({{"name", Type::String()}, {"uuid", Type::String()}});
  EXPECT_EQ(t.attributes().at("vcenter"), Type::List(vc));
  EXPECT_EQ(t.attributes().at("network"),
            Type::Object({{"cidr", Type::String()}, {"gateway", Type::String()}}));
  EXPECT_EQ(t.attributes().at("rule").kind(), Type::Kind::kSet);
  EXPECT_EQ(t.attributes().at("label").kind(), Type::Kind::kMap);
  EXPECT_EQ(t.attributes().at("timeouts"), Type::Object({{"create", Type::String()}}));
  EXPECT_EQ(t.attributes().at("tags"), Type::List(Type::String()));
  EXPECT_EQ(t.attributes().size(), 12u);
}

TEST_F(RulesTest, ImpliedTypeOfListBlockWithDynamicIsDynamic) {
  tfplugin5::Schema::Block b;
  tfplugin5::Schema::Block* inner = AddBlock(&b, "item", tfplugin5::Schema::NestedBlock::LIST);
  AddAttr(inner, "any", "\"dynamic\"", "O");
  absl::StatusOr<Block> block = BlockFromProto(b);
  ASSERT_THAT(block, IsOk());
  EXPECT_EQ(ImpliedType(*block).attributes().at("item"), Type::Dynamic());
  EXPECT_TRUE(EmptyValue(*block).GetAttribute("item")->Equals(Value::Tuple({})));
}

TEST_F(RulesTest, EmptyValueShapes) {
  Value e = EmptyValue(block_);
  EXPECT_TRUE(e.GetAttribute("name")->IsNull());
  EXPECT_TRUE(e.GetAttribute("network")->IsNull());
  EXPECT_TRUE(e.GetAttribute("vcenter")->elements().empty());
  EXPECT_FALSE(e.GetAttribute("vcenter")->IsNull());
  EXPECT_FALSE(e.GetAttribute("timeouts")->IsNull());
  EXPECT_THAT(cty::CheckConformance(e, ImpliedType(block_)), IsOk());
}

TEST_F(RulesTest, InvalidTypeJsonIsNamed) {
  tfplugin5::Schema s = ThingProto();
  s.mutable_block()->mutable_attributes(1)->set_type("\"strin\"");
  absl::StatusOr<Schema> schema = SchemaFromProto(s);
  ASSERT_THAT(schema, Not(IsOk()));
  EXPECT_THAT(Message(schema.status()), HasSubstr("attribute \"name\""));
}

TEST_F(RulesTest, AttributePathFromProto) {
  tfplugin5::AttributePath p;
  p.add_steps()->set_attribute_name("vcenter");
  p.add_steps()->set_element_key_int(2);
  p.add_steps()->set_element_key_string("k");
  EXPECT_EQ(AttributePathFromProto(p).ToString(), ".vcenter[2][\"k\"]");
}

// ---- ProposedNewObject ----

TEST_F(RulesTest, ProposedNewOnCreateIsTheConfig) {
  Value config = Thing(
      {{"name", S("a")}, {"vcenter", Vcenters({Vcenter("vc", Value::Null(Type::String()))})}});
  Value proposed = ProposedNewObject(block_, Value::Null(ImpliedType(block_)), config);
  EXPECT_TRUE(proposed.Equals(config)) << proposed.DebugString();
}

TEST_F(RulesTest, ProposedNewTakesComputedFromPrior) {
  Value prior = Thing({{"id", S("x")},
                       {"name", S("a")},
                       {"size", Value::Int(5)},
                       {"zone", S("z1")},
                       {"vcenter", Vcenters({Vcenter("vc", S("u1"))})},
                       {"network", Obj(NestedOf("network"),
                                       {{"cidr", S("10.0.0.0/8")}, {"gateway", S("10.0.0.1")}})}});
  Value config = Thing({{"name", S("b")},
                        {"vcenter", Vcenters({Vcenter("vc", Value::Null(Type::String())),
                                              Vcenter("vc2", Value::Null(Type::String()))})},
                        {"network", Obj(NestedOf("network"), {{"cidr", S("10.0.0.0/8")}})}});
  Value p = ProposedNewObject(block_, prior, config);
  EXPECT_EQ(p.GetAttribute("id")->AsString(), "x");     // computed-only: prior
  EXPECT_EQ(p.GetAttribute("zone")->AsString(), "z1");  // optional+computed, null in config
  EXPECT_EQ(p.GetAttribute("name")->AsString(), "b");   // config wins
  EXPECT_TRUE(p.GetAttribute("size")->IsNull());        // optional only: config even if null
  const auto& vcs = p.GetAttribute("vcenter")->elements();
  ASSERT_EQ(vcs.size(), 2u);
  EXPECT_EQ(vcs[0].GetAttribute("uuid")->AsString(), "u1");  // correlated by index
  EXPECT_TRUE(vcs[1].GetAttribute("uuid")->IsNull());        // new element: config as-is
  EXPECT_EQ(p.GetAttribute("network")->GetAttribute("gateway")->AsString(), "10.0.0.1");

  Value config_zone = config.WithAttribute("zone", S("z2"));
  EXPECT_EQ(ProposedNewObject(block_, prior, config_zone).GetAttribute("zone")->AsString(), "z2");
}

TEST_F(RulesTest, ProposedNewCorrelatesSetBlocksByContent) {
  const Block& rule = NestedOf("rule");
  Type rt = ImpliedType(rule);
  Value prior = Thing(
      {{"name", S("a")},
       {"rule", Value::Set(rt, {Obj(rule, {{"port", Value::Int(80)}, {"rule_id", S("r80")}})})}});
  Value same =
      Thing({{"name", S("a")}, {"rule", Value::Set(rt, {Obj(rule, {{"port", Value::Int(80)}})})}});
  Value p = ProposedNewObject(block_, prior, same);
  EXPECT_EQ(p.GetAttribute("rule")->elements()[0].GetAttribute("rule_id")->AsString(), "r80");
  Value changed =
      Thing({{"name", S("a")}, {"rule", Value::Set(rt, {Obj(rule, {{"port", Value::Int(81)}})})}});
  p = ProposedNewObject(block_, prior, changed);
  EXPECT_TRUE(p.GetAttribute("rule")->elements()[0].GetAttribute("rule_id")->IsNull());
}

TEST_F(RulesTest, ProposedNewMapBlocksByKey) {
  const Block& label = NestedOf("label");
  Type lt = ImpliedType(label);
  Value prior = Thing(
      {{"name", S("a")}, {"label", Value::Map(lt, {{"env", Obj(label, {{"value", S("p")}})}})}});
  Value config = Thing({{"name", S("a")},
                        {"label", Value::Map(lt, {{"env", Obj(label, {{"value", S("q")}})},
                                                  {"team", Obj(label, {{"value", S("t")}})}})}});
  Value p = ProposedNewObject(block_, prior, config);
  EXPECT_EQ(p.GetAttribute("label")->entries().size(), 2u);
  EXPECT_EQ(p.GetAttribute("label")->entries().at("env").GetAttribute("value")->AsString(), "q");
}

// ---- AssertPlanValid ----

class PlanTest : public RulesTest {
 protected:
  Value NullPrior() { return Value::Null(ImpliedType(block_)); }
  Value Config() {
    return Thing(
        {{"name", S("a")}, {"vcenter", Vcenters({Vcenter("vc", Value::Null(Type::String()))})}});
  }
  // What a correct provider plans on create: computed attributes unknown.
  Value GoodCreatePlan() {
    return Thing({{"id", UnknownString()},
                  {"name", S("a")},
                  {"zone", UnknownString()},
                  {"vcenter", Vcenters({Vcenter("vc", UnknownString())})}});
  }
};

TEST_F(PlanTest, ValidCreatePlanPasses) {
  EXPECT_THAT(AssertPlanValid(block_, NullPrior(), Config(), GoodCreatePlan()), IsOk());
  EXPECT_THAT(AssertPlanResult(block_, NullPrior(), Config(), GoodCreatePlan(), {}), IsOk());
  // The proposed value itself is always a valid plan.
  Value proposed = ProposedNewObject(block_, NullPrior(), Config());
  EXPECT_THAT(AssertPlanValid(block_, NullPrior(), Config(), proposed), IsOk());
}

TEST_F(PlanTest, PlannedValueNotMatchingConfigFails) {
  Value planned = GoodCreatePlan().WithAttribute("name", S("b"));
  absl::Status s = AssertPlanValid(block_, NullPrior(), Config(), planned, subject_);
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_EQ(Message(s),
            "Provider produced invalid plan: Provider \"registry.terraform.io/hashicorp/nsxalb\" "
            "planned an invalid value for nsxalb_test.test.name: planned value "
            "cty.StringVal(\"b\") does not match config value cty.StringVal(\"a\")");
}

TEST_F(PlanTest, UpdateMayKeepPriorButNotInventValues) {
  Value prior = Thing({{"id", S("x")},
                       {"name", S("a")},
                       {"zone", S("z")},
                       {"vcenter", Vcenters({Vcenter("vc", S("u"))})}});
  Value config = Config().WithAttribute("name", S("b"));
  Value keep_prior = prior;  // planned = prior for name ("a"), config "b": allowed (case 2)
  EXPECT_THAT(AssertPlanValid(block_, prior, config, keep_prior), IsOk());
  Value invented = prior.WithAttribute("name", S("c"));
  absl::Status s = AssertPlanValid(block_, prior, config, invented);
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr("nsxalb_test.test.name: planned value cty.StringVal(\"c\") "
                                    "does not match config value cty.StringVal(\"b\") nor prior "
                                    "value cty.StringVal(\"a\")"));
}

TEST_F(PlanTest, KeepingPriorOfARemovedOptionalAttributeFails) {
  Value prior = GoodCreatePlan()
                    .WithAttribute("id", S("x"))
                    .WithAttribute("zone", S("z"))
                    .WithAttribute("size", Value::Int(3))
                    .WithAttribute("vcenter", Vcenters({Vcenter("vc", S("u"))}));
  Value planned = prior;  // size 3 kept although config removed it
  absl::Status s = AssertPlanValid(block_, prior, Config(), planned);
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr("nsxalb_test.test.size: planned value cty.NumberIntVal(3) "
                                    "for a non-computed attribute"));
}

TEST_F(PlanTest, ComputedAttributesMayBeAnything) {
  Value planned =
      GoodCreatePlan().WithAttribute("id", S("known-early")).WithAttribute("zone", S("z"));
  EXPECT_THAT(AssertPlanValid(block_, NullPrior(), Config(), planned), IsOk());
}

TEST_F(PlanTest, NonComputedAttributeNullInConfigMustStayNull) {
  Value planned = GoodCreatePlan().WithAttribute("size", Value::Unknown(Type::Number()));
  absl::Status s = AssertPlanValid(block_, NullPrior(), Config(), planned);
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr(".size: planned value cty.UnknownVal(cty.Number) for a "
                                    "non-computed attribute"));
}

TEST_F(PlanTest, SensitiveMismatchDoesNotLeakTheValue) {
  Value config = Config().WithAttribute("secret", S("x"));
  Value planned = GoodCreatePlan().WithAttribute("secret", S(kSecret));
  absl::Status s = AssertPlanValid(block_, NullPrior(), config, planned);
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s),
              HasSubstr(".secret: sensitive planned value does not match config value"));
  EXPECT_THAT(Message(s), Not(HasSubstr(kSecret)));
}

TEST_F(PlanTest, WriteOnlyMustBePlannedNull) {
  Value config = Config().WithAttribute("token", S("t"));
  Value planned = GoodCreatePlan().WithAttribute("token", S("t"));
  absl::Status s = AssertPlanValid(block_, NullPrior(), config, planned);
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr(".token: planned value for write-only attribute"));
}

TEST_F(PlanTest, NestedAttributeMismatchNamesTheElement) {
  Value planned =
      GoodCreatePlan().WithAttribute("vcenter", Vcenters({Vcenter("other", UnknownString())}));
  absl::Status s = AssertPlanValid(block_, NullPrior(), Config(), planned);
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr("nsxalb_test.test.vcenter[0].name: planned value "
                                    "cty.StringVal(\"other\") does not match config value "
                                    "cty.StringVal(\"vc\")"));
}

TEST_F(PlanTest, NestedBlockUnknownAsAWholeFails) {
  Value planned = GoodCreatePlan().WithAttribute(
      "vcenter", Value::Unknown(ImpliedType(block_).attributes().at("vcenter")));
  absl::Status s = AssertPlanValid(block_, NullPrior(), Config(), planned);
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr(".vcenter: attribute representing nested block must not be "
                                    "unknown itself"));
  Value element_unknown = GoodCreatePlan().WithAttribute(
      "vcenter", Vcenters({Value::Unknown(ImpliedType(NestedOf("vcenter")))}));
  s = AssertPlanValid(block_, NullPrior(), Config(), element_unknown);
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr(".vcenter[0]: element representing nested block must not be "
                                    "unknown itself"));
}

TEST_F(PlanTest, ListBlockCountMustMatchConfig) {
  Value planned = GoodCreatePlan().WithAttribute(
      "vcenter", Vcenters({Vcenter("vc", UnknownString()), Vcenter("extra", UnknownString())}));
  absl::Status s = AssertPlanValid(block_, NullPrior(), Config(), planned);
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr(".vcenter: block count in plan (2) disagrees with count in "
                                    "config (1)"));
}

TEST_F(PlanTest, CollectionBlocksMustNotBeNull) {
  Type t = ImpliedType(block_);
  for (const char* name : {"vcenter", "rule", "label"}) {
    Value planned = GoodCreatePlan().WithAttribute(name, Value::Null(t.attributes().at(name)));
    absl::Status s = AssertPlanValid(block_, NullPrior(), Config(), planned);
    ASSERT_THAT(s, Not(IsOk())) << name;
    EXPECT_THAT(Message(s), HasSubstr(std::string(".") + name + ": attribute representing a"))
        << name;
    EXPECT_THAT(Message(s), HasSubstr("must be empty to indicate no blocks, not null")) << name;
  }
}

TEST_F(PlanTest, MapBlockKeysMustMatchConfig) {
  const Block& label = NestedOf("label");
  Type lt = ImpliedType(label);
  Value config =
      Config().WithAttribute("label", Value::Map(lt, {{"env", Obj(label, {{"value", S("p")}})}}));
  Value planned = GoodCreatePlan().WithAttribute(
      "label", Value::Map(lt, {{"team", Obj(label, {{"value", S("p")}})}}));
  absl::Status s = AssertPlanValid(block_, NullPrior(), config, planned);
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr("block key \"team\" from plan is not present in config"));
  EXPECT_THAT(Message(s), HasSubstr("block key \"env\" from config is not present in plan"));
}

TEST_F(PlanTest, PlannedNullForExistingConfigFails) {
  absl::Status s = AssertPlanValid(block_, NullPrior(), Config(), NullPrior());
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr("planned for absence but config wants existence"));
}

TEST_F(PlanTest, NonConformingPlanFails) {
  std::map<std::string, Value> attrs = GoodCreatePlan().entries();
  attrs.erase("zone");
  absl::Status s = AssertPlanResult(block_, NullPrior(), Config(), Value::Object(attrs), {});
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr("Provider produced invalid plan"));
  EXPECT_THAT(Message(s), HasSubstr("attribute \"zone\" is required"));
  s = AssertPlanResult(block_, NullPrior(), Config(),
                       GoodCreatePlan().WithAttribute("size", S("big")), {});
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr("planned an invalid value for nsxalb_test.test.size: a number "
                                    "is required, got string"));
}

TEST_F(PlanTest, RequiresReplaceMustNameAnExistingPath) {
  Value prior = Thing({{"id", S("x")},
                       {"name", S("a")},
                       {"zone", S("z")},
                       {"vcenter", Vcenters({Vcenter("vc", S("u"))})}});
  Value config = Config().WithAttribute("name", S("b"));
  Value planned = prior.WithAttribute("name", S("b"));
  std::vector<AttributePath> good = {
      AttributePath().Attribute("name"),
      AttributePath().Attribute("vcenter").Index(0).Attribute("name")};
  EXPECT_THAT(AssertPlanResult(block_, prior, config, planned, good), IsOk());
  std::vector<AttributePath> bad = {AttributePath().Attribute("nope")};
  absl::Status s = AssertPlanResult(block_, prior, config, planned, bad);
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr("has indicated \"requires replacement\" on nsxalb_test.test "
                                    "for a non-existent attribute path"));
  std::vector<AttributePath> out_of_range = {AttributePath().Attribute("vcenter").Index(5)};
  EXPECT_THAT(AssertPlanResult(block_, prior, config, planned, out_of_range), Not(IsOk()));
  // Ignored on create.
  EXPECT_THAT(AssertPlanResult(block_, NullPrior(), Config(), GoodCreatePlan(), bad), IsOk());
}

TEST_F(PlanTest, ReplacePathsKeepsOnlyChangedValues) {
  Value prior = Thing({{"name", S("a")}, {"size", Value::Int(1)}});
  Value planned = prior.WithAttribute("name", S("b"));
  std::vector<AttributePath> kept = ReplacePaths(
      prior, planned, {AttributePath().Attribute("name"), AttributePath().Attribute("size")});
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].ToString(), ".name");
  EXPECT_TRUE(ReplacePaths(NullPrior(), planned, {AttributePath().Attribute("name")}).empty());
}

// ---- Apply ----

class ApplyTest : public PlanTest {
 protected:
  Value Applied() {
    return Thing({{"id", S("se-1")},
                  {"name", S("a")},
                  {"zone", S("z1")},
                  {"vcenter", Vcenters({Vcenter("vc", S("uuid-1"))})}});
  }
};

TEST_F(ApplyTest, ValidApplyPasses) {
  EXPECT_THAT(AssertApplyResult(block_, GoodCreatePlan(), Applied()), IsOk());
  EXPECT_THAT(AssertObjectCompatible(block_, GoodCreatePlan(), Applied()), IsOk());
}

TEST_F(ApplyTest, ChangedKnownValueIsInconsistent) {
  absl::Status s =
      AssertApplyResult(block_, GoodCreatePlan(), Applied().WithAttribute("name", S("b")));
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_EQ(Message(s),
            "Provider produced inconsistent result after apply: When applying changes to "
            "nsxalb_test.test, provider \"registry.terraform.io/hashicorp/nsxalb\" produced an "
            "unexpected new value: .name: was cty.StringVal(\"a\"), but now cty.StringVal(\"b\").");
}

TEST_F(ApplyTest, PlannedNullMustStayNull) {
  absl::Status s = AssertObjectCompatible(block_, GoodCreatePlan(),
                                          Applied().WithAttribute("size", Value::Int(2)));
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr(".size: was null, but now cty.NumberIntVal(2)"));
}

TEST_F(ApplyTest, ListElementsMustNotAppear) {
  Value planned = GoodCreatePlan().WithAttribute("tags", Value::List(Type::String(), {S("a")}));
  Value actual = Applied().WithAttribute("tags", Value::List(Type::String(), {S("a"), S("b")}));
  absl::Status s = AssertObjectCompatible(block_, planned, actual);
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr(".tags: new element 1 has appeared"));
}

TEST_F(ApplyTest, BlockCountMustNotChange) {
  Value actual = Applied().WithAttribute(
      "vcenter", Vcenters({Vcenter("vc", S("u")), Vcenter("vc2", S("u2"))}));
  absl::Status s = AssertObjectCompatible(block_, GoodCreatePlan(), actual);
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr(".vcenter: block count changed from 1 to 2"));
}

TEST_F(ApplyTest, SensitiveInconsistencyIsVague) {
  Value planned = GoodCreatePlan().WithAttribute("secret", S("a"));
  absl::Status s =
      AssertObjectCompatible(block_, planned, Applied().WithAttribute("secret", S(kSecret)));
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr(".secret: inconsistent values for sensitive attribute"));
  EXPECT_THAT(Message(s), Not(HasSubstr(kSecret)));
}

TEST_F(ApplyTest, UnknownLeftAfterApplyFails) {
  absl::Status s =
      AssertApplyResult(block_, GoodCreatePlan(), Applied().WithAttribute("id", UnknownString()));
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr("Provider returned invalid result object after apply"));
  EXPECT_THAT(Message(s), HasSubstr("still indicated an unknown value for nsxalb_test.test.id"));
}

TEST_F(ApplyTest, DestroyMustReturnNull) {
  EXPECT_THAT(AssertApplyResult(block_, NullPrior(), NullPrior()), IsOk());
  absl::Status s = AssertApplyResult(block_, NullPrior(), Applied());
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr("Destroying should always produce a null value"));
}

TEST_F(ApplyTest, CreateOrUpdateMustNotReturnNull) {
  absl::Status s = AssertApplyResult(block_, GoodCreatePlan(), NullPrior());
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr("Provider produced inconsistent result after apply"));
  EXPECT_THAT(Message(s), HasSubstr("Root object was present, but now absent"));
}

TEST_F(ApplyTest, MissingAttributeFails) {
  std::map<std::string, Value> attrs = Applied().entries();
  attrs.erase("name");
  absl::Status s = AssertApplyResult(block_, GoodCreatePlan(), Value::Object(attrs));
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr("Provider produced invalid object"));
  EXPECT_THAT(Message(s), HasSubstr("attribute \"name\" is required"));
}

// ---- Refresh, import, data sources, upgrade ----

TEST_F(ApplyTest, ReadResult) {
  EXPECT_THAT(AssertReadResult(block_, NullPrior()), IsOk());  // gone
  EXPECT_THAT(AssertReadResult(block_, Applied()), IsOk());
  absl::Status s = AssertReadResult(block_, Applied().WithAttribute("zone", Value::Int(1)));
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr("during refresh: .zone: a string is required, got number"));
}

TEST_F(ApplyTest, ImportResult) {
  EXPECT_THAT(AssertImportedResource(block_, "nsxalb_test", Applied()), IsOk());
  absl::Status s = AssertImportedResource(block_, "", Applied());
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr("import of nsxalb_test.test didn't set type"));
  EXPECT_THAT(AssertImportedResource(block_, "nsxalb_test", NullPrior()), Not(IsOk()));
  EXPECT_THAT(AssertImportReadResult(block_, Applied()), IsOk());
  s = AssertImportReadResult(block_, NullPrior());
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr("Cannot import non-existent remote object"));
}

TEST_F(ApplyTest, DataSourceResult) {
  EXPECT_THAT(AssertDataSourceResult(block_, Applied()), IsOk());
  absl::Status s = AssertDataSourceResult(block_, NullPrior());
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr("Provider produced null object"));
  s = AssertDataSourceResult(block_, Applied().WithAttribute("id", UnknownString()));
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr("that is not wholly known (unknown at .id)"));
}

TEST_F(ApplyTest, UpgradeResult) {
  EXPECT_THAT(AssertUpgradeResult(block_, Applied()), IsOk());
  EXPECT_THAT(AssertUpgradeResult(block_, NullPrior()), Not(IsOk()));
  std::map<std::string, Value> attrs = Applied().entries();
  attrs["removed_attr"] = S("x");
  absl::Status s = AssertUpgradeResult(block_, Value::Object(attrs));
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_THAT(Message(s), HasSubstr("unsupported attribute \"removed_attr\""));
}

// ---- Schema validation ----

std::vector<std::string> Problems(const tfplugin5::Schema::Block& b) {
  absl::StatusOr<Block> block = BlockFromProto(b);
  EXPECT_THAT(block, IsOk());
  return block.ok() ? InternalValidate(*block) : std::vector<std::string>{"unparsable"};
}

TEST(InternalValidateTest, ValidSchemaHasNoProblems) {
  EXPECT_THAT(Problems(ThingProto().block()), ::testing::IsEmpty());
  EXPECT_THAT(ValidateSchema(ThingProto(), "nsxalb_test"), IsOk());
}

TEST(InternalValidateTest, EachRuleIsEnforced) {
  struct Case {
    std::function<void(tfplugin5::Schema::Block*)> make;
    std::string expected;
  };
  using NB = tfplugin5::Schema::NestedBlock;
  std::vector<Case> cases = {
      {[](auto* b) { AddAttr(b, "Name", "\"string\"", "O"); }, "Name: name may contain only"},
      {[](auto* b) { AddAttr(b, "na-me", "\"string\"", "O"); }, "na-me: name may contain only"},
      {[](auto* b) { AddAttr(b, "x", "\"string\"", ""); },
       "x: must set Optional, Required or Computed"},
      {[](auto* b) { AddAttr(b, "x", "\"string\"", "OR"); },
       "x: cannot set both Optional and Required"},
      {[](auto* b) { AddAttr(b, "x", "\"string\"", "CR"); },
       "x: cannot set both Computed and Required"},
      {[](auto* b) { AddBlock(b, "s", NB::SINGLE, 1, 0); }, "s: MinItems and MaxItems must match"},
      {[](auto* b) { AddBlock(b, "s", NB::SINGLE, 2, 2); },
       "s: MinItems and MaxItems must be set to either 0 or 1"},
      {[](auto* b) { AddBlock(b, "g", NB::GROUP, 1, 1); },
       "g: MinItems and MaxItems cannot be used in NestingGroup"},
      {[](auto* b) { AddBlock(b, "m", NB::MAP, 0, 1); },
       "m: MinItems and MaxItems must both be 0 in NestingMap"},
      {[](auto* b) { AddBlock(b, "l", NB::LIST, 3, 2); },
       "l: MinItems must be less than or equal to MaxItems"},
      {[](auto* b) { AddAttr(AddBlock(b, "st", NB::SET), "d", "\"dynamic\"", "O"); },
       "st: NestingSet blocks may not contain attributes of cty.DynamicPseudoType"},
      {[](auto* b) { AddBlock(b, "bad", NB::INVALID); }, "bad: invalid nesting mode"},
      {[](auto* b) { AddAttr(AddBlock(b, "outer", NB::LIST), "In", "\"string\"", "O"); },
       "outer.In: name may contain only"},
      {[](auto* b) {
         AddAttr(b, "dup", "\"string\"", "O");
         AddBlock(b, "dup", NB::LIST);
       },
       "dup: name defined as both attribute and child block type"},
  };
  for (const Case& c : cases) {
    tfplugin5::Schema::Block b;
    AddAttr(&b, "ok", "\"string\"", "O");
    c.make(&b);
    std::vector<std::string> problems = Problems(b);
    EXPECT_THAT(problems, ::testing::Contains(HasSubstr(c.expected))) << c.expected;
    // The valid single-block variants really are valid.
  }
  tfplugin5::Schema::Block fine;
  AddBlock(&fine, "s0", NB::SINGLE, 0, 0);
  AddBlock(&fine, "s1", NB::SINGLE, 1, 1);
  AddBlock(&fine, "l", NB::LIST, 1, 0);
  EXPECT_THAT(Problems(fine), ::testing::IsEmpty());
}

TEST(InternalValidateTest, ValidateSchemaReportsVersionAndTypeJson) {
  tfplugin5::Schema s = ThingProto();
  s.set_version(-1);
  absl::Status st = ValidateSchema(s, "nsxalb_test");
  ASSERT_THAT(st, Not(IsOk()));
  EXPECT_THAT(std::string(st.message()),
              HasSubstr("nsxalb_test: schema version must be at least 0"));
  s = ThingProto();
  s.mutable_block()->mutable_attributes(0)->set_type("[\"list\"");
  st = ValidateSchema(s, "nsxalb_test");
  ASSERT_THAT(st, Not(IsOk()));
  EXPECT_THAT(std::string(st.message()), HasSubstr("attribute \"id\""));
}

}  // namespace
}  // namespace nsxalb::harness
