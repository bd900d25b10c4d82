// Schema implementation: implied types and Terraform's schema rules.
#include "plugin/framework/schema.h"

#include <string>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "plugin/common/status_macros.h"

namespace nsxalb::framework {
namespace {

bool ValidName(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

bool ContainsDynamic(const cty::Type& type) {
  switch (type.kind()) {
    case cty::Type::Kind::kDynamic:
      return true;
    case cty::Type::Kind::kList:
    case cty::Type::Kind::kSet:
    case cty::Type::Kind::kMap:
      return ContainsDynamic(type.element());
    case cty::Type::Kind::kObject:
      for (const auto& [name, t] : type.attributes()) {
        if (ContainsDynamic(t)) return true;
      }
      return false;
    case cty::Type::Kind::kTuple:
      for (const auto& t : type.tuple_elements()) {
        if (ContainsDynamic(t)) return true;
      }
      return false;
    default:
      return false;
  }
}

bool BlockContainsDynamic(const Block& block) {
  for (const auto& [name, attr] : block.attributes) {
    if (ContainsDynamic(attr.type)) return true;
  }
  for (const auto& [name, nested] : block.block_types) {
    if (BlockContainsDynamic(nested.block)) return true;
  }
  return false;
}

absl::Status ValidateBlock(const Block& block, const cty::AttributePath& path) {
  for (const auto& [name, attr] : block.attributes) {
    const cty::AttributePath at = path.Attribute(name);
    if (!ValidName(name) || attr.name != name) {
      return cty::PathError(at, "attribute names must match [a-z0-9_]+ and equal their key");
    }
    if (block.block_types.count(name) != 0) {
      return cty::PathError(at, "an attribute and a block type share this name");
    }
    if (!attr.required && !attr.optional && !attr.computed) {
      return cty::PathError(at, "one of required, optional or computed must be set");
    }
    if (attr.required && attr.optional) {
      return cty::PathError(at, "required and optional are mutually exclusive");
    }
    if (attr.required && attr.computed) {
      return cty::PathError(at, "required and computed are mutually exclusive");
    }
  }
  for (const auto& [name, nested] : block.block_types) {
    const cty::AttributePath at = path.Attribute(name);
    if (!ValidName(name) || nested.type_name != name) {
      return cty::PathError(at, "block type names must match [a-z0-9_]+ and equal their key");
    }
    if (nested.min_items < 0 || nested.max_items < 0) {
      return cty::PathError(at, "min_items and max_items must not be negative");
    }
    switch (nested.nesting) {
      case NestedBlock::Nesting::kSingle:
        if (nested.min_items != nested.max_items || nested.min_items > 1) {
          return cty::PathError(at, "a single block needs min_items = max_items, both 0 or 1");
        }
        break;
      case NestedBlock::Nesting::kGroup:
      case NestedBlock::Nesting::kMap:
        if (nested.min_items != 0 || nested.max_items != 0) {
          return cty::PathError(at, "group and map blocks cannot have min_items or max_items");
        }
        break;
      case NestedBlock::Nesting::kList:
      case NestedBlock::Nesting::kSet:
        if (nested.max_items != 0 && nested.min_items > nested.max_items) {
          return cty::PathError(at, "min_items is greater than max_items");
        }
        break;
    }
    if (nested.nesting == NestedBlock::Nesting::kSet && BlockContainsDynamic(nested.block)) {
      return cty::PathError(at, "set blocks cannot contain dynamic attributes");
    }
    if ((nested.nesting == NestedBlock::Nesting::kList ||
         nested.nesting == NestedBlock::Nesting::kMap) &&
        BlockContainsDynamic(nested.block)) {
      return cty::PathError(
          at, "list and map blocks cannot contain dynamic attributes in this framework");
    }
    NSXALB_RETURN_IF_ERROR(ValidateBlock(nested.block, at));
  }
  return absl::OkStatus();
}

}  // namespace

const Attribute* Block::FindAttribute(const std::string& name) const {
  auto it = attributes.find(name);
  return it == attributes.end() ? nullptr : &it->second;
}

const NestedBlock* Block::FindBlockType(const std::string& name) const {
  auto it = block_types.find(name);
  return it == block_types.end() ? nullptr : &it->second;
}

namespace {

cty::Type BuildImpliedType(const Block& block);

// The type a nested block's instances have in its parent's object type.
cty::Type NestedType(const NestedBlock& nested, cty::Type inner) {
  switch (nested.nesting) {
    case NestedBlock::Nesting::kList:
      return cty::Type::List(std::move(inner));
    case NestedBlock::Nesting::kSet:
      return cty::Type::Set(std::move(inner));
    case NestedBlock::Nesting::kMap:
      return cty::Type::Map(std::move(inner));
    case NestedBlock::Nesting::kSingle:
    case NestedBlock::Nesting::kGroup:
      break;
  }
  return inner;
}

cty::Type BuildImpliedType(const Block& block) {
  std::map<std::string, cty::Type> attrs;
  for (const auto& [name, attr] : block.attributes) attrs.emplace(name, attr.type);
  for (const auto& [name, nested] : block.block_types) {
    attrs.emplace(name, NestedType(nested, ImpliedType(nested.block)));
  }
  return cty::Type::Object(std::move(attrs));
}

// Whether `type` equals what BuildImpliedType(block) would build, found without building it:
// the object's attribute names are the block's attribute and block type names (both sorted, so
// one merged walk), each with the same type.
bool IsImpliedTypeOf(const cty::Type& type, const Block& block) {
  if (type.kind() != cty::Type::Kind::kObject) return false;
  const auto& attrs = type.attributes();
  if (attrs.size() != block.attributes.size() + block.block_types.size()) return false;
  auto attribute = block.attributes.begin();
  auto nested = block.block_types.begin();
  for (const auto& [name, t] : attrs) {
    if (attribute != block.attributes.end() && attribute->first == name) {
      if (!(t == attribute->second.type)) return false;
      ++attribute;
    } else if (nested != block.block_types.end() && nested->first == name) {
      const NestedBlock& n = nested->second;
      const bool single =
          n.nesting == NestedBlock::Nesting::kSingle || n.nesting == NestedBlock::Nesting::kGroup;
      if (single) {
        if (!IsImpliedTypeOf(t, n.block)) return false;
      } else {
        const cty::Type::Kind want =
            n.nesting == NestedBlock::Nesting::kList  ? cty::Type::Kind::kList
            : n.nesting == NestedBlock::Nesting::kSet ? cty::Type::Kind::kSet
                                                      : cty::Type::Kind::kMap;
        if (t.kind() != want || !IsImpliedTypeOf(t.element(), n.block)) return false;
      }
      ++nested;
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

cty::Type ImpliedType(const Block& block) {
  // Every RPC asks for the implied type of its schema several times (decode, encode, plan rules),
  // and building it allocates a map entry per attribute. Each thread keeps the last type built
  // for a block's address and hands it out again after checking, with no allocation, that it
  // still is that block's type (a block at a reused address, or one changed since, gets a new
  // one). Sharing the type also makes later type comparisons pointer comparisons.
  constexpr size_t kMaxCached = 256;
  thread_local std::unordered_map<const Block*, cty::Type> cache;
  auto it = cache.find(&block);
  if (it != cache.end() && IsImpliedTypeOf(it->second, block)) return it->second;
  cty::Type built = BuildImpliedType(block);
  if (cache.size() >= kMaxCached) cache.clear();
  cache[&block] = built;
  return built;
}

absl::Status ValidateSchema(const Schema& schema) {
  if (schema.version < 0) return absl::InvalidArgumentError("schema version must be >= 0");
  return ValidateBlock(schema.block, cty::AttributePath());
}

const Attribute* AttributeAtPath(const Block& block, const cty::AttributePath& path) {
  const Block* current = &block;
  const auto& steps = path.steps();
  size_t i = 0;
  while (i < steps.size()) {
    if (steps[i].kind != cty::AttributePath::Step::Kind::kAttribute) return nullptr;
    if (const Attribute* attr = current->FindAttribute(steps[i].name)) {
      return i + 1 == steps.size() ? attr : nullptr;
    }
    const NestedBlock* nested = current->FindBlockType(steps[i].name);
    if (nested == nullptr) return nullptr;
    ++i;
    if (nested->nesting != NestedBlock::Nesting::kSingle &&
        nested->nesting != NestedBlock::Nesting::kGroup) {
      if (i >= steps.size()) return nullptr;
      if (steps[i].kind == cty::AttributePath::Step::Kind::kAttribute) return nullptr;
      ++i;
    }
    current = &nested->block;
  }
  return nullptr;
}

bool IsSensitivePath(const Block& block, const cty::AttributePath& path) {
  // Any prefix of the path naming a sensitive attribute makes the whole path sensitive.
  std::vector<cty::AttributePath::Step> prefix;
  for (const auto& step : path.steps()) {
    prefix.push_back(step);
    const Attribute* attr = AttributeAtPath(block, cty::AttributePath(prefix));
    if (attr != nullptr && attr->sensitive) return true;
  }
  return false;
}

const char* NestingName(NestedBlock::Nesting nesting) {
  switch (nesting) {
    case NestedBlock::Nesting::kSingle:
      return "single";
    case NestedBlock::Nesting::kList:
      return "list";
    case NestedBlock::Nesting::kSet:
      return "set";
    case NestedBlock::Nesting::kMap:
      return "map";
    case NestedBlock::Nesting::kGroup:
      return "group";
  }
  return "list";
}

}  // namespace nsxalb::framework
