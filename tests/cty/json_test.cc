// Tests for the ctyjson codec used for RawState: exact numbers, missing/extra attributes, dynamic
// values, and errors that name the path.
#include "plugin/cty/json.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "plugin/cty/path.h"
#include "plugin/cty/type.h"
#include "plugin/cty/value.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::cty {
namespace {

using ::nsxalb::testing::IsOk;
using ::testing::Not;

using ::testing::HasSubstr;

Type StateType() {
  return Type::Object({
      {"id", Type::String()},
      {"name", Type::String()},
      {"vcpus_per_se", Type::Number()},
      {"enabled", Type::Bool()},
      {"labels", Type::Map(Type::String())},
      {"vcenters", Type::List(Type::Object({{"name", Type::String()}, {"id", Type::Number()}}))},
  });
}

void ExpectJsonError(const std::string& json, const Type& t, const std::string& path,
                     const std::string& text) {
  absl::StatusOr<Value> v = DecodeJson(json, t);
  ASSERT_THAT(v, Not(IsOk())) << v->DebugString();
  std::optional<AttributePath> got = ErrorPath(v.status());
  ASSERT_TRUE(got.has_value()) << v.status();
  EXPECT_EQ(got->ToString(), path) << v.status();
  EXPECT_THAT(std::string(v.status().message()), HasSubstr(text));
}

TEST(JsonDecodeTest, PrettyAndCompactAgree) {
  const char* pretty = R"({
    "id": "se-group-1",
    "name": "alpha",
    "vcpus_per_se": 2,
    "enabled": true,
    "labels": {
      "env": "prod"
    },
    "vcenters": [
      {
        "name": "vc1",
        "id": 7
      }
    ]
  }
)";
  const char* compact = R"({"id":"se-group-1","name":"alpha","vcpus_per_se":2,"enabled":true,)"
                        R"("labels":{"env":"prod"},"vcenters":[{"name":"vc1","id":7}]})";
  absl::StatusOr<Value> a = DecodeJson(pretty, StateType());
  absl::StatusOr<Value> b = DecodeJson(compact, StateType());
  ASSERT_THAT(a, IsOk());
  ASSERT_THAT(b, IsOk());
  EXPECT_TRUE(a->Equals(*b));
  EXPECT_EQ(a->GetAttribute("name")->AsString(), "alpha");
  EXPECT_EQ(*a->GetAttribute("vcpus_per_se")->AsNumber().AsInt64(), 2);
  EXPECT_EQ(a->GetAttribute("vcenters")->elements()[0].GetAttribute("id")->AsNumber().ToString(),
            "7");
}

TEST(JsonDecodeTest, MissingAttributesAreNull) {
  absl::StatusOr<Value> v = DecodeJson(R"({"id":"x"})", StateType());
  ASSERT_THAT(v, IsOk());
  EXPECT_TRUE(v->GetAttribute("name")->IsNull());
  EXPECT_TRUE(v->GetAttribute("vcenters")->IsNull());
  EXPECT_THAT(CheckConformance(*v, StateType()), IsOk());
}

TEST(JsonDecodeTest, ExtraAttributeIsNamed) {
  ExpectJsonError(R"({"id":"x","vcenters":[{"name":"a","id":1,"host":"h"}]})", StateType(),
                  ".vcenters[0]", "unsupported attribute \"host\"");
}

TEST(JsonDecodeTest, NumbersStayExact) {
  for (const char* text : {"12345678901234567890123456789", "0.1000000000000000000001", "-1e-30",
                           "18446744073709551616", "1.5e+300"}) {
    absl::StatusOr<Value> v = DecodeJson(text, Type::Number());
    ASSERT_THAT(v, IsOk()) << text << ": " << v.status();
    EXPECT_EQ(v->AsNumber(), *Number::FromDecimal(text)) << text;
    absl::StatusOr<std::string> out = EncodeJson(*v, Type::Number());
    ASSERT_THAT(out, IsOk());
    EXPECT_EQ(*Number::FromDecimal(*out), *Number::FromDecimal(text));
  }
  EXPECT_EQ(DecodeJson("1.0", Type::Number())->AsNumber().ToString(), "1");
}

TEST(JsonDecodeTest, DynamicValues) {
  Type t = Type::Object({{"d", Type::Dynamic()}});
  absl::StatusOr<Value> v = DecodeJson(R"({"d":{"value":["a","b"],"type":["list","string"]}})", t);
  ASSERT_THAT(v, IsOk());
  EXPECT_TRUE(v->GetAttribute("d")->Equals(
      Value::List(Type::String(), {Value::String("a"), Value::String("b")})));
  absl::StatusOr<std::string> out = EncodeJson(*v, t);
  ASSERT_THAT(out, IsOk());
  EXPECT_EQ(*out, R"({"d":{"value":["a","b"],"type":["list","string"]}})");
  ExpectJsonError(R"({"d":{"value":1,"type":"nope"}})", t, ".d", "unknown primitive type");
  ExpectJsonError(R"({"d":"x"})", t, ".d", "a dynamic value must be an object");
}

TEST(JsonDecodeTest, LenientPrimitivesLikeCtyJson) {
  EXPECT_EQ(DecodeJson(R"("12")", Type::Number())->AsNumber().ToString(), "12");
  EXPECT_EQ(DecodeJson("12", Type::String())->AsString(), "12");
  EXPECT_TRUE(DecodeJson(R"("true")", Type::Bool())->AsBool());
}

TEST(JsonDecodeTest, WrongTypeNamesThePath) {
  ExpectJsonError(R"({"vcpus_per_se":"two"})", StateType(), ".vcpus_per_se",
                  "a number is required, got string");
  ExpectJsonError(R"({"labels":{"env":[]}})", StateType(), ".labels[\"env\"]",
                  "a string is required, got array");
  ExpectJsonError(R"({"vcenters":{}})", StateType(), ".vcenters",
                  "a list of object is required, got object");
}

TEST(JsonDecodeTest, MalformedJson) {
  ExpectJsonError(R"({"id": )", StateType(), "(root)", "malformed JSON");
  ExpectJsonError(R"({"id":"x"} trailing)", StateType(), "(root)", "malformed JSON");
  ExpectJsonError("", StateType(), "(root)", "malformed JSON");
}

TEST(JsonDecodeTest, DuplicateAttribute) {
  ExpectJsonError(R"({"id":"x","id":"y"})", StateType(), ".id", "more than once");
}

TEST(JsonDecodeTest, NestingIsBounded) {
  std::string deep(10000, '[');
  absl::StatusOr<Value> v = DecodeJson(deep, Type::List(Type::String()));
  ASSERT_THAT(v, Not(IsOk()));
  EXPECT_THAT(std::string(v.status().message()), HasSubstr("nested deeper"));
}

TEST(JsonEncodeTest, UnknownCannotBeEncoded) {
  Value v = Value::ObjectOf(StateType(), {{"id", Value::Unknown(Type::String())}});
  absl::StatusOr<std::string> out = EncodeJson(v, StateType());
  ASSERT_THAT(out, Not(IsOk()));
  EXPECT_EQ(ErrorPath(out.status())->ToString(), ".id");
  EXPECT_THAT(std::string(out.status().message()), HasSubstr("value is not known"));
}

TEST(JsonEncodeTest, RoundTrip) {
  Value v = Value::ObjectOf(
      StateType(),
      {{"id", Value::String("q\"uote\n")},
       {"vcpus_per_se", Value::Float(0.1)},
       {"labels", Value::Map(Type::String(), {{"k", Value::String("v")}})},
       {"vcenters", Value::List(StateType().attributes().at("vcenters").element(), {})}});
  absl::StatusOr<std::string> out = EncodeJson(v, StateType());
  ASSERT_THAT(out, IsOk());
  EXPECT_THAT(*out, HasSubstr(R"("vcpus_per_se":0.1)"));
  absl::StatusOr<Value> back = DecodeJson(*out, StateType());
  ASSERT_THAT(back, IsOk());
  EXPECT_TRUE(back->Equals(v)) << back->DebugString();
}

TEST(PrimitiveJsonTest, PrimitivesAsJsonValues) {
  EXPECT_EQ(PrimitiveJson(Value::String("a")), nlohmann::json("a"));
  EXPECT_EQ(PrimitiveJson(Value::Bool(false)), nlohmann::json(false));
  const nlohmann::json whole = PrimitiveJson(Value::NumberVal(*Number::FromDecimal("6.0")));
  EXPECT_TRUE(whole.is_number_integer());
  EXPECT_EQ(whole.get<int64_t>(), 6);
  const nlohmann::json fraction = PrimitiveJson(Value::Float(2.5));
  EXPECT_TRUE(fraction.is_number_float());
  EXPECT_EQ(fraction.get<double>(), 2.5);
  // Beyond int64: the nearest double.
  const nlohmann::json big =
      PrimitiveJson(Value::NumberVal(*Number::FromDecimal("18446744073709551616")));
  EXPECT_TRUE(big.is_number_float());
  EXPECT_EQ(big.get<double>(), 18446744073709551616.0);
  EXPECT_TRUE(PrimitiveJson(Value::Null(Type::Number())).is_null());
  EXPECT_TRUE(PrimitiveJson(Value::Unknown(Type::String())).is_null());
  EXPECT_TRUE(PrimitiveJson(Value::List(Type::String(), {Value::String("a")})).is_null());
}

}  // namespace
}  // namespace nsxalb::cty
