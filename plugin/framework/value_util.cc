// Value helpers implementation.
#include "plugin/framework/value_util.h"

#include <map>
#include <vector>

#include "absl/strings/str_cat.h"

namespace nsxalb::framework {

using Kind = cty::Type::Kind;

cty::Value EmptyObject(const Block& block) {
  std::map<std::string, cty::Value> attrs;
  for (const auto& [name, attr] : block.attributes)
    attrs.emplace(name, cty::Value::Null(attr.type));
  for (const auto& [name, nested] : block.block_types) {
    const cty::Type inner = ImpliedType(nested.block);
    switch (nested.nesting) {
      case NestedBlock::Nesting::kSingle:
        attrs.emplace(name, cty::Value::Null(inner));
        break;
      case NestedBlock::Nesting::kGroup:
        attrs.emplace(name, EmptyObject(nested.block));
        break;
      case NestedBlock::Nesting::kList:
        attrs.emplace(name, cty::Value::List(inner, {}));
        break;
      case NestedBlock::Nesting::kSet:
        attrs.emplace(name, cty::Value::Set(inner, {}));
        break;
      case NestedBlock::Nesting::kMap:
        attrs.emplace(name, cty::Value::Map(inner, {}));
        break;
    }
  }
  return cty::Value::ObjectOf(ImpliedType(block), std::move(attrs));
}

cty::Value NormalizeBlocks(const Block& block, const cty::Value& value) {
  if (value.IsNull() || !value.IsKnown() || value.type().kind() != Kind::kObject) return value;
  cty::Value out = value;
  for (const auto& [name, nested] : block.block_types) {
    const cty::Value* current = value.GetAttribute(name);
    if (current == nullptr || !current->IsKnown()) continue;
    const cty::Type inner = ImpliedType(nested.block);
    cty::Value replaced = *current;
    switch (nested.nesting) {
      case NestedBlock::Nesting::kSingle:
        replaced = NormalizeBlocks(nested.block, *current);
        break;
      case NestedBlock::Nesting::kGroup:
        replaced =
            current->IsNull() ? EmptyObject(nested.block) : NormalizeBlocks(nested.block, *current);
        break;
      case NestedBlock::Nesting::kList:
      case NestedBlock::Nesting::kSet: {
        std::vector<cty::Value> elems;
        if (!current->IsNull()) {
          for (const cty::Value& e : current->elements()) {
            elems.push_back(NormalizeBlocks(nested.block, e));
          }
        }
        replaced = nested.nesting == NestedBlock::Nesting::kList
                       ? cty::Value::List(inner, std::move(elems))
                       : cty::Value::Set(inner, std::move(elems));
        break;
      }
      case NestedBlock::Nesting::kMap: {
        std::map<std::string, cty::Value> elems;
        if (!current->IsNull()) {
          for (const auto& [k, e] : current->entries()) {
            elems.emplace(k, NormalizeBlocks(nested.block, e));
          }
        }
        replaced = cty::Value::Map(inner, std::move(elems));
        break;
      }
    }
    out = out.WithAttribute(name, replaced);
  }
  return out;
}

std::optional<cty::AttributePath> FirstUnknown(const cty::Value& value,
                                               const cty::AttributePath& path) {
  if (!value.IsKnown()) return path;
  if (value.IsNull()) return std::nullopt;
  switch (value.type().kind()) {
    case Kind::kList:
    case Kind::kSet:
    case Kind::kTuple: {
      int64_t i = 0;
      for (const cty::Value& e : value.elements()) {
        if (auto p = FirstUnknown(e, path.Index(i))) return p;
        ++i;
      }
      return std::nullopt;
    }
    case Kind::kMap:
      for (const auto& [k, e] : value.entries()) {
        if (auto p = FirstUnknown(e, path.ElementKey(k))) return p;
      }
      return std::nullopt;
    case Kind::kObject:
      for (const auto& [k, e] : value.entries()) {
        if (auto p = FirstUnknown(e, path.Attribute(k))) return p;
      }
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

cty::Value GetAttr(const cty::Value& object, const std::string& name, const cty::Type& type) {
  if (!object.IsKnown()) return cty::Value::Unknown(type);
  if (object.IsNull() || object.type().kind() != Kind::kObject) return cty::Value::Null(type);
  const cty::Value* v = object.GetAttribute(name);
  return v == nullptr ? cty::Value::Null(type) : *v;
}

std::optional<cty::Value> ValueAtPath(const cty::Value& value, const cty::AttributePath& path) {
  cty::Value current = value;
  for (const auto& step : path.steps()) {
    if (!current.IsKnown()) return cty::Value::Unknown(cty::Type::Dynamic());
    if (current.IsNull()) return std::nullopt;
    const Kind kind = current.type().kind();
    switch (step.kind) {
      case cty::AttributePath::Step::Kind::kAttribute: {
        if (kind != Kind::kObject) return std::nullopt;
        const cty::Value* v = current.GetAttribute(step.name);
        if (v == nullptr) return std::nullopt;
        current = *v;
        break;
      }
      case cty::AttributePath::Step::Kind::kElementKeyString: {
        if (kind != Kind::kMap && kind != Kind::kObject) return std::nullopt;
        auto it = current.entries().find(step.name);
        if (it == current.entries().end()) return std::nullopt;
        current = it->second;
        break;
      }
      case cty::AttributePath::Step::Kind::kElementKeyInt: {
        if (kind != Kind::kList && kind != Kind::kTuple) return std::nullopt;
        if (step.index < 0 || static_cast<size_t>(step.index) >= current.elements().size()) {
          return std::nullopt;
        }
        current = current.elements()[static_cast<size_t>(step.index)];
        break;
      }
    }
  }
  return current;
}

bool RawEquals(const cty::Value& a, const cty::Value& b) {
  if (!a.IsKnown() || !b.IsKnown()) {
    if (a.IsKnown() != b.IsKnown()) return false;
    return a.type() == b.type() || a.type().kind() == Kind::kDynamic ||
           b.type().kind() == Kind::kDynamic;
  }
  if (a.IsNull() || b.IsNull()) return a.IsNull() && b.IsNull();
  return a.Equals(b);
}

}  // namespace nsxalb::framework
