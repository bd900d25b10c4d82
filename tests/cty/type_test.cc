// Tests for cty types and the JSON type notation.
#include "plugin/cty/type.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::cty {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::Not;

using ::testing::HasSubstr;

TEST(TypeJsonTest, RoundTrips) {
  for (const char* json :
       {"\"string\"", "\"number\"", "\"bool\"", "\"dynamic\"", "[\"list\",\"number\"]",
        "[\"set\",\"string\"]", "[\"map\",[\"list\",\"bool\"]]",
        "[\"object\",{\"a\":\"string\",\"b\":[\"list\",\"number\"]}]", "[\"object\",{}]",
        "[\"tuple\",[\"string\",\"number\"]]", "[\"tuple\",[]]"}) {
    absl::StatusOr<Type> t = Type::FromJson(json);
    ASSERT_THAT(t, IsOk()) << json << ": " << t.status();
    EXPECT_EQ(t->ToJson(), json);
  }
}

TEST(TypeJsonTest, AcceptsWhitespaceAndSortsAttributes) {
  absl::StatusOr<Type> t = Type::FromJson(R"([ "object", { "b": "bool", "a": "string" } ])");
  ASSERT_THAT(t, IsOk());
  EXPECT_EQ(t->ToJson(), R"(["object",{"a":"string","b":"bool"}])");
  EXPECT_EQ(*t, Type::Object({{"a", Type::String()}, {"b", Type::Bool()}}));
}

TEST(TypeJsonTest, OptionalAttributesListIsAccepted) {
  absl::StatusOr<Type> t = Type::FromJson(R"(["object",{"a":"string"},["a"]])");
  ASSERT_THAT(t, IsOk());
  EXPECT_THAT(Type::FromJson(R"(["object",{"a":"string"},["b"]])"), Not(IsOk()));
}

TEST(TypeJsonTest, ErrorsNameTheOffendingPart) {
  struct Case {
    const char* json;
    const char* text;
  };
  for (const Case& c : {
           Case{"\"strin\"", "unknown primitive type \"strin\""},
           Case{"[\"list\"]", "takes exactly one element type"},
           Case{"[\"list\",\"string\",\"x\"]", "takes exactly one element type"},
           Case{"[\"object\",{\"a\":\"nope\"}]", "object attribute \"a\": unknown primitive"},
           Case{"[\"tuple\",[\"string\",7]]", "tuple element 1"},
           Case{"[\"frob\",\"string\"]", "unknown type kind \"frob\""},
           Case{"42", "got number"},
           Case{"[1]", "must start with its kind name"},
           Case{"[\"list\"", "malformed JSON"},
           Case{"", "malformed JSON"},
           Case{"[\"object\",{\"a\":\"string\",\"a\":\"bool\"}]", "duplicate attribute \"a\""},
       }) {
    absl::StatusOr<Type> t = Type::FromJson(c.json);
    ASSERT_THAT(t, Not(IsOk())) << c.json;
    EXPECT_THAT(t, StatusIs(absl::StatusCode::kInvalidArgument));
    EXPECT_THAT(std::string(t.status().message()), HasSubstr("invalid type JSON")) << c.json;
    EXPECT_THAT(std::string(t.status().message()), HasSubstr(c.text)) << c.json;
  }
}

TEST(TypeJsonTest, DeepNestingIsRejected) {
  std::string json;
  for (int i = 0; i < 200; ++i) json += "[\"list\",";
  json += "\"string\"";
  for (int i = 0; i < 200; ++i) json += "]";
  EXPECT_THAT(Type::FromJson(json), Not(IsOk()));
}

TEST(TypeTest, EqualityIsStructural) {
  EXPECT_EQ(Type::List(Type::String()), Type::List(Type::String()));
  EXPECT_NE(Type::List(Type::String()), Type::Set(Type::String()));
  EXPECT_NE(Type::Object({{"a", Type::String()}}), Type::Object({{"b", Type::String()}}));
  EXPECT_EQ(Type(), Type::Dynamic());
}

TEST(TypeTest, ConformsToTreatsDynamicAsWildcard) {
  Type want = Type::Object({{"a", Type::Dynamic()}, {"b", Type::Number()}});
  EXPECT_TRUE(Type::Object({{"a", Type::String()}, {"b", Type::Number()}}).ConformsTo(want));
  EXPECT_FALSE(Type::Object({{"a", Type::String()}, {"b", Type::String()}}).ConformsTo(want));
  EXPECT_FALSE(Type::Object({{"a", Type::String()}}).ConformsTo(want));
  EXPECT_TRUE(want.HasDynamic());
  EXPECT_FALSE(Type::List(Type::Number()).HasDynamic());
}

TEST(TypeTest, Names) {
  EXPECT_EQ(Type::List(Type::Number()).FriendlyName(), "list of number");
  EXPECT_EQ(Type::Object({}).FriendlyName(), "object");
  EXPECT_EQ(Type::Map(Type::Bool()).DebugString(), "cty.Map(cty.Bool)");
  EXPECT_EQ(Type::Object({{"a", Type::String()}}).DebugString(),
            "cty.Object(map[string]cty.Type{\"a\":cty.String})");
  EXPECT_EQ(Type::Dynamic().DebugString(), "cty.DynamicPseudoType");
}

}  // namespace
}  // namespace nsxalb::cty
