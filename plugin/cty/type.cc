// Implementation of cty types and their JSON notation.
#include "plugin/cty/type.h"

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "plugin/common/status_macros.h"
#include "plugin/cty/internal/json_tree.h"
#include "plugin/cty/internal/type_json.h"

namespace nsxalb::cty {

struct Type::Rep {
  Kind kind = Kind::kDynamic;
  std::vector<Type> element;  // one entry for list, set and map
  std::map<std::string, Type> attributes;
  std::vector<Type> tuple;
};

Type::Type(std::shared_ptr<const Rep> rep) : rep_(std::move(rep)) {}

namespace {

template <typename RepT>
std::shared_ptr<const RepT> MakePrimitive(Type::Kind kind) {
  auto rep = std::make_shared<RepT>();
  rep->kind = kind;
  return rep;
}

}  // namespace

Type Type::String() {
  static const auto* rep = new std::shared_ptr<const Rep>(MakePrimitive<Rep>(Kind::kString));
  return Type(*rep);
}
Type Type::Number() {
  static const auto* rep = new std::shared_ptr<const Rep>(MakePrimitive<Rep>(Kind::kNumber));
  return Type(*rep);
}
Type Type::Bool() {
  static const auto* rep = new std::shared_ptr<const Rep>(MakePrimitive<Rep>(Kind::kBool));
  return Type(*rep);
}
Type Type::Dynamic() {
  static const auto* rep = new std::shared_ptr<const Rep>(MakePrimitive<Rep>(Kind::kDynamic));
  return Type(*rep);
}

Type::Type() : Type(Dynamic()) {}

namespace {

template <typename RepT>
std::shared_ptr<const RepT> MakeCollection(Type::Kind kind, Type element) {
  auto rep = std::make_shared<RepT>();
  rep->kind = kind;
  rep->element.push_back(std::move(element));
  return rep;
}

}  // namespace

Type Type::List(Type element) { return Type(MakeCollection<Rep>(Kind::kList, std::move(element))); }
Type Type::Set(Type element) { return Type(MakeCollection<Rep>(Kind::kSet, std::move(element))); }
Type Type::Map(Type element) { return Type(MakeCollection<Rep>(Kind::kMap, std::move(element))); }

Type Type::Object(std::map<std::string, Type> attributes) {
  auto rep = std::make_shared<Rep>();
  rep->kind = Kind::kObject;
  rep->attributes = std::move(attributes);
  return Type(std::move(rep));
}

Type Type::Tuple(std::vector<Type> elements) {
  auto rep = std::make_shared<Rep>();
  rep->kind = Kind::kTuple;
  rep->tuple = std::move(elements);
  return Type(std::move(rep));
}

Type::Kind Type::kind() const { return rep_->kind; }

bool Type::IsPrimitive() const {
  return rep_->kind == Kind::kString || rep_->kind == Kind::kNumber || rep_->kind == Kind::kBool;
}

bool Type::IsCollection() const {
  return rep_->kind == Kind::kList || rep_->kind == Kind::kSet || rep_->kind == Kind::kMap;
}

const Type& Type::element() const {
  if (rep_->element.empty()) {
    static const Type* dynamic = new Type(Dynamic());
    return *dynamic;
  }
  return rep_->element.front();
}

const std::map<std::string, Type>& Type::attributes() const { return rep_->attributes; }

const std::vector<Type>& Type::tuple_elements() const { return rep_->tuple; }

bool operator==(const Type& a, const Type& b) {
  if (a.rep_ == b.rep_) return true;
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Type::Kind::kList:
    case Type::Kind::kSet:
    case Type::Kind::kMap:
      return a.element() == b.element();
    case Type::Kind::kObject:
      return a.attributes() == b.attributes();
    case Type::Kind::kTuple:
      return a.tuple_elements() == b.tuple_elements();
    default:
      return true;
  }
}

bool Type::ConformsTo(const Type& want) const {
  if (kind() == Kind::kDynamic || want.kind() == Kind::kDynamic) return true;
  if (kind() != want.kind()) return false;
  switch (kind()) {
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap:
      return element().ConformsTo(want.element());
    case Kind::kObject: {
      if (attributes().size() != want.attributes().size()) return false;
      for (const auto& [name, type] : attributes()) {
        auto it = want.attributes().find(name);
        if (it == want.attributes().end() || !type.ConformsTo(it->second)) return false;
      }
      return true;
    }
    case Kind::kTuple: {
      if (tuple_elements().size() != want.tuple_elements().size()) return false;
      for (size_t i = 0; i < tuple_elements().size(); ++i) {
        if (!tuple_elements()[i].ConformsTo(want.tuple_elements()[i])) return false;
      }
      return true;
    }
    default:
      return true;
  }
}

bool Type::HasDynamic() const {
  switch (kind()) {
    case Kind::kDynamic:
      return true;
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap:
      return element().HasDynamic();
    case Kind::kObject:
      for (const auto& [name, type] : attributes()) {
        if (type.HasDynamic()) return true;
      }
      return false;
    case Kind::kTuple:
      for (const Type& t : tuple_elements()) {
        if (t.HasDynamic()) return true;
      }
      return false;
    default:
      return false;
  }
}

std::string Type::ToJson() const {
  switch (kind()) {
    case Kind::kString:
      return "\"string\"";
    case Kind::kNumber:
      return "\"number\"";
    case Kind::kBool:
      return "\"bool\"";
    case Kind::kDynamic:
      return "\"dynamic\"";
    case Kind::kList:
      return absl::StrCat("[\"list\",", element().ToJson(), "]");
    case Kind::kSet:
      return absl::StrCat("[\"set\",", element().ToJson(), "]");
    case Kind::kMap:
      return absl::StrCat("[\"map\",", element().ToJson(), "]");
    case Kind::kObject: {
      std::string out = "[\"object\",{";
      bool first = true;
      for (const auto& [name, type] : attributes()) {
        absl::StrAppend(&out, first ? "" : ",", internal::JsonQuote(name), ":", type.ToJson());
        first = false;
      }
      out += "}]";
      return out;
    }
    case Kind::kTuple: {
      std::string out = "[\"tuple\",[";
      for (size_t i = 0; i < tuple_elements().size(); ++i) {
        absl::StrAppend(&out, i ? "," : "", tuple_elements()[i].ToJson());
      }
      out += "]]";
      return out;
    }
  }
  return "\"dynamic\"";
}

namespace internal {
namespace {

absl::Status TypeJsonError(const std::string& where, std::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat("invalid type JSON", where.empty() ? "" : " at ",
                                                 where, ": ", std::string(message)));
}

absl::StatusOr<Type> ParseTypeNode(const JsonNode& node, const std::string& where) {
  if (node.kind == JsonNode::Kind::kString) {
    if (node.text == "string") return Type::String();
    if (node.text == "number") return Type::Number();
    if (node.text == "bool") return Type::Bool();
    if (node.text == "dynamic") return Type::Dynamic();
    return TypeJsonError(where, absl::StrCat("unknown primitive type ", JsonQuote(node.text)));
  }
  if (node.kind != JsonNode::Kind::kArray) {
    return TypeJsonError(where,
                         absl::StrCat("a type is a string or an array, got ", node.KindName()));
  }
  if (node.items.empty() || node.items[0].kind != JsonNode::Kind::kString) {
    return TypeJsonError(where, "a complex type must start with its kind name");
  }
  const std::string& kind = node.items[0].text;
  const std::string inner = where.empty() ? kind : absl::StrCat(where, " > ", kind);
  if (kind == "list" || kind == "set" || kind == "map") {
    if (node.items.size() != 2) {
      return TypeJsonError(where, absl::StrCat("\"", kind, "\" takes exactly one element type"));
    }
    NSXALB_ASSIGN_OR_RETURN(Type element, ParseTypeNode(node.items[1], inner));
    if (kind == "list") return Type::List(std::move(element));
    if (kind == "set") return Type::Set(std::move(element));
    return Type::Map(std::move(element));
  }
  if (kind == "object") {
    // A third element lists optional attributes; it matters only for type conversion, which
    // this package does not do, so it is accepted and ignored.
    if (node.items.size() != 2 && node.items.size() != 3) {
      return TypeJsonError(where,
                           "\"object\" takes an attribute map (and optionally a list of "
                           "optional attributes)");
    }
    const JsonNode& attrs = node.items[1];
    if (attrs.kind != JsonNode::Kind::kObject) {
      return TypeJsonError(where, "\"object\" attributes must be a JSON object");
    }
    std::map<std::string, Type> types;
    for (const auto& [name, type_node] : attrs.members) {
      NSXALB_ASSIGN_OR_RETURN(
          Type t, ParseTypeNode(type_node, absl::StrCat(inner, " attribute ", JsonQuote(name))));
      if (!types.emplace(name, std::move(t)).second) {
        return TypeJsonError(where, absl::StrCat("duplicate attribute ", JsonQuote(name)));
      }
    }
    if (node.items.size() == 3) {
      const JsonNode& optional = node.items[2];
      if (optional.kind != JsonNode::Kind::kArray) {
        return TypeJsonError(where, "\"object\" optional attributes must be an array");
      }
      for (const JsonNode& name : optional.items) {
        if (name.kind != JsonNode::Kind::kString || types.count(name.text) == 0) {
          return TypeJsonError(where, "an optional attribute must name an attribute");
        }
      }
    }
    return Type::Object(std::move(types));
  }
  if (kind == "tuple") {
    if (node.items.size() != 2 || node.items[1].kind != JsonNode::Kind::kArray) {
      return TypeJsonError(where, "\"tuple\" takes an array of element types");
    }
    std::vector<Type> elements;
    for (size_t i = 0; i < node.items[1].items.size(); ++i) {
      NSXALB_ASSIGN_OR_RETURN(
          Type t, ParseTypeNode(node.items[1].items[i], absl::StrCat(inner, " element ", i)));
      elements.push_back(std::move(t));
    }
    return Type::Tuple(std::move(elements));
  }
  return TypeJsonError(where, absl::StrCat("unknown type kind ", JsonQuote(kind)));
}

}  // namespace

absl::StatusOr<Type> TypeFromJsonNode(const JsonNode& node) { return ParseTypeNode(node, ""); }

}  // namespace internal

absl::StatusOr<Type> Type::FromJson(std::string_view json) {
  absl::StatusOr<internal::JsonNode> node = internal::ParseJsonTree(json);
  if (!node.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("invalid type JSON: ", node.status().message()));
  }
  return internal::TypeFromJsonNode(*node);
}

std::string Type::FriendlyNameWithArticle() const {
  return absl::StrCat(kind() == Kind::kObject ? "an " : "a ", FriendlyName());
}

std::string Type::FriendlyName() const {
  switch (kind()) {
    case Kind::kString:
      return "string";
    case Kind::kNumber:
      return "number";
    case Kind::kBool:
      return "bool";
    case Kind::kDynamic:
      return "dynamic";
    case Kind::kList:
      return absl::StrCat("list of ", element().FriendlyName());
    case Kind::kSet:
      return absl::StrCat("set of ", element().FriendlyName());
    case Kind::kMap:
      return absl::StrCat("map of ", element().FriendlyName());
    case Kind::kObject:
      return "object";
    case Kind::kTuple:
      return "tuple";
  }
  return "dynamic";
}

std::string Type::DebugString() const {
  switch (kind()) {
    case Kind::kString:
      return "cty.String";
    case Kind::kNumber:
      return "cty.Number";
    case Kind::kBool:
      return "cty.Bool";
    case Kind::kDynamic:
      return "cty.DynamicPseudoType";
    case Kind::kList:
      return absl::StrCat("cty.List(", element().DebugString(), ")");
    case Kind::kSet:
      return absl::StrCat("cty.Set(", element().DebugString(), ")");
    case Kind::kMap:
      return absl::StrCat("cty.Map(", element().DebugString(), ")");
    case Kind::kObject: {
      if (attributes().empty()) return "cty.EmptyObject";
      std::string out = "cty.Object(map[string]cty.Type{";
      bool first = true;
      for (const auto& [name, type] : attributes()) {
        absl::StrAppend(&out, first ? "" : ", ", internal::JsonQuote(name), ":",
                        type.DebugString());
        first = false;
      }
      return out + "})";
    }
    case Kind::kTuple: {
      if (tuple_elements().empty()) return "cty.EmptyTuple";
      std::string out = "cty.Tuple([]cty.Type{";
      for (size_t i = 0; i < tuple_elements().size(); ++i) {
        absl::StrAppend(&out, i ? ", " : "", tuple_elements()[i].DebugString());
      }
      return out + "})";
    }
  }
  return "cty.DynamicPseudoType";
}

}  // namespace nsxalb::cty
