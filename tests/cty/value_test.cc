// Tests for cty numbers, values, paths and the value helpers.
#include "plugin/cty/value.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "plugin/cty/path.h"
#include "plugin/cty/type.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::cty {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::Not;

using ::testing::HasSubstr;

std::string Canon(const std::string& text) {
  absl::StatusOr<Number> n = Number::FromDecimal(text);
  EXPECT_THAT(n, IsOk()) << text;
  return n.ok() ? n->ToString() : "";
}

TEST(NumberTest, CanonicalText) {
  EXPECT_EQ(Canon("1.0"), "1");
  EXPECT_EQ(Canon("1e2"), "100");
  EXPECT_EQ(Canon("+007.500"), "7.5");
  EXPECT_EQ(Canon("-0"), "0");
  EXPECT_EQ(Canon("-0.0e10"), "0");
  EXPECT_EQ(Canon(".5"), "0.5");
  EXPECT_EQ(Canon("5."), "5");
  EXPECT_EQ(Canon("0.000001"), "0.000001");
  EXPECT_EQ(Canon("1e-7"), "1e-7");
  EXPECT_EQ(Canon("0.00000015"), "1.5e-7");
  EXPECT_EQ(Canon("123456789012345678901"), "123456789012345678901");
  EXPECT_EQ(Canon("1e21"), "1e+21");
  EXPECT_EQ(Canon("12.5E+3"), "12500");
  EXPECT_EQ(Canon("-1234.5e-2"), "-12.345");
  EXPECT_EQ(Canon("inf"), "Inf");
  EXPECT_EQ(Canon("-Infinity"), "-Inf");
}

TEST(NumberTest, RejectsNonNumbers) {
  for (const char* bad : {"", ".", "-", "abc", "1e", "1e+", "--1", "1.2.3", "0x10", "1 ", " 1",
                          "nan", "1e99999999999", "1_000"}) {
    EXPECT_THAT(Number::FromDecimal(bad), Not(IsOk())) << bad;
  }
}

TEST(NumberTest, EqualityIsByValue) {
  EXPECT_EQ(*Number::FromDecimal("1.0"), Number::Int(1));
  EXPECT_EQ(*Number::FromDecimal("1e2"), *Number::FromDecimal("100"));
  EXPECT_EQ(Number::Float(0.1), *Number::FromDecimal("0.1"));
  EXPECT_EQ(Number::Float(100.0), Number::Int(100));
  EXPECT_NE(Number::Int(1), *Number::FromDecimal("1.0000000000000000000001"));
  EXPECT_EQ(Number(), Number::Int(0));
}

TEST(NumberTest, Int64) {
  EXPECT_EQ(*Number::Int(INT64_MIN).AsInt64(), INT64_MIN);
  EXPECT_EQ(*Number::FromDecimal("9223372036854775807")->AsInt64(), INT64_MAX);
  EXPECT_FALSE(Number::FromDecimal("9223372036854775808")->IsInt64());
  EXPECT_THAT(Number::FromDecimal("1.5")->AsInt64(), Not(IsOk()));
  EXPECT_TRUE(Number::FromDecimal("1.5e3")->IsInt64());
}

// ExactDouble decides with integer arithmetic when the digits fit 128 bits, else by printing the
// double's exact expansion; both must agree with the definition: the decimal equals the double.
TEST(NumberTest, ExactDoubleAgreesWithTheExactExpansion) {
  const auto exact_expansion = [](double d) {
    char buf[1024];
    std::snprintf(buf, sizeof(buf), "%.767e", d);
    return *Number::FromDecimal(buf);
  };
  for (const char* text : {"0", "1", "-1", "0.5", "73.25", "-0.375", "1e22", "9007199254740992",
                           "5.9604644775390625e-8", "4503599627370495.5", "0.000030517578125"}) {
    const Number n = *Number::FromDecimal(text);
    ASSERT_TRUE(n.ExactDouble().has_value()) << text;
    EXPECT_EQ(exact_expansion(*n.ExactDouble()), n) << text;
  }
  for (const char* text : {"0.1", "73.2", "1e23", "9007199254740993", "1e-19", "5e-324",
                           "123456789012345678901234567890.1", "2.2250738585072014e-308"}) {
    EXPECT_FALSE(Number::FromDecimal(text)->ExactDouble().has_value()) << text;
  }
  // Doubles of every magnitude: the exact expansion is exact, the shortest form only when it is
  // the exact one.
  double d = 1.0 / 3.0;
  for (int i = 0; i < 200; ++i, d *= -7.3) {
    const Number exact = exact_expansion(d);
    ASSERT_TRUE(exact.ExactDouble().has_value()) << exact.ToString();
    EXPECT_EQ(*exact.ExactDouble(), d) << exact.ToString();
    const Number shortest = Number::Float(d);
    EXPECT_EQ(shortest.ExactDouble().has_value(), shortest == exact) << shortest.ToString();
  }
}

TEST(NumberTest, Doubles) {
  EXPECT_EQ(Number::FromDecimal("0.5")->ExactDouble(), 0.5);
  EXPECT_FALSE(Number::FromDecimal("0.1")->ExactDouble().has_value());
  EXPECT_FALSE(Number::FromDecimal("1e400")->ExactDouble().has_value());
  EXPECT_DOUBLE_EQ(Number::FromDecimal("0.1")->AsDouble(), 0.1);
  EXPECT_TRUE(std::isinf(Number::FromDecimal("1e400")->AsDouble()));
  EXPECT_EQ(Number::FromDecimal("1e-400")->AsDouble(), 0.0);
  EXPECT_TRUE(Number::Float(HUGE_VAL).IsInfinity());
  EXPECT_EQ(Number::Float(-HUGE_VAL).ToString(), "-Inf");
  EXPECT_EQ(Number::Float(std::nan("")).ToString(), "NaN");
  EXPECT_EQ(Number::Float(1e300).ToString(), "1e+300");
}

Type VcType() { return Type::Object({{"name", Type::String()}, {"id", Type::Number()}}); }

TEST(ValueTest, StatesAndAccessors) {
  EXPECT_TRUE(Value().IsNull());
  EXPECT_EQ(Value().type(), Type::Dynamic());
  Value u = Value::Unknown(Type::String());
  EXPECT_FALSE(u.IsKnown());
  EXPECT_FALSE(u.IsNull());
  Value obj = Value::Object({{"a", Value::List(Type::String(), {u})}});
  EXPECT_TRUE(obj.IsKnown());
  EXPECT_FALSE(obj.IsWhollyKnown());
  EXPECT_EQ(obj.GetAttribute("b"), nullptr);
  EXPECT_EQ(obj.WithAttribute("b", Value::Bool(true)).GetAttribute("b")->AsBool(), true);
}

TEST(ValueTest, WithAttributeKeepsOrRebuildsTheType) {
  const Value obj = Value::Object({{"name", Value::Null(Type::String())}, {"id", Value::Int(1)}});
  // Same attribute type: the object's type is unchanged.
  const Value named = obj.WithAttribute("name", Value::String("a"));
  EXPECT_EQ(named.type(), VcType());
  EXPECT_EQ(named.GetAttribute("name")->AsString(), "a");
  EXPECT_TRUE(obj.GetAttribute("name")->IsNull());  // the original is untouched
  // Another type, or a new attribute: the type follows the attributes.
  const Value retyped = obj.WithAttribute("id", Value::String("x"));
  EXPECT_EQ(retyped.type(), Type::Object({{"name", Type::String()}, {"id", Type::String()}}));
  const Value added = obj.WithAttribute("extra", Value::Bool(true));
  EXPECT_EQ(added.type().attributes().size(), 3u);
  EXPECT_EQ(obj.type(), VcType());
  // A null object gets an object with the one attribute, as before.
  const Value from_null = Value::Null(VcType()).WithAttribute("id", Value::Int(2));
  EXPECT_EQ(from_null.type(), Type::Object({{"id", Type::Number()}}));
}

TEST(ValueTest, WithAttributeOnAnUnsharedRvalueChangesInPlace) {
  Value v = Value::Object({{"name", Value::Null(Type::String())}, {"id", Value::Int(1)}});
  const Value copy = v;  // shared: the first call must copy
  v = std::move(v).WithAttribute("name", Value::String("a"));
  EXPECT_TRUE(copy.GetAttribute("name")->IsNull());
  const Value* before = v.GetAttribute("id");
  v = std::move(v).WithAttribute("id", Value::Int(2));  // unshared now: in place
  EXPECT_EQ(v.GetAttribute("id"), before);
  EXPECT_EQ(v.GetAttribute("id")->AsNumber(), cty::Number::Int(2));
  EXPECT_EQ(v.GetAttribute("name")->AsString(), "a");
  EXPECT_EQ(v.type(), VcType());
  v = std::move(v).WithAttribute("id", Value::Bool(true));  // type changes: rebuilt
  EXPECT_EQ(v.type(), Type::Object({{"name", Type::String()}, {"id", Type::Bool()}}));
  EXPECT_TRUE(
      copy.Equals(Value::Object({{"name", Value::Null(Type::String())}, {"id", Value::Int(1)}})));
}

TEST(ValueTest, Equality) {
  EXPECT_TRUE(Value::Int(1).Equals(Value::Float(1.0)));
  EXPECT_FALSE(Value::Int(1).Equals(Value::String("1")));
  EXPECT_TRUE(Value::Null(Type::String()).Equals(Value::Null(Type::String())));
  EXPECT_FALSE(Value::Null(Type::String()).Equals(Value::Unknown(Type::String())));
  EXPECT_FALSE(Value::Null(Type::String()).Equals(Value::String("")));
  Value s1 = Value::Set(Type::String(), {Value::String("a"), Value::String("b")});
  Value s2 =
      Value::Set(Type::String(), {Value::String("b"), Value::String("a"), Value::String("a")});
  EXPECT_EQ(s2.elements().size(), 2u);
  EXPECT_TRUE(s1.Equals(s2));
  Value l1 = Value::List(Type::String(), {Value::String("a"), Value::String("b")});
  Value l2 = Value::List(Type::String(), {Value::String("b"), Value::String("a")});
  EXPECT_FALSE(l1.Equals(l2));
  EXPECT_TRUE(Value::ObjectOf(VcType(), {})
                  .Equals(Value::Object({{"name", Value::Null(Type::String())},
                                         {"id", Value::Null(Type::Number())}})));
}

TEST(ValueTest, DebugStringsLookLikeTerraforms) {
  EXPECT_EQ(Value::String("a").DebugString(), "cty.StringVal(\"a\")");
  EXPECT_EQ(Value::Null(Type::Number()).DebugString(), "cty.NullVal(cty.Number)");
  EXPECT_EQ(Value::Unknown(Type::String()).DebugString(), "cty.UnknownVal(cty.String)");
  EXPECT_EQ(Value::Unknown(Type::Dynamic()).DebugString(), "cty.DynamicVal");
  EXPECT_EQ(Value::Int(5).DebugString(), "cty.NumberIntVal(5)");
  EXPECT_EQ(Value::Float(0.5).DebugString(), "cty.NumberFloatVal(0.5)");
  EXPECT_EQ(Value::Float(0.1).DebugString(), "cty.MustParseNumberVal(\"0.1\")");
  EXPECT_EQ(Value::Bool(true).DebugString(), "cty.True");
  EXPECT_EQ(Value::List(Type::String(), {}).DebugString(), "cty.ListValEmpty(cty.String)");
  EXPECT_EQ(Value::Object({{"a", Value::Int(1)}}).DebugString(),
            "cty.ObjectVal(map[string]cty.Value{\"a\":cty.NumberIntVal(1)})");
  EXPECT_EQ(Value::Object({}).DebugString(), "cty.EmptyObjectVal");
}

TEST(ValueTest, GetPath) {
  Value v = Value::Object(
      {{"vcenters",
        Value::List(VcType(), {Value::ObjectOf(VcType(), {{"name", Value::String("a")}})})},
       {"labels", Value::Map(Type::String(), {{"env", Value::String("prod")}})}});
  EXPECT_EQ(v.GetPath(AttributePath().Attribute("vcenters").Index(0).Attribute("name"))->AsString(),
            "a");
  EXPECT_EQ(v.GetPath(AttributePath().Attribute("labels").ElementKey("env"))->AsString(), "prod");
  absl::StatusOr<Value> missing = v.GetPath(AttributePath().Attribute("vcenters").Index(3));
  ASSERT_THAT(missing, Not(IsOk()));
  EXPECT_EQ(ErrorPath(missing.status())->ToString(), ".vcenters");
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("out of range"));
  EXPECT_THAT(v.GetPath(AttributePath().Attribute("nope")), Not(IsOk()));
  EXPECT_THAT(v.GetPath(AttributePath().Attribute("labels").Index(0)), Not(IsOk()));
}

TEST(ValueTest, CheckConformance) {
  Type t = Type::Object({{"vcenters", Type::List(VcType())}, {"d", Type::Dynamic()}});
  Value good = Value::Object(
      {{"vcenters", Value::List(VcType(), {Value::ObjectOf(VcType(), {})})}, {"d", Value::Int(1)}});
  EXPECT_THAT(CheckConformance(good, t), IsOk());
  Value missing = Value::Object(
      {{"vcenters", Value::List(VcType(), {Value::Object({{"name", Value::String("x")}})})},
       {"d", Value::Int(1)}});
  absl::Status s = CheckConformance(missing, t);
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_EQ(ErrorPath(s)->ToString(), ".vcenters[0]");
  EXPECT_THAT(std::string(s.message()), HasSubstr("attribute \"id\" is required"));
  s = CheckConformance(Value::Object({{"d", Value::Int(1)}, {"vcenters", Value::Int(2)}}), t);
  ASSERT_THAT(s, Not(IsOk()));
  EXPECT_EQ(ErrorPath(s)->ToString(), ".vcenters");
  s = CheckConformance(Value::Null(Type::String()), Type::Number());
  EXPECT_THAT(s, Not(IsOk()));
}

TEST(ValueTest, WalkTransformAndUnknownAsNull) {
  Value v = Value::Object(
      {{"a", Value::Unknown(Type::String())},
       {"l", Value::List(Type::Number(), {Value::Int(1), Value::Unknown(Type::Number())})}});
  std::vector<std::string> unknown_paths;
  Walk(v, [&](const AttributePath& p, const Value& x) {
    if (!x.IsKnown()) unknown_paths.push_back(p.ToString());
    return true;
  });
  EXPECT_THAT(unknown_paths, ::testing::ElementsAre(".a", ".l[1]"));
  Value nulled = UnknownAsNull(v);
  EXPECT_TRUE(nulled.IsWhollyKnown());
  EXPECT_TRUE(nulled.GetAttribute("a")->IsNull());
  EXPECT_EQ(nulled.GetAttribute("a")->type(), Type::String());
  EXPECT_TRUE(nulled.GetAttribute("l")->elements()[1].IsNull());
  Value doubled = Transform(v, [](const AttributePath&, const Value& x) {
    if (x.IsKnown() && !x.IsNull() && x.type() == Type::Number()) {
      return Value::Int(*x.AsNumber().AsInt64() * 2);
    }
    return x;
  });
  EXPECT_EQ(doubled.GetAttribute("l")->elements()[0].AsNumber().ToString(), "2");
}

TEST(PathTest, Rendering) {
  EXPECT_EQ(AttributePath().ToString(), "(root)");
  EXPECT_EQ(AttributePath().Attribute("a").Index(0).ElementKey("k\"q").ToString(),
            ".a[0][\"k\\\"q\"]");
}

TEST(PathTest, ErrorRoundTripsThePath) {
  AttributePath p = AttributePath().Attribute("a:b;c").Index(-3).ElementKey("").ElementKey("1:x");
  absl::Status s = PathError(p, "boom");
  EXPECT_THAT(s, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_EQ(std::string(s.message()), p.ToString() + ": boom");
  ASSERT_TRUE(ErrorPath(s).has_value());
  EXPECT_EQ(*ErrorPath(s), p);
  EXPECT_FALSE(ErrorPath(absl::InvalidArgumentError("x")).has_value());
  EXPECT_EQ(*ErrorPath(PathError(AttributePath(), "root")), AttributePath());
}

}  // namespace
}  // namespace nsxalb::cty
