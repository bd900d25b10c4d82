// Schemas: what a provider, resource or data source accepts and produces, in the terms of
// Terraform's configschema (attributes and nested blocks). The implied type of a block is the cty
// object type every value of it has on the wire. Schemas are normally loaded from the JSON in
// provider_schema/ (see schema_json.h); tests may build them in code.
#ifndef NSXALB_PLUGIN_FRAMEWORK_SCHEMA_H_
#define NSXALB_PLUGIN_FRAMEWORK_SCHEMA_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "plugin/cty/path.h"
#include "plugin/cty/type.h"

namespace nsxalb::framework {

// How a description is formatted.
enum class DescriptionKind { kPlain, kMarkdown };

// One attribute of a block.
struct Attribute {
  std::string name;
  cty::Type type;
  std::string description;
  DescriptionKind description_kind = DescriptionKind::kPlain;
  bool required = false;
  bool optional = false;
  bool computed = false;
  bool sensitive = false;
  bool deprecated = false;
  // Framework only (never sent to Terraform): a change of this attribute replaces the object.
  bool requires_replace = false;
  // Framework only: environment variables consulted, in order, when the attribute is null in a
  // provider configuration (see ApplyEnvDefaults in provider.h).
  std::vector<std::string> env;
};

struct NestedBlock;

// A block: attributes plus nested block types, each keyed by name.
struct Block {
  std::map<std::string, Attribute> attributes;
  std::map<std::string, NestedBlock> block_types;
  std::string description;
  DescriptionKind description_kind = DescriptionKind::kPlain;
  bool deprecated = false;

  // The attribute `name`, or nullptr.
  const Attribute* FindAttribute(const std::string& name) const;
  // The nested block type `name`, or nullptr.
  const NestedBlock* FindBlockType(const std::string& name) const;
};

// A nested block type and how its instances are collected.
struct NestedBlock {
  enum class Nesting { kSingle, kList, kSet, kMap, kGroup };
  std::string type_name;
  Block block;
  Nesting nesting = Nesting::kList;
  int64_t min_items = 0;
  int64_t max_items = 0;  // 0 means unlimited
  // Framework only: any change of this block replaces the object.
  bool requires_replace = false;
};

// A versioned schema: a provider configuration, a resource type or a data source type.
struct Schema {
  int64_t version = 0;
  Block block;
};

// The cty object type of values of `block`: attributes by their type; SINGLE and GROUP blocks as
// objects, LIST as list of objects, SET as set of objects, MAP as map of objects.
cty::Type ImpliedType(const Block& block);

// Checks the rules Terraform applies to schemas (configschema InternalValidate): names match
// [a-z0-9_]+, each attribute is exactly one of required / optional / computed / optional+computed,
// nesting min/max rules, no dynamic inside SET blocks; and this framework's own limit that dynamic
// attributes may not appear inside LIST or MAP blocks. Errors name the offending path.
absl::Status ValidateSchema(const Schema& schema);

// The attribute at `path` (attribute and index steps through nested blocks), or nullptr when the
// path does not name an attribute of `block`. Used to know whether a path is sensitive.
const Attribute* AttributeAtPath(const Block& block, const cty::AttributePath& path);

// True when `path` points at or into a sensitive attribute of `block`.
bool IsSensitivePath(const Block& block, const cty::AttributePath& path);

// The nesting mode's name as in `terraform providers schema -json` ("single", "list", ...).
const char* NestingName(NestedBlock::Nesting nesting);

}  // namespace nsxalb::framework

#endif  // NSXALB_PLUGIN_FRAMEWORK_SCHEMA_H_
