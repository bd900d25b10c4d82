// Loading schemas from JSON: the good shape, every error naming where it is, and printing.
#include "plugin/framework/schema_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "nlohmann/json.hpp"
#include "tests/support/status_matchers.h"

namespace nsxalb::framework {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;

constexpr char kGood[] = R"({
  "version": 2,
  "block": {
    "description": "A thing.",
    "attributes": {
      "id": {"type": "string", "computed": true, "description": "The ID."},
      "name": {"type": "string", "required": true, "nsxalb": {"requires_replace": true}},
      "tags": {"type": ["map", "string"], "optional": true, "description_kind": "markdown"},
      "token": {"type": "string", "optional": true, "sensitive": true,
                "nsxalb": {"env": ["TOKEN_A", "TOKEN_B"]}},
      "old": {"type": "bool", "optional": true, "deprecated": true},
      "spec": {"type": ["object", {"cpu": "number", "zone": "string"}], "optional": true}
    },
    "block_types": {
      "rule": {"nesting_mode": "list", "min_items": 1, "max_items": 3,
               "block": {"attributes": {"port": {"type": "number", "required": true}}}},
      "one": {"nesting_mode": "single", "block": {}, "nsxalb": {"requires_replace": true}}
    }
  }
})";

TEST(SchemaJsonTest, ParsesEveryField) {
  absl::StatusOr<Schema> s = ParseSchemaJson(kGood);
  ASSERT_THAT(s, IsOk());
  EXPECT_EQ(s->version, 2);
  EXPECT_EQ(s->block.description, "A thing.");
  const Attribute& name = s->block.attributes.at("name");
  EXPECT_TRUE(name.required);
  EXPECT_TRUE(name.requires_replace);
  EXPECT_EQ(s->block.attributes.at("tags").type, cty::Type::Map(cty::Type::String()));
  EXPECT_EQ(s->block.attributes.at("tags").description_kind, DescriptionKind::kMarkdown);
  EXPECT_TRUE(s->block.attributes.at("token").sensitive);
  EXPECT_EQ(s->block.attributes.at("token").env, (std::vector<std::string>{"TOKEN_A", "TOKEN_B"}));
  EXPECT_TRUE(s->block.attributes.at("old").deprecated);
  const NestedBlock& rule = s->block.block_types.at("rule");
  EXPECT_EQ(rule.nesting, NestedBlock::Nesting::kList);
  EXPECT_EQ(rule.min_items, 1);
  EXPECT_EQ(rule.max_items, 3);
  EXPECT_TRUE(s->block.block_types.at("one").requires_replace);
}

TEST(SchemaJsonTest, ImpliedTypeCoversBlocks) {
  absl::StatusOr<Schema> s = ParseSchemaJson(kGood);
  ASSERT_THAT(s, IsOk());
  const cty::Type t = ImpliedType(s->block);
  ASSERT_EQ(t.kind(), cty::Type::Kind::kObject);
  EXPECT_EQ(t.attributes().at("rule"),
            cty::Type::List(cty::Type::Object({{"port", cty::Type::Number()}})));
  EXPECT_EQ(t.attributes().at("one"), cty::Type::Object({}));
  EXPECT_EQ(t.attributes().size(), 8u);
}

// ImpliedType hands out the type it built last for a block (schema.cc); a block changed since, or
// another block at the same address, must get its own type.
TEST(SchemaJsonTest, ImpliedTypeFollowsChangesToTheBlock) {
  absl::StatusOr<Schema> s = ParseSchemaJson(kGood);
  ASSERT_THAT(s, IsOk());
  Block& block = s->block;
  const cty::Type first = ImpliedType(block);
  EXPECT_EQ(ImpliedType(block), first);
  block.attributes.at("name").type = cty::Type::Number();
  EXPECT_EQ(ImpliedType(block).attributes().at("name"), cty::Type::Number());
  block.attributes.erase("tags");
  EXPECT_EQ(ImpliedType(block).attributes().count("tags"), 0u);
  block.block_types.at("rule").nesting = NestedBlock::Nesting::kSet;
  EXPECT_EQ(ImpliedType(block).attributes().at("rule").kind(), cty::Type::Kind::kSet);
  block.block_types.at("rule").block.attributes.at("port").type = cty::Type::String();
  EXPECT_EQ(ImpliedType(block).attributes().at("rule"),
            cty::Type::Set(cty::Type::Object({{"port", cty::Type::String()}})));
  Attribute extra;
  extra.name = "extra";
  extra.type = cty::Type::Bool();
  extra.optional = true;
  block.block_types.at("one").block.attributes.emplace("extra", extra);
  EXPECT_EQ(ImpliedType(block).attributes().at("one"),
            cty::Type::Object({{"extra", cty::Type::Bool()}}));
}

TEST(SchemaJsonTest, PrintsTerraformShapeWithoutAnnotations) {
  absl::StatusOr<Schema> s = ParseSchemaJson(kGood);
  ASSERT_THAT(s, IsOk());
  nlohmann::json printed = nlohmann::json::parse(SchemaToJson(*s));
  EXPECT_EQ(printed["version"], 2);
  EXPECT_EQ(printed["block"]["attributes"]["name"]["required"], true);
  EXPECT_FALSE(printed["block"]["attributes"]["name"].contains("nsxalb"));
  EXPECT_FALSE(printed["block"]["attributes"]["name"].contains("optional"));
  EXPECT_EQ(printed["block"]["attributes"]["tags"]["type"],
            nlohmann::json::parse(R"(["map","string"])"));
  EXPECT_EQ(printed["block"]["block_types"]["rule"]["nesting_mode"], "list");
  EXPECT_EQ(printed["block"]["block_types"]["rule"]["max_items"], 3);
  // Printing then parsing gives the same schema, annotations aside.
  absl::StatusOr<Schema> again = ParseSchemaJson(SchemaToJson(*s));
  ASSERT_THAT(again, IsOk());
  EXPECT_EQ(SchemaToJson(*again), SchemaToJson(*s));
}

struct BadCase {
  const char* json;
  const char* expected;  // text the error must contain
};

class SchemaJsonErrorTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(SchemaJsonErrorTest, NamesTheProblem) {
  absl::StatusOr<Schema> s = ParseSchemaJson(GetParam().json);
  ASSERT_THAT(s, StatusIs(absl::StatusCode::kInvalidArgument)) << GetParam().json;
  EXPECT_NE(std::string(s.status().message()).find(GetParam().expected), std::string::npos)
      << s.status();
}

INSTANTIATE_TEST_SUITE_P(
    Errors, SchemaJsonErrorTest,
    ::testing::Values(
        BadCase{"{", "not valid JSON"}, BadCase{"[]", "JSON object"},
        BadCase{R"({"version":0})", "missing \"block\""},
        BadCase{R"({"version":"0","block":{}})", "schema.version"},
        BadCase{R"({"block":{"colour":1}})", "unknown key \"colour\""},
        BadCase{R"({"block":{"attributes":{"a":{"optional":true}}}})", "block.attributes.a"},
        BadCase{R"({"block":{"attributes":{"a":{"type":"strin","optional":true}}}})",
                "block.attributes.a.type"},
        BadCase{R"({"block":{"attributes":{"a":{"type":"string","optional":"yes"}}}})",
                "block.attributes.a.optional"},
        BadCase{R"({"block":{"attributes":{"a":{"type":"string"}}}})", ".a"},
        BadCase{
            R"({"block":{"attributes":{"a":{"type":"string","required":true,"optional":true}}}})",
            "mutually exclusive"},
        BadCase{
            R"({"block":{"attributes":{"a":{"type":"string","required":true,"computed":true}}}})",
            "mutually exclusive"},
        BadCase{R"({"block":{"attributes":{"Bad-Name":{"type":"string","optional":true}}}})",
                "Bad-Name"},
        BadCase{
            R"({"block":{"attributes":{"a":{"type":"string","optional":true,"nsxalb":{"x":1}}}}})",
            "block.attributes.a.nsxalb"},
        BadCase{R"({"block":{"block_types":{"b":{"nesting_mode":"tree","block":{}}}}})",
                "block.block_types.b.nesting_mode"},
        BadCase{
            R"({"block":{"block_types":{"b":{"nesting_mode":"single","max_items":2,"block":{}}}}})",
            ".b"},
        BadCase{
            R"({"block":{"block_types":{"b":{"nesting_mode":"map","min_items":1,"block":{}}}}})",
            ".b"},
        BadCase{
            R"({"block":{"block_types":{"b":{"nesting_mode":"list","min_items":3,"max_items":2,"block":{}}}}})",
            "min_items"},
        BadCase{
            R"({"block":{"block_types":{"b":{"nesting_mode":"set","block":{"attributes":{"d":{"type":"dynamic","optional":true}}}}}}})",
            "dynamic"},
        BadCase{R"({"block":{"block_types":{"b":{"nesting_mode":"list"}}}})",
                "missing \"block\""}));

}  // namespace
}  // namespace nsxalb::framework
