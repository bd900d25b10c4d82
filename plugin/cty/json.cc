// Implementation of the ctyjson codec. Decoding parses into an exact-number JSON tree, then walks
// it driven by the expected type; encoding writes the text directly so numbers keep every digit.
#include "plugin/cty/json.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "plugin/common/status_macros.h"
#include "plugin/cty/internal/json_tree.h"
#include "plugin/cty/internal/lazy_path.h"
#include "plugin/cty/internal/type_json.h"
#include "plugin/cty/path.h"

namespace nsxalb::cty {
namespace {

using internal::JsonNode;
using internal::JsonQuote;
using internal::kMaxNestingDepth;
using internal::LazyPath;

absl::StatusOr<Value> Decode(const JsonNode& node, const Type& type, const LazyPath& path) {
  if (node.kind == JsonNode::Kind::kNull) return Value::Null(type);
  auto mismatch = [&]() {
    return PathError(path.Path(), absl::StrCat(type.FriendlyNameWithArticle(), " is required, got ",
                                               node.KindName()));
  };
  switch (type.kind()) {
    case Type::Kind::kString:
      // Like ctyjson, numbers and bools are accepted where a string is expected.
      if (node.kind == JsonNode::Kind::kString || node.kind == JsonNode::Kind::kNumber) {
        return Value::String(node.text);
      }
      if (node.kind == JsonNode::Kind::kBool) return Value::String(node.boolean ? "true" : "false");
      return mismatch();
    case Type::Kind::kNumber: {
      if (node.kind != JsonNode::Kind::kNumber && node.kind != JsonNode::Kind::kString) {
        return mismatch();
      }
      absl::StatusOr<Number> n = Number::FromDecimal(node.text);
      if (!n.ok()) return PathError(path.Path(), "a number is required, got string");
      return Value::NumberVal(*std::move(n));
    }
    case Type::Kind::kBool:
      if (node.kind == JsonNode::Kind::kBool) return Value::Bool(node.boolean);
      if (node.kind == JsonNode::Kind::kString && (node.text == "true" || node.text == "false")) {
        return Value::Bool(node.text == "true");
      }
      return mismatch();
    case Type::Kind::kList:
    case Type::Kind::kSet:
    case Type::Kind::kTuple: {
      if (node.kind != JsonNode::Kind::kArray) return mismatch();
      if (type.kind() == Type::Kind::kTuple && node.items.size() != type.tuple_elements().size()) {
        return PathError(path.Path(),
                         absl::StrCat("a tuple of ", type.tuple_elements().size(),
                                      " elements is required (", node.items.size(), " given)"));
      }
      std::vector<Value> elements;
      for (size_t i = 0; i < node.items.size(); ++i) {
        const Type& element_type =
            type.kind() == Type::Kind::kTuple ? type.tuple_elements()[i] : type.element();
        NSXALB_ASSIGN_OR_RETURN(
            Value e, Decode(node.items[i], element_type, path.Index(static_cast<int64_t>(i))));
        elements.push_back(std::move(e));
      }
      if (type.kind() == Type::Kind::kList) return Value::List(type.element(), std::move(elements));
      if (type.kind() == Type::Kind::kSet) return Value::Set(type.element(), std::move(elements));
      return Value::Tuple(std::move(elements));
    }
    case Type::Kind::kMap: {
      if (node.kind != JsonNode::Kind::kObject) return mismatch();
      std::map<std::string, Value> entries;
      for (const auto& [key, member] : node.members) {
        NSXALB_ASSIGN_OR_RETURN(Value e, Decode(member, type.element(), path.ElementKey(key)));
        if (!entries.emplace(key, std::move(e)).second) {
          return PathError(path.Path().ElementKey(key), "map key given more than once");
        }
      }
      return Value::Map(type.element(), std::move(entries));
    }
    case Type::Kind::kObject: {
      if (node.kind != JsonNode::Kind::kObject) return mismatch();
      std::map<std::string, Value> attributes;
      for (const auto& [name, member] : node.members) {
        auto it = type.attributes().find(name);
        if (it == type.attributes().end()) {
          return PathError(path.Path(), absl::StrCat("unsupported attribute ", JsonQuote(name)));
        }
        NSXALB_ASSIGN_OR_RETURN(Value e, Decode(member, it->second, path.Attribute(name)));
        if (!attributes.emplace(name, std::move(e)).second) {
          return PathError(path.Path().Attribute(name), "attribute given more than once");
        }
      }
      // State written under an older schema may lack attributes added since: they are null.
      return Value::ObjectOf(type, std::move(attributes));
    }
    case Type::Kind::kDynamic: {
      if (node.kind != JsonNode::Kind::kObject) {
        return PathError(path.Path(),
                         absl::StrCat("a dynamic value must be an object with \"value\" "
                                      "and \"type\", got ",
                                      node.KindName()));
      }
      const JsonNode* value_node = nullptr;
      const JsonNode* type_node = nullptr;
      for (const auto& [name, member] : node.members) {
        if (name == "value" && value_node == nullptr) {
          value_node = &member;
        } else if (name == "type" && type_node == nullptr) {
          type_node = &member;
        } else {
          return PathError(path.Path(),
                           absl::StrCat("a dynamic value has only \"value\" and \"type\", "
                                        "got ",
                                        JsonQuote(name)));
        }
      }
      if (value_node == nullptr || type_node == nullptr) {
        return PathError(path.Path(),
                         "a dynamic value must be an object with \"value\" and \"type\"");
      }
      absl::StatusOr<Type> concrete = internal::TypeFromJsonNode(*type_node);
      if (!concrete.ok()) {
        return PathError(path.Path(),
                         absl::StrCat("a dynamic value's type: ", concrete.status().message()));
      }
      return Decode(*value_node, *concrete, path);
    }
  }
  return mismatch();
}

absl::Status Encode(std::string* out, const Value& value, const Type& type, const LazyPath& path,
                    int depth) {
  if (depth > kMaxNestingDepth) {
    return PathError(path.Path(),
                     absl::StrCat("value nested deeper than ", kMaxNestingDepth, " levels"));
  }
  if (!value.IsKnown()) return PathError(path.Path(), "value is not known");
  if (value.IsNull()) {
    out->append("null");
    return absl::OkStatus();
  }
  if (type.kind() == Type::Kind::kDynamic) {
    out->append("{\"value\":");
    NSXALB_RETURN_IF_ERROR(Encode(out, value, value.type(), path, depth + 1));
    absl::StrAppend(out, ",\"type\":", value.type().ToJson(), "}");
    return absl::OkStatus();
  }
  if (value.type().kind() != type.kind()) {
    return PathError(path.Path(), absl::StrCat(type.FriendlyNameWithArticle(), " is required, got ",
                                               value.type().FriendlyName()));
  }
  switch (type.kind()) {
    case Type::Kind::kString:
      out->append(JsonQuote(value.AsString()));
      return absl::OkStatus();
    case Type::Kind::kNumber: {
      const std::string text = value.AsNumber().ToString();
      if (text == "NaN" || value.AsNumber().IsInfinity()) {
        return PathError(path.Path(), absl::StrCat(text, " cannot be written as JSON"));
      }
      out->append(text);
      return absl::OkStatus();
    }
    case Type::Kind::kBool:
      out->append(value.AsBool() ? "true" : "false");
      return absl::OkStatus();
    case Type::Kind::kList:
    case Type::Kind::kSet:
    case Type::Kind::kTuple: {
      if (type.kind() == Type::Kind::kTuple &&
          value.elements().size() != type.tuple_elements().size()) {
        return PathError(path.Path(), absl::StrCat("a tuple of ", type.tuple_elements().size(),
                                                   " elements is required (",
                                                   value.elements().size(), " given)"));
      }
      out->append("[");
      for (size_t i = 0; i < value.elements().size(); ++i) {
        if (i) out->append(",");
        const Type& element_type =
            type.kind() == Type::Kind::kTuple ? type.tuple_elements()[i] : type.element();
        NSXALB_RETURN_IF_ERROR(Encode(out, value.elements()[i], element_type,
                                      path.Index(static_cast<int64_t>(i)), depth + 1));
      }
      out->append("]");
      return absl::OkStatus();
    }
    case Type::Kind::kMap: {
      out->append("{");
      bool first = true;
      for (const auto& [key, e] : value.entries()) {
        absl::StrAppend(out, first ? "" : ",", JsonQuote(key), ":");
        first = false;
        NSXALB_RETURN_IF_ERROR(Encode(out, e, type.element(), path.ElementKey(key), depth + 1));
      }
      out->append("}");
      return absl::OkStatus();
    }
    case Type::Kind::kObject: {
      for (const auto& [name, e] : value.entries()) {
        if (type.attributes().count(name) == 0) {
          return PathError(path.Path(), absl::StrCat("unsupported attribute ", JsonQuote(name)));
        }
      }
      out->append("{");
      bool first = true;
      for (const auto& [name, attr_type] : type.attributes()) {
        const Value* attr = value.GetAttribute(name);
        if (attr == nullptr) {
          return PathError(path.Path(),
                           absl::StrCat("attribute ", JsonQuote(name), " is required"));
        }
        absl::StrAppend(out, first ? "" : ",", JsonQuote(name), ":");
        first = false;
        NSXALB_RETURN_IF_ERROR(Encode(out, *attr, attr_type, path.Attribute(name), depth + 1));
      }
      out->append("}");
      return absl::OkStatus();
    }
    case Type::Kind::kDynamic:
      break;
  }
  return PathError(path.Path(), "value of unsupported type");
}

}  // namespace

absl::StatusOr<Value> DecodeJson(std::string_view json, const Type& type) {
  absl::StatusOr<JsonNode> tree = internal::ParseJsonTree(json);
  if (!tree.ok()) return PathError(AttributePath(), std::string(tree.status().message()));
  return Decode(*tree, type, LazyPath());
}

nlohmann::json PrimitiveJson(const Value& value) {
  if (value.IsNull() || !value.IsKnown()) return nullptr;
  switch (value.type().kind()) {
    case Type::Kind::kString:
      return value.AsString();
    case Type::Kind::kBool:
      return value.AsBool();
    case Type::Kind::kNumber: {
      absl::StatusOr<int64_t> i = value.AsNumber().AsInt64();
      if (i.ok()) return *i;
      return value.AsNumber().AsDouble();
    }
    default:
      return nullptr;
  }
}

absl::StatusOr<std::string> EncodeJson(const Value& value, const Type& type) {
  std::string out;
  NSXALB_RETURN_IF_ERROR(Encode(&out, value, type, LazyPath(), 0));
  return out;
}

}  // namespace nsxalb::cty
