// Implementation of cty values and the helpers that walk them.
#include "plugin/cty/value.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "plugin/common/status_macros.h"
#include "plugin/cty/internal/json_tree.h"

namespace nsxalb::cty {

struct Value::Rep {
  enum class State { kNull, kUnknown, kKnown };
  Type type;
  State state = State::kNull;
  std::string str;
  bool boolean = false;
  cty::Number number;
  std::vector<Value> elements;
  std::map<std::string, Value> entries;
};

Value::Value(std::shared_ptr<const Rep> rep) : rep_(std::move(rep)) {}

Value::Value() {
  static const auto* null_dynamic = new std::shared_ptr<const Rep>(std::make_shared<Rep>());
  rep_ = *null_dynamic;
}

Value Value::Null(Type type) {
  auto rep = std::make_shared<Rep>();
  rep->type = std::move(type);
  rep->state = Rep::State::kNull;
  return Value(std::move(rep));
}

Value Value::Unknown(Type type) {
  auto rep = std::make_shared<Rep>();
  rep->type = std::move(type);
  rep->state = Rep::State::kUnknown;
  return Value(std::move(rep));
}

Value Value::String(std::string value) {
  auto rep = std::make_shared<Rep>();
  rep->type = Type::String();
  rep->state = Rep::State::kKnown;
  rep->str = std::move(value);
  return Value(std::move(rep));
}

Value Value::Bool(bool value) {
  auto rep = std::make_shared<Rep>();
  rep->type = Type::Bool();
  rep->state = Rep::State::kKnown;
  rep->boolean = value;
  return Value(std::move(rep));
}

Value Value::NumberVal(cty::Number value) {
  auto rep = std::make_shared<Rep>();
  rep->type = Type::Number();
  rep->state = Rep::State::kKnown;
  rep->number = std::move(value);
  return Value(std::move(rep));
}

Value Value::StringList(const std::vector<std::string>& items) {
  std::vector<Value> values;
  values.reserve(items.size());
  for (const std::string& s : items) values.push_back(String(s));
  return List(Type::String(), std::move(values));
}

Value Value::List(Type element_type, std::vector<Value> elements) {
  auto rep = std::make_shared<Rep>();
  rep->type = Type::List(std::move(element_type));
  rep->state = Rep::State::kKnown;
  rep->elements = std::move(elements);
  return Value(std::move(rep));
}

Value Value::Set(Type element_type, std::vector<Value> elements) {
  auto rep = std::make_shared<Rep>();
  rep->type = Type::Set(std::move(element_type));
  rep->state = Rep::State::kKnown;
  // A set holds each wholly known value once.
  for (Value& e : elements) {
    bool duplicate = false;
    if (e.IsWhollyKnown()) {
      for (const Value& kept : rep->elements) {
        if (kept.Equals(e)) {
          duplicate = true;
          break;
        }
      }
    }
    if (!duplicate) rep->elements.push_back(std::move(e));
  }
  return Value(std::move(rep));
}

Value Value::Map(Type element_type, std::map<std::string, Value> elements) {
  auto rep = std::make_shared<Rep>();
  rep->type = Type::Map(std::move(element_type));
  rep->state = Rep::State::kKnown;
  rep->entries = std::move(elements);
  return Value(std::move(rep));
}

Value Value::Object(std::map<std::string, Value> attributes) {
  std::map<std::string, Type> types;
  for (const auto& [name, value] : attributes) types.emplace(name, value.type());
  auto rep = std::make_shared<Rep>();
  rep->type = Type::Object(std::move(types));
  rep->state = Rep::State::kKnown;
  rep->entries = std::move(attributes);
  return Value(std::move(rep));
}

Value Value::Object(std::map<std::string, Value> attributes, const Type& expected) {
  if (expected.kind() != Type::Kind::kObject || expected.attributes().size() != attributes.size()) {
    return Object(std::move(attributes));
  }
  auto want = expected.attributes().begin();
  for (const auto& [name, value] : attributes) {
    if (want->first != name || !(want->second == value.type())) {
      return Object(std::move(attributes));
    }
    ++want;
  }
  auto rep = std::make_shared<Rep>();
  rep->type = expected;
  rep->state = Rep::State::kKnown;
  rep->entries = std::move(attributes);
  return Value(std::move(rep));
}

Value Value::ObjectOf(const Type& object_type, std::map<std::string, Value> attributes) {
  for (const auto& [name, type] : object_type.attributes()) {
    if (attributes.count(name) == 0) attributes.emplace(name, Null(type));
  }
  return Object(std::move(attributes), object_type);
}

Value Value::Tuple(std::vector<Value> elements) {
  std::vector<Type> types;
  types.reserve(elements.size());
  for (const Value& e : elements) types.push_back(e.type());
  auto rep = std::make_shared<Rep>();
  rep->type = Type::Tuple(std::move(types));
  rep->state = Rep::State::kKnown;
  rep->elements = std::move(elements);
  return Value(std::move(rep));
}

const Type& Value::type() const { return rep_->type; }
bool Value::IsNull() const { return rep_->state == Rep::State::kNull; }
bool Value::IsKnown() const { return rep_->state != Rep::State::kUnknown; }

bool Value::IsWhollyKnown() const {
  if (rep_->state == Rep::State::kUnknown) return false;
  for (const Value& e : rep_->elements) {
    if (!e.IsWhollyKnown()) return false;
  }
  for (const auto& [key, e] : rep_->entries) {
    if (!e.IsWhollyKnown()) return false;
  }
  return true;
}

const std::string& Value::AsString() const { return rep_->str; }
bool Value::AsBool() const { return rep_->boolean; }
const cty::Number& Value::AsNumber() const { return rep_->number; }
const std::vector<Value>& Value::elements() const { return rep_->elements; }
const std::map<std::string, Value>& Value::entries() const { return rep_->entries; }

const Value* Value::GetAttribute(const std::string& name) const {
  if (rep_->state != Rep::State::kKnown || type().kind() != Type::Kind::kObject) return nullptr;
  auto it = rep_->entries.find(name);
  return it == rep_->entries.end() ? nullptr : &it->second;
}

namespace {

// Replaces (or adds) attribute `name` in `entries`, an object's attributes; true when the
// object's type stays what it was (the attribute existed with the new value's type).
bool ReplaceAttribute(std::map<std::string, Value>& entries, const std::string& name, Value value) {
  auto it = entries.find(name);
  if (it == entries.end()) {
    entries.emplace(name, std::move(value));
    return false;
  }
  const bool same_type = it->second.type() == value.type();
  it->second = std::move(value);
  return same_type;
}

}  // namespace

Value Value::WithAttribute(const std::string& name, Value value) const& {
  if (rep_->state != Rep::State::kKnown || type().kind() != Type::Kind::kObject) {
    std::map<std::string, Value> attributes = entries();
    attributes[name] = std::move(value);
    return Object(std::move(attributes));
  }
  auto rep = std::make_shared<Rep>();
  rep->state = Rep::State::kKnown;
  rep->entries = rep_->entries;
  if (!ReplaceAttribute(rep->entries, name, std::move(value)))
    return Object(std::move(rep->entries));
  rep->type = rep_->type;
  return Value(std::move(rep));
}

Value Value::WithAttribute(const std::string& name, Value value) && {
  if (rep_.use_count() != 1 || rep_->state != Rep::State::kKnown ||
      type().kind() != Type::Kind::kObject) {
    return static_cast<const Value&>(*this).WithAttribute(name, std::move(value));
  }
  // Only this value holds the representation (made non-const by make_shared), so no one can
  // observe the change.
  Rep& rep = const_cast<Rep&>(*rep_);
  if (!ReplaceAttribute(rep.entries, name, std::move(value))) {
    return Object(std::move(rep.entries));
  }
  return std::move(*this);
}

bool Value::Equals(const Value& other) const {
  if (rep_ == other.rep_) return true;
  if (rep_->state != other.rep_->state || type() != other.type()) return false;
  if (rep_->state != Rep::State::kKnown) return true;
  switch (type().kind()) {
    case Type::Kind::kString:
      return rep_->str == other.rep_->str;
    case Type::Kind::kNumber:
      return rep_->number == other.rep_->number;
    case Type::Kind::kBool:
      return rep_->boolean == other.rep_->boolean;
    case Type::Kind::kList:
    case Type::Kind::kTuple: {
      if (elements().size() != other.elements().size()) return false;
      for (size_t i = 0; i < elements().size(); ++i) {
        if (!elements()[i].Equals(other.elements()[i])) return false;
      }
      return true;
    }
    case Type::Kind::kSet: {
      if (elements().size() != other.elements().size()) return false;
      std::vector<bool> used(other.elements().size(), false);
      for (const Value& e : elements()) {
        bool found = false;
        for (size_t j = 0; j < other.elements().size(); ++j) {
          if (!used[j] && e.Equals(other.elements()[j])) {
            used[j] = found = true;
            break;
          }
        }
        if (!found) return false;
      }
      return true;
    }
    case Type::Kind::kMap:
    case Type::Kind::kObject: {
      if (entries().size() != other.entries().size()) return false;
      auto a = entries().begin();
      auto b = other.entries().begin();
      for (; a != entries().end(); ++a, ++b) {
        if (a->first != b->first || !a->second.Equals(b->second)) return false;
      }
      return true;
    }
    case Type::Kind::kDynamic:
      return true;  // a known value never has type Dynamic
  }
  return false;
}

namespace {

void AppendElements(std::string* out, const std::vector<Value>& elements) {
  out->append("[]cty.Value{");
  for (size_t i = 0; i < elements.size(); ++i) {
    absl::StrAppend(out, i ? ", " : "", elements[i].DebugString());
  }
  out->append("}");
}

void AppendEntries(std::string* out, const std::map<std::string, Value>& entries) {
  out->append("map[string]cty.Value{");
  bool first = true;
  for (const auto& [key, value] : entries) {
    absl::StrAppend(out, first ? "" : ", ", internal::JsonQuote(key), ":", value.DebugString());
    first = false;
  }
  out->append("}");
}

std::string NumberDebugString(const cty::Number& n) {
  if (n.IsInt64()) return absl::StrCat("cty.NumberIntVal(", n.ToString(), ")");
  if (n.ExactDouble().has_value() && !n.IsInfinity()) {
    return absl::StrCat("cty.NumberFloatVal(", n.ToString(), ")");
  }
  if (n.IsInfinity())
    return n.ToString() == "Inf" ? "cty.PositiveInfinity" : "cty.NegativeInfinity";
  return absl::StrCat("cty.MustParseNumberVal(\"", n.ToString(), "\")");
}

}  // namespace

std::string Value::DebugString() const {
  if (IsNull()) return absl::StrCat("cty.NullVal(", type().DebugString(), ")");
  if (!IsKnown()) {
    if (type().kind() == Type::Kind::kDynamic) return "cty.DynamicVal";
    return absl::StrCat("cty.UnknownVal(", type().DebugString(), ")");
  }
  std::string out;
  switch (type().kind()) {
    case Type::Kind::kString:
      return absl::StrCat("cty.StringVal(", internal::JsonQuote(AsString()), ")");
    case Type::Kind::kNumber:
      return NumberDebugString(AsNumber());
    case Type::Kind::kBool:
      return AsBool() ? "cty.True" : "cty.False";
    case Type::Kind::kList:
    case Type::Kind::kSet: {
      const char* name = type().kind() == Type::Kind::kList ? "List" : "Set";
      if (elements().empty()) {
        return absl::StrCat("cty.", name, "ValEmpty(", type().element().DebugString(), ")");
      }
      out = absl::StrCat("cty.", name, "Val(");
      AppendElements(&out, elements());
      return out + ")";
    }
    case Type::Kind::kTuple:
      if (elements().empty()) return "cty.EmptyTupleVal";
      out = "cty.TupleVal(";
      AppendElements(&out, elements());
      return out + ")";
    case Type::Kind::kMap:
      if (entries().empty()) {
        return absl::StrCat("cty.MapValEmpty(", type().element().DebugString(), ")");
      }
      out = "cty.MapVal(";
      AppendEntries(&out, entries());
      return out + ")";
    case Type::Kind::kObject:
      if (entries().empty()) return "cty.EmptyObjectVal";
      out = "cty.ObjectVal(";
      AppendEntries(&out, entries());
      return out + ")";
    case Type::Kind::kDynamic:
      break;
  }
  return "cty.DynamicVal";
}

absl::StatusOr<Value> Value::GetPath(const AttributePath& path) const {
  Value current = *this;
  AttributePath walked;
  for (const AttributePath::Step& step : path.steps()) {
    if (current.IsNull()) return PathError(walked, "cannot step into a null value");
    if (!current.IsKnown()) return PathError(walked, "cannot step into an unknown value");
    const Type::Kind kind = current.type().kind();
    switch (step.kind) {
      case AttributePath::Step::Kind::kAttribute: {
        const Value* attr = current.GetAttribute(step.name);
        if (attr == nullptr) {
          return PathError(walked, absl::StrCat("no attribute ", internal::JsonQuote(step.name)));
        }
        walked = walked.Attribute(step.name);
        current = *attr;
        break;
      }
      case AttributePath::Step::Kind::kElementKeyString: {
        if (kind != Type::Kind::kMap) {
          return PathError(walked, absl::StrCat("a map is required to look up key ",
                                                internal::JsonQuote(step.name), ", got ",
                                                current.type().FriendlyName()));
        }
        auto it = current.entries().find(step.name);
        if (it == current.entries().end()) {
          return PathError(walked, absl::StrCat("no key ", internal::JsonQuote(step.name)));
        }
        walked = walked.ElementKey(step.name);
        current = it->second;
        break;
      }
      case AttributePath::Step::Kind::kElementKeyInt: {
        if (kind != Type::Kind::kList && kind != Type::Kind::kTuple) {
          return PathError(walked,
                           absl::StrCat("a list or tuple is required to look up index ", step.index,
                                        ", got ", current.type().FriendlyName()));
        }
        if (step.index < 0 || static_cast<size_t>(step.index) >= current.elements().size()) {
          return PathError(walked, absl::StrCat("index ", step.index, " is out of range (",
                                                current.elements().size(), " elements)"));
        }
        walked = walked.Index(step.index);
        current = current.elements()[static_cast<size_t>(step.index)];
        break;
      }
    }
  }
  return current;
}

absl::Status CheckConformance(const Value& value, const Type& type, const AttributePath& path) {
  if (type.kind() == Type::Kind::kDynamic) return absl::OkStatus();
  if (value.IsNull() || !value.IsKnown()) {
    if (value.type().ConformsTo(type)) return absl::OkStatus();
    return PathError(path, absl::StrCat("a value of type ", type.FriendlyName(),
                                        " is required, got ", value.type().FriendlyName()));
  }
  const Type::Kind have = value.type().kind();
  const std::string article = type.kind() == Type::Kind::kObject ? "an " : "a ";
  if (have != type.kind()) {
    return PathError(path, absl::StrCat(article, type.FriendlyName(), " is required, got ",
                                        value.type().FriendlyName()));
  }
  switch (type.kind()) {
    case Type::Kind::kList:
    case Type::Kind::kSet:
      for (size_t i = 0; i < value.elements().size(); ++i) {
        NSXALB_RETURN_IF_ERROR(CheckConformance(value.elements()[i], type.element(),
                                                path.Index(static_cast<int64_t>(i))));
      }
      return absl::OkStatus();
    case Type::Kind::kMap:
      for (const auto& [key, e] : value.entries()) {
        NSXALB_RETURN_IF_ERROR(CheckConformance(e, type.element(), path.ElementKey(key)));
      }
      return absl::OkStatus();
    case Type::Kind::kObject:
      for (const auto& [name, e] : value.entries()) {
        if (type.attributes().count(name) == 0) {
          return PathError(path, absl::StrCat("unsupported attribute ", internal::JsonQuote(name)));
        }
      }
      for (const auto& [name, attr_type] : type.attributes()) {
        const Value* attr = value.GetAttribute(name);
        if (attr == nullptr) {
          return PathError(path,
                           absl::StrCat("attribute ", internal::JsonQuote(name), " is required"));
        }
        NSXALB_RETURN_IF_ERROR(CheckConformance(*attr, attr_type, path.Attribute(name)));
      }
      return absl::OkStatus();
    case Type::Kind::kTuple:
      if (value.elements().size() != type.tuple_elements().size()) {
        return PathError(
            path, absl::StrCat("a tuple of ", type.tuple_elements().size(),
                               " elements is required (", value.elements().size(), " given)"));
      }
      for (size_t i = 0; i < value.elements().size(); ++i) {
        NSXALB_RETURN_IF_ERROR(CheckConformance(value.elements()[i], type.tuple_elements()[i],
                                                path.Index(static_cast<int64_t>(i))));
      }
      return absl::OkStatus();
    default:
      return absl::OkStatus();
  }
}

namespace {

void WalkAt(const AttributePath& path, const Value& value,
            const std::function<bool(const AttributePath&, const Value&)>& visit) {
  if (!visit(path, value) || value.IsNull() || !value.IsKnown()) return;
  switch (value.type().kind()) {
    case Type::Kind::kList:
    case Type::Kind::kSet:
    case Type::Kind::kTuple:
      for (size_t i = 0; i < value.elements().size(); ++i) {
        WalkAt(path.Index(static_cast<int64_t>(i)), value.elements()[i], visit);
      }
      break;
    case Type::Kind::kMap:
      for (const auto& [key, e] : value.entries()) WalkAt(path.ElementKey(key), e, visit);
      break;
    case Type::Kind::kObject:
      for (const auto& [name, e] : value.entries()) WalkAt(path.Attribute(name), e, visit);
      break;
    default:
      break;
  }
}

Value TransformAt(const AttributePath& path, const Value& value,
                  const std::function<Value(const AttributePath&, const Value&)>& fn) {
  if (value.IsNull() || !value.IsKnown()) return fn(path, value);
  Value rebuilt = value;
  switch (value.type().kind()) {
    case Type::Kind::kList:
    case Type::Kind::kSet:
    case Type::Kind::kTuple: {
      std::vector<Value> elements;
      for (size_t i = 0; i < value.elements().size(); ++i) {
        elements.push_back(
            TransformAt(path.Index(static_cast<int64_t>(i)), value.elements()[i], fn));
      }
      if (value.type().kind() == Type::Kind::kList) {
        rebuilt = Value::List(value.type().element(), std::move(elements));
      } else if (value.type().kind() == Type::Kind::kSet) {
        rebuilt = Value::Set(value.type().element(), std::move(elements));
      } else {
        rebuilt = Value::Tuple(std::move(elements));
      }
      break;
    }
    case Type::Kind::kMap: {
      std::map<std::string, Value> entries;
      for (const auto& [key, e] : value.entries()) {
        entries.emplace(key, TransformAt(path.ElementKey(key), e, fn));
      }
      rebuilt = Value::Map(value.type().element(), std::move(entries));
      break;
    }
    case Type::Kind::kObject: {
      std::map<std::string, Value> entries;
      for (const auto& [name, e] : value.entries()) {
        entries.emplace(name, TransformAt(path.Attribute(name), e, fn));
      }
      rebuilt = Value::Object(std::move(entries));
      break;
    }
    default:
      break;
  }
  return fn(path, rebuilt);
}

}  // namespace

void Walk(const Value& value,
          const std::function<bool(const AttributePath& path, const Value& value)>& visit) {
  WalkAt(AttributePath(), value, visit);
}

Value Transform(const Value& value,
                const std::function<Value(const AttributePath& path, const Value& value)>& fn) {
  return TransformAt(AttributePath(), value, fn);
}

Value UnknownAsNull(const Value& value) {
  return Transform(value, [](const AttributePath&, const Value& v) {
    return v.IsKnown() ? v : Value::Null(v.type());
  });
}

}  // namespace nsxalb::cty
