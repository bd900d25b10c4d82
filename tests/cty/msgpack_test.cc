// Tests for the msgpack codec: golden hex fixtures both ways, round trips, and one test per kind
// of bad input, each checking that the error names the attribute path.
#include "plugin/cty/msgpack.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "plugin/cty/path.h"
#include "plugin/cty/type.h"
#include "plugin/cty/value.h"
#include "tests/cty/hex.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::cty {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::Not;

using ::nsxalb::cty::testing::Hex;
using ::nsxalb::cty::testing::Unhex;
using ::testing::HasSubstr;
using ::testing::StartsWith;

Type ThingType() {
  return Type::Object({{"id", Type::String()}, {"name", Type::String()}, {"size", Type::Number()}});
}

std::string EncodeHex(const Value& v, const Type& t) {
  absl::StatusOr<std::string> bytes = EncodeMsgpack(v, t);
  EXPECT_THAT(bytes, IsOk());
  return bytes.ok() ? Hex(*bytes) : "";
}

Value DecodeHex(const std::string& hex, const Type& t) {
  absl::StatusOr<Value> v = DecodeMsgpack(Unhex(hex), t);
  EXPECT_THAT(v, IsOk());
  return v.ok() ? *v : Value();
}

// Asserts that decoding fails with an error at `path` whose message contains `text`.
void ExpectDecodeError(const std::string& bytes, const Type& t, const AttributePath& path,
                       const std::string& text) {
  absl::StatusOr<Value> v = DecodeMsgpack(bytes, t);
  ASSERT_THAT(v, Not(IsOk())) << v->DebugString();
  EXPECT_THAT(v, StatusIs(absl::StatusCode::kInvalidArgument));
  std::optional<AttributePath> got = ErrorPath(v.status());
  ASSERT_TRUE(got.has_value()) << v.status();
  EXPECT_EQ(got->ToString(), path.ToString()) << v.status();
  EXPECT_THAT(std::string(v.status().message()), StartsWith(path.ToString() + ": "));
  EXPECT_THAT(std::string(v.status().message()), HasSubstr(text));
}

constexpr char kThingHex[] =
    "83 a2 69 64 d4 00 00 a4 6e 61 6d 65 a5 61 6c 70 68 61 a4 73 69 7a 65 c0";

TEST(MsgpackGoldenTest, ReferenceObjectEncodes) {
  Value v = Value::Object({{"id", Value::Unknown(Type::String())},
                           {"name", Value::String("alpha")},
                           {"size", Value::Null(Type::Number())}});
  EXPECT_EQ(EncodeHex(v, ThingType()), kThingHex);
}

TEST(MsgpackGoldenTest, ReferenceObjectDecodes) {
  Value v = DecodeHex(kThingHex, ThingType());
  ASSERT_NE(v.GetAttribute("id"), nullptr);
  EXPECT_FALSE(v.GetAttribute("id")->IsKnown());
  EXPECT_EQ(v.GetAttribute("id")->type(), Type::String());
  EXPECT_EQ(v.GetAttribute("name")->AsString(), "alpha");
  EXPECT_TRUE(v.GetAttribute("size")->IsNull());
  EXPECT_EQ(v.type(), ThingType());
}

TEST(MsgpackGoldenTest, AttributeOrderOnTheWireDoesNotMatter) {
  // size, name, id instead of sorted order.
  Value v = DecodeHex("83 a4 73 69 7a 65 c0 a4 6e 61 6d 65 a5 61 6c 70 68 61 a2 69 64 d4 00 00",
                      ThingType());
  EXPECT_EQ(v.GetAttribute("name")->AsString(), "alpha");
}

TEST(MsgpackGoldenTest, DynamicString) {
  const char* hex = "92 c4 08 22 73 74 72 69 6e 67 22 a1 78";
  EXPECT_EQ(EncodeHex(Value::String("x"), Type::Dynamic()), hex);
  Value v = DecodeHex(hex, Type::Dynamic());
  EXPECT_TRUE(v.Equals(Value::String("x")));
  EXPECT_EQ(v.type(), Type::String());
}

TEST(MsgpackGoldenTest, DynamicTypeMayBeStr) {
  Value v = DecodeHex("92 a8 22 73 74 72 69 6e 67 22 a1 78", Type::Dynamic());
  EXPECT_TRUE(v.Equals(Value::String("x")));
}

TEST(MsgpackGoldenTest, DynamicUnknownAndNull) {
  EXPECT_EQ(EncodeHex(Value::Unknown(Type::Dynamic()), Type::Dynamic()), "d4 00 00");
  EXPECT_EQ(EncodeHex(Value::Null(Type::Dynamic()), Type::Dynamic()), "c0");
  Value u = DecodeHex("d4 00 00", Type::Dynamic());
  EXPECT_FALSE(u.IsKnown());
  EXPECT_EQ(u.type(), Type::Dynamic());
  EXPECT_TRUE(DecodeHex("c0", Type::Dynamic()).IsNull());
}

TEST(MsgpackGoldenTest, DynamicList) {
  Type t = Type::Object({{"d", Type::Dynamic()}});
  Value v = Value::Object({{"d", Value::List(Type::Number(), {Value::Int(1), Value::Int(2)})}});
  // {"d": [bin("[\"list\",\"number\"]"), [1, 2]]}
  std::string hex = EncodeHex(v, t);
  EXPECT_EQ(hex, "81 a1 64 92 c4 11 5b 22 6c 69 73 74 22 2c 22 6e 75 6d 62 65 72 22 5d 92 01 02");
  EXPECT_TRUE(DecodeHex(hex, t).Equals(v));
}

TEST(MsgpackGoldenTest, EmptyObjectAndNull) {
  EXPECT_EQ(EncodeHex(Value::Object({}), Type::Object({})), "80");
  EXPECT_TRUE(DecodeHex("80", Type::Object({})).Equals(Value::Object({})));
  EXPECT_EQ(EncodeHex(Value::Null(ThingType()), ThingType()), "c0");
  Value n = DecodeHex("c0", ThingType());
  EXPECT_TRUE(n.IsNull());
  EXPECT_EQ(n.type(), ThingType());
}

TEST(MsgpackGoldenTest, PrimitiveEncodings) {
  EXPECT_EQ(EncodeHex(Value::Bool(true), Type::Bool()), "c3");
  EXPECT_EQ(EncodeHex(Value::Bool(false), Type::Bool()), "c2");
  EXPECT_EQ(EncodeHex(Value::String(""), Type::String()), "a0");
  EXPECT_EQ(EncodeHex(Value::String(std::string(32, 'a')), Type::String()).substr(0, 8),
            "d9 20 61");
  EXPECT_EQ(EncodeHex(Value::Unknown(Type::Number()), Type::Number()), "d4 00 00");
}

struct NumberCase {
  std::string decimal;
  std::string hex;
};

class MsgpackNumberTest : public ::testing::TestWithParam<NumberCase> {};

TEST_P(MsgpackNumberTest, EncodesSmallestAndDecodesBack) {
  absl::StatusOr<Number> n = Number::FromDecimal(GetParam().decimal);
  ASSERT_THAT(n, IsOk());
  Value v = Value::NumberVal(*n);
  EXPECT_EQ(EncodeHex(v, Type::Number()), GetParam().hex) << GetParam().decimal;
  Value back = DecodeHex(GetParam().hex, Type::Number());
  EXPECT_TRUE(back.Equals(v)) << back.DebugString() << " vs " << v.DebugString();
}

INSTANTIATE_TEST_SUITE_P(
    Widths, MsgpackNumberTest,
    ::testing::Values(NumberCase{"0", "00"}, NumberCase{"127", "7f"}, NumberCase{"128", "cc 80"},
                      NumberCase{"255", "cc ff"}, NumberCase{"256", "cd 01 00"},
                      NumberCase{"65535", "cd ff ff"}, NumberCase{"65536", "ce 00 01 00 00"},
                      NumberCase{"4294967296", "cf 00 00 00 01 00 00 00 00"},
                      NumberCase{"9223372036854775807", "cf 7f ff ff ff ff ff ff ff"},
                      NumberCase{"-1", "ff"}, NumberCase{"-32", "e0"}, NumberCase{"-33", "d0 df"},
                      NumberCase{"-128", "d0 80"}, NumberCase{"-129", "d1 ff 7f"},
                      NumberCase{"-32769", "d2 ff ff 7f ff"},
                      NumberCase{"-2147483649", "d3 ff ff ff ff 7f ff ff ff"},
                      NumberCase{"-9223372036854775808", "d3 80 00 00 00 00 00 00 00"},
                      // Not int64 but exactly a double: float64.
                      NumberCase{"0.5", "cb 3f e0 00 00 00 00 00 00"},
                      NumberCase{"-0.25", "cb bf d0 00 00 00 00 00 00"},
                      NumberCase{"18446744073709551616", "cb 43 f0 00 00 00 00 00 00"},
                      // Neither: the canonical decimal string.
                      NumberCase{"0.1", "a3 30 2e 31"},
                      NumberCase{"18446744073709551615",
                                 "b4 31 38 34 34 36 37 34 34 30 37 33 37 30 39 35 35 31 36 31 35"},
                      NumberCase{"1e400", "a6 31 65 2b 34 30 30"},
                      NumberCase{"-123456789.123456789",
                                 "b4 2d 31 32 33 34 35 36 37 38 39 2e 31 32 33 34 35 36 37 38 39"}),
    [](const ::testing::TestParamInfo<NumberCase>& info) {
      std::string name = "n" + std::to_string(info.index);
      return name;
    });

TEST(MsgpackDecodeTest, NumberWireForms) {
  auto decimal = [](const std::string& hex) {
    return DecodeHex(hex, Type::Number()).AsNumber().ToString();
  };
  EXPECT_EQ(decimal("cf ff ff ff ff ff ff ff ff"), "18446744073709551615");  // uint64 max
  EXPECT_EQ(decimal("d3 00 00 00 00 00 00 00 05"), "5");                     // padded int64
  EXPECT_EQ(decimal("ca 3f c0 00 00"), "1.5");                               // float32
  EXPECT_EQ(decimal("cb 40 59 00 00 00 00 00 00"), "100");                   // float64 100.0
  EXPECT_EQ(decimal("a5 31 32 2e 35 30"), "12.5");                           // "12.50"
  EXPECT_EQ(decimal("a3 31 65 32"), "100");                                  // "1e2"
}

TEST(MsgpackDecodeTest, AnyExtensionIsUnknown) {
  // Plain unknown, refined "not null" unknown (type 12), other codes and lengths.
  for (const char* hex :
       {"d4 00 00", "c7 03 0c 81 01 c2", "d5 05 01 02", "c7 00 07", "c7 06 0c 82 01 c2 02 a1 78"}) {
    Value v = DecodeHex(hex, Type::String());
    EXPECT_FALSE(v.IsKnown()) << hex;
    EXPECT_EQ(v.type(), Type::String()) << hex;
  }
  Value obj = DecodeHex("c7 03 0c 81 01 c2", ThingType());
  EXPECT_FALSE(obj.IsKnown());
}

TEST(MsgpackRoundTripTest, Collections) {
  Type t = Type::Object({
      {"tags", Type::Set(Type::String())},
      {"labels", Type::Map(Type::Number())},
      {"vcenters", Type::List(Type::Object({{"name", Type::String()}, {"id", Type::Number()}}))},
      {"pair", Type::Tuple({Type::String(), Type::Bool()})},
      {"any", Type::Dynamic()},
  });
  Value v = Value::Object({
      {"tags", Value::Set(Type::String(), {Value::String("b"), Value::String("a")})},
      {"labels", Value::Map(Type::Number(), {{"x", Value::Int(1)}, {"y", Value::Float(2.5)}})},
      {"vcenters",
       Value::List(t.attributes().at("vcenters").element(),
                   {Value::Object({{"name", Value::String("vc1")}, {"id", Value::Int(7)}}),
                    Value::Object({{"name", Value::Unknown(Type::String())},
                                   {"id", Value::Null(Type::Number())}})})},
      {"pair", Value::Tuple({Value::String("p"), Value::Bool(false)})},
      {"any", Value::Map(Type::String(), {{"k", Value::String("v")}})},
  });
  absl::StatusOr<std::string> bytes = EncodeMsgpack(v, t);
  ASSERT_THAT(bytes, IsOk());
  absl::StatusOr<Value> back = DecodeMsgpack(*bytes, t);
  ASSERT_THAT(back, IsOk());
  EXPECT_TRUE(back->Equals(v)) << back->DebugString() << "\n" << v.DebugString();
  absl::StatusOr<std::string> again = EncodeMsgpack(*back, t);
  ASSERT_THAT(again, IsOk());
  EXPECT_EQ(Hex(*again), Hex(*bytes));
}

TEST(MsgpackRoundTripTest, EmptyCollectionsKeepTheirType) {
  Type t = Type::List(Type::String());
  EXPECT_EQ(EncodeHex(Value::List(Type::String(), {}), t), "90");
  Value v = DecodeHex("90", t);
  EXPECT_TRUE(v.Equals(Value::List(Type::String(), {})));
  EXPECT_EQ(EncodeHex(Value::Map(Type::String(), {}), Type::Map(Type::String())), "80");
}

// ---- Bad input: one test per case, each naming the path. ----

TEST(MsgpackBadInputTest, MalformedAtRoot) {
  ExpectDecodeError(Unhex("c1"), ThingType(), AttributePath(), "malformed msgpack");
}

TEST(MsgpackBadInputTest, MalformedInsideAnAttribute) {
  // {"name": <0xc1>, ...}
  ExpectDecodeError(Unhex("83 a4 6e 61 6d 65 c1"), ThingType(), AttributePath().Attribute("name"),
                    "malformed msgpack");
}

TEST(MsgpackBadInputTest, WrongTypeNumberGotString) {
  Type t = Type::Object({{"vcpus_per_se", Type::Number()}});
  // {"vcpus_per_se": "two"}
  std::string bytes = Unhex("81 ac") + "vcpus_per_se" + Unhex("a3") + "two";
  ExpectDecodeError(bytes, t, AttributePath().Attribute("vcpus_per_se"),
                    "a number is required, got string");
}

TEST(MsgpackBadInputTest, WrongTypeStringGotBool) {
  ExpectDecodeError(Unhex("83 a2 69 64 c0 a4 6e 61 6d 65 c3 a4 73 69 7a 65 c0"), ThingType(),
                    AttributePath().Attribute("name"), "a string is required, got bool");
}

TEST(MsgpackBadInputTest, WrongTypeObjectGotArray) {
  ExpectDecodeError(Unhex("90"), ThingType(), AttributePath(), "an object is required, got array");
}

TEST(MsgpackBadInputTest, ObjectMissingAttributes) {
  Type vc = Type::Object({{"name", Type::String()}, {"host", Type::String()}, {"z", Type::Bool()}});
  Type t = Type::Object({{"vcenters", Type::List(vc)}});
  // {"vcenters": [{"name": "a", "host": "h"}]}
  std::string bytes = Unhex("81 a8") + "vcenters" + Unhex("91 82 a4") + "name" + Unhex("a1") + "a" +
                      Unhex("a4") + "host" + Unhex("a1") + "h";
  ExpectDecodeError(bytes, t, AttributePath().Attribute("vcenters").Index(0),
                    "an object with 3 attributes is required (2 given); missing \"z\"");
}

TEST(MsgpackBadInputTest, EmptyMapForObjectWithAttributes) {
  ExpectDecodeError(Unhex("80"), ThingType(), AttributePath(),
                    "an object with 3 attributes is required (0 given)");
}

TEST(MsgpackBadInputTest, ExtraAttribute) {
  Type t = Type::Object({{"x", Type::Object({{"a", Type::String()}})}});
  // {"x": {"y": "v"}}
  std::string bytes = Unhex("81 a1 78 81 a1 79 a1 76");
  ExpectDecodeError(bytes, t, AttributePath().Attribute("x"), "unsupported attribute \"y\"");
}

TEST(MsgpackBadInputTest, DuplicateAttribute) {
  Type t = Type::Object({{"a", Type::String()}, {"b", Type::String()}});
  ExpectDecodeError(Unhex("82 a1 61 a0 a1 61 a0"), t, AttributePath().Attribute("a"),
                    "more than once");
}

TEST(MsgpackBadInputTest, TruncatedInsideAString) {
  std::string full = Unhex(kThingHex);
  // Cut inside "alpha".
  ExpectDecodeError(full.substr(0, 16), ThingType(), AttributePath().Attribute("name"),
                    "truncated msgpack");
}

TEST(MsgpackBadInputTest, TruncatedBeforeTheNextListElement) {
  Type t = Type::Object({{"l", Type::List(Type::String())}});
  // {"l": ["a", <missing second element>]}
  ExpectDecodeError(Unhex("81 a1 6c 92 a1 61"), t, AttributePath().Attribute("l").Index(1),
                    "truncated msgpack");
}

TEST(MsgpackBadInputTest, EveryTruncationOfAValidMessageFails) {
  std::string full = Unhex(kThingHex);
  for (size_t len = 0; len < full.size(); ++len) {
    absl::StatusOr<Value> v = DecodeMsgpack(full.substr(0, len), ThingType());
    ASSERT_THAT(v, Not(IsOk())) << len;
    EXPECT_TRUE(ErrorPath(v.status()).has_value()) << v.status();
  }
}

TEST(MsgpackBadInputTest, HugeLengthClaimsDoNotAllocate) {
  ExpectDecodeError(Unhex("dd ff ff ff ff"), Type::List(Type::String()), AttributePath().Index(0),
                    "truncated msgpack");
  ExpectDecodeError(Unhex("db ff ff ff ff 61"), Type::String(), AttributePath(),
                    "truncated msgpack");
  ExpectDecodeError(Unhex("df ff ff ff ff"), Type::Map(Type::String()), AttributePath(),
                    "truncated msgpack");
}

TEST(MsgpackBadInputTest, InvalidTypeJsonInDynamic) {
  Type t = Type::Object({{"d", Type::Dynamic()}});
  // {"d": [bin("\"strin\""), "x"]}
  std::string bytes = Unhex("81 a1 64 92 c4 07") + "\"strin\"" + Unhex("a1 78");
  ExpectDecodeError(bytes, t, AttributePath().Attribute("d"), "unknown primitive type \"strin\"");
  // Not JSON at all.
  bytes = Unhex("81 a1 64 92 c4 03") + "[[[" + Unhex("a1 78");
  ExpectDecodeError(bytes, t, AttributePath().Attribute("d"), "invalid type JSON");
}

TEST(MsgpackBadInputTest, DynamicNotAPair) {
  ExpectDecodeError(Unhex("a1 78"), Type::Dynamic(), AttributePath(),
                    "a dynamic value must be a [type, value] array");
  ExpectDecodeError(Unhex("93 c0 c0 c0"), Type::Dynamic(), AttributePath(), "(3 given)");
  ExpectDecodeError(Unhex("92 01 a1 78"), Type::Dynamic(), AttributePath(),
                    "type must be JSON type text");
}

TEST(MsgpackBadInputTest, DynamicValueOfTheWrongAnnouncedType) {
  std::string bytes = Unhex("92 c4 08") + "\"number\"" + Unhex("a1 78");
  ExpectDecodeError(bytes, Type::Dynamic(), AttributePath(), "a number is required, got string");
}

TEST(MsgpackBadInputTest, TrailingBytes) {
  ExpectDecodeError(Unhex("c0 c0"), ThingType(), AttributePath(),
                    "1 unexpected bytes after the value");
}

TEST(MsgpackBadInputTest, EmptyInput) {
  ExpectDecodeError("", ThingType(), AttributePath(), "empty msgpack input");
}

TEST(MsgpackBadInputTest, NestingTooDeep) {
  Type t = Type::String();
  for (int i = 0; i < 100; ++i) t = Type::List(t);
  std::string bytes(100, static_cast<char>(0x91));
  bytes += Unhex("a1 78");
  absl::StatusOr<Value> v = DecodeMsgpack(bytes, t);
  ASSERT_THAT(v, Not(IsOk()));
  EXPECT_THAT(std::string(v.status().message()), HasSubstr("nested deeper than 64 levels"));
  EXPECT_TRUE(ErrorPath(v.status()).has_value());
  // Deep dynamic nesting is bounded the same way.
  std::string dyn;
  for (int i = 0; i < 1000; ++i) dyn += Unhex("92 c4 09") + "\"dynamic\"";
  v = DecodeMsgpack(dyn + Unhex("c0"), Type::Dynamic());
  ASSERT_THAT(v, Not(IsOk()));
  EXPECT_THAT(std::string(v.status().message()), HasSubstr("nested deeper"));
}

TEST(MsgpackBadInputTest, MapKeyNotAString) {
  ExpectDecodeError(Unhex("81 01 a1 78"), Type::Map(Type::String()), AttributePath(),
                    "map keys must be strings, got number");
}

TEST(MsgpackBadInputTest, TupleOfTheWrongLength) {
  ExpectDecodeError(Unhex("91 a1 78"), Type::Tuple({Type::String(), Type::String()}),
                    AttributePath(), "a tuple of 2 elements is required (1 given)");
}

TEST(MsgpackBadInputTest, NaN) {
  ExpectDecodeError(Unhex("cb 7f f8 00 00 00 00 00 00"), Type::Number(), AttributePath(),
                    "NaN is not a valid number");
}

TEST(MsgpackBadInputTest, ErrorsNeverEchoStringContents) {
  Type t = Type::Object({{"password", Type::Number()}});
  std::string bytes = Unhex("81 a8") + "password" + Unhex("a6") + "s3cr3t";
  absl::StatusOr<Value> v = DecodeMsgpack(bytes, t);
  ASSERT_THAT(v, Not(IsOk()));
  EXPECT_THAT(std::string(v.status().message()), ::testing::Not(HasSubstr("s3cr3t")));
}

// ---- Encoding errors name the path too. ----

TEST(MsgpackEncodeTest, NonConformingValueNamesThePath) {
  Value v = Value::Object({{"id", Value::Null(Type::String())},
                           {"name", Value::String("a")},
                           {"size", Value::String("big")}});
  absl::StatusOr<std::string> bytes = EncodeMsgpack(v, ThingType());
  ASSERT_THAT(bytes, Not(IsOk()));
  EXPECT_EQ(ErrorPath(bytes.status())->ToString(), ".size");
  EXPECT_THAT(std::string(bytes.status().message()), HasSubstr("a number is required, got string"));
}

TEST(MsgpackEncodeTest, MissingAndExtraAttributes) {
  absl::StatusOr<std::string> bytes =
      EncodeMsgpack(Value::Object({{"name", Value::String("a")}}), ThingType());
  ASSERT_THAT(bytes, Not(IsOk()));
  EXPECT_THAT(std::string(bytes.status().message()), HasSubstr("attribute \"id\" is required"));
  bytes = EncodeMsgpack(Value::ObjectOf(ThingType(), {{"extra", Value::Bool(true)}}), ThingType());
  ASSERT_THAT(bytes, Not(IsOk()));
  EXPECT_THAT(std::string(bytes.status().message()), HasSubstr("unsupported attribute \"extra\""));
}

TEST(MsgpackEncodeTest, ObjectOfFillsNulls) {
  EXPECT_EQ(EncodeHex(Value::ObjectOf(ThingType(), {{"name", Value::String("alpha")},
                                                    {"id", Value::Unknown(Type::String())}}),
                      ThingType()),
            kThingHex);
}

}  // namespace
}  // namespace nsxalb::cty
