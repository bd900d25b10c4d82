// The typed three-state attribute readers: unknown, null and value, of the attribute and of the
// object around it, a missing attribute and a value of another type; and the untyped reader.
#include "plugin/framework/attr.h"

#include <gtest/gtest.h>

#include <string>

namespace nsxalb::framework {
namespace {

using cty::Type;
using cty::Value;

// An object with one attribute `a`.
Value With(Value a) { return Value::Object({{"a", std::move(a)}}); }

// "unknown", "null" or the value's text: one string per state, so that a test names all three.
template <typename T, typename Text>
std::string StateOf(const Attr<T>& attr, Text text) {
  if (attr.IsUnknown()) {
    EXPECT_FALSE(attr.IsNull());
    EXPECT_FALSE(attr.value().has_value());
    return "unknown";
  }
  if (attr.IsNull()) {
    EXPECT_FALSE(attr.value().has_value());
    return "null";
  }
  EXPECT_TRUE(attr.value().has_value());
  return text(*attr.value());
}

std::string S(const Attr<std::string>& a) {
  return StateOf(a, [](const std::string& s) { return "\"" + s + "\""; });
}
std::string B(const Attr<bool>& a) {
  return StateOf(a, [](bool b) { return std::string(b ? "true" : "false"); });
}
std::string N(const Attr<cty::Number>& a) {
  return StateOf(a, [](const cty::Number& n) { return n.ToString(); });
}

TEST(AttrTest, StringInEachState) {
  EXPECT_EQ(S(StringAttr(With(Value::String("web")), "a")), "\"web\"");
  EXPECT_EQ(S(StringAttr(With(Value::String("")), "a")), "\"\"");
  EXPECT_EQ(S(StringAttr(With(Value::Null(Type::String())), "a")), "null");
  EXPECT_EQ(S(StringAttr(With(Value::Unknown(Type::String())), "a")), "unknown");
}

TEST(AttrTest, BoolInEachState) {
  EXPECT_EQ(B(BoolAttr(With(Value::Bool(true)), "a")), "true");
  EXPECT_EQ(B(BoolAttr(With(Value::Bool(false)), "a")), "false");
  EXPECT_EQ(B(BoolAttr(With(Value::Null(Type::Bool())), "a")), "null");
  EXPECT_EQ(B(BoolAttr(With(Value::Unknown(Type::Bool())), "a")), "unknown");
}

TEST(AttrTest, NumberInEachState) {
  EXPECT_EQ(N(NumberAttr(With(Value::Int(300)), "a")), "300");
  EXPECT_EQ(N(NumberAttr(With(Value::Float(0.5)), "a")), "0.5");
  EXPECT_EQ(N(NumberAttr(With(Value::Null(Type::Number())), "a")), "null");
  EXPECT_EQ(N(NumberAttr(With(Value::Unknown(Type::Number())), "a")), "unknown");
}

TEST(AttrTest, TheObjectsStateIsTheAttributes) {
  const Type object = Type::Object({{"a", Type::String()}});
  EXPECT_EQ(S(StringAttr(Value::Unknown(object), "a")), "unknown");
  EXPECT_EQ(S(StringAttr(Value::Unknown(Type::Dynamic()), "a")), "unknown");
  EXPECT_EQ(S(StringAttr(Value::Null(object), "a")), "null");
  EXPECT_EQ(B(BoolAttr(Value::Unknown(object), "a")), "unknown");
  EXPECT_EQ(N(NumberAttr(Value::Null(object), "a")), "null");
}

TEST(AttrTest, AMissingAttributeIsNull) {
  const Value object = With(Value::String("web"));
  EXPECT_EQ(S(StringAttr(object, "b")), "null");
  EXPECT_EQ(B(BoolAttr(object, "b")), "null");
  EXPECT_EQ(N(NumberAttr(object, "b")), "null");
  EXPECT_EQ(S(StringAttr(Value::Object({}), "a")), "null");
}

TEST(AttrTest, AValueOfAnotherTypeIsNull) {
  EXPECT_EQ(S(StringAttr(With(Value::Int(1)), "a")), "null");
  EXPECT_EQ(S(StringAttr(With(Value::Bool(true)), "a")), "null");
  EXPECT_EQ(B(BoolAttr(With(Value::String("true")), "a")), "null");
  EXPECT_EQ(N(NumberAttr(With(Value::String("1")), "a")), "null");
  EXPECT_EQ(N(NumberAttr(With(Value::Object({})), "a")), "null");
  // An unknown stays unknown whatever its type: it may still become a value of the right one.
  EXPECT_EQ(S(StringAttr(With(Value::Unknown(Type::Dynamic())), "a")), "unknown");
  // Not an object at all: there is no attribute to read.
  EXPECT_EQ(S(StringAttr(Value::String("a"), "a")), "null");
}

TEST(AttrTest, ADynamicAttributeReadsTheTypeItHolds) {
  const Value object =
      Value::ObjectOf(Type::Object({{"a", Type::Dynamic()}}), {{"a", Value::String("held")}});
  EXPECT_EQ(S(StringAttr(object, "a")), "\"held\"");
  EXPECT_EQ(N(NumberAttr(object, "a")), "null");
}

TEST(AttrTest, ValueReadsAnyTypeInEachState) {
  const auto kind = [](const Attr<Value>& a) {
    return StateOf(a, [](const Value& v) {
      return std::string(v.type().kind() == cty::Type::Kind::kList ? "list" : "other");
    });
  };
  EXPECT_EQ(kind(ValueAttr(With(Value::List(Type::String(), {Value::String("x")})), "a")), "list");
  EXPECT_EQ(kind(ValueAttr(With(Value::Int(1)), "a")), "other");
  EXPECT_EQ(kind(ValueAttr(With(Value::Null(Type::List(Type::String()))), "a")), "null");
  EXPECT_EQ(kind(ValueAttr(With(Value::Unknown(Type::Bool())), "a")), "unknown");
  EXPECT_EQ(kind(ValueAttr(Value::Unknown(Type::Dynamic()), "a")), "unknown");
  EXPECT_EQ(kind(ValueAttr(With(Value::Int(1)), "b")), "null");
}

TEST(AttrTest, MadeDirectlyEachStateIsDistinct) {
  EXPECT_EQ(S(Attr<std::string>::Unknown()), "unknown");
  EXPECT_EQ(S(Attr<std::string>::Null()), "null");
  EXPECT_EQ(S(Attr<std::string>::Of("x")), "\"x\"");
}

}  // namespace
}  // namespace nsxalb::framework
