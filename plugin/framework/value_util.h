// Schema-aware helpers over cty values used by the engine and by providers: empty objects,
// conformance checks, unknown handling and path lookups.
#ifndef NSXALB_PLUGIN_FRAMEWORK_VALUE_UTIL_H_
#define NSXALB_PLUGIN_FRAMEWORK_VALUE_UTIL_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "plugin/cty/path.h"
#include "plugin/cty/type.h"
#include "plugin/cty/value.h"
#include "plugin/framework/schema.h"

namespace nsxalb::framework {

// An object of `block` with every attribute null, LIST/SET/MAP blocks empty, SINGLE blocks null
// and GROUP blocks empty objects: what a block with nothing configured looks like.
cty::Value EmptyObject(const Block& block);

// Returns `value` (an object of `block`) with null LIST/SET/MAP blocks made empty and null GROUP
// blocks made empty objects, recursively; Terraform expects those never to be null.
cty::Value NormalizeBlocks(const Block& block, const cty::Value& value);

// The path of the first unknown value inside `value`, if any.
std::optional<cty::AttributePath> FirstUnknown(const cty::Value& value,
                                               const cty::AttributePath& path = {});

// The attribute `name` of an object value: a null / unknown of `type` when the object itself is
// null / unknown or lacks the attribute.
cty::Value GetAttr(const cty::Value& object, const std::string& name, const cty::Type& type);

// The value at `path`: nullopt when the path leads through a null or missing element; an unknown
// (dynamic) when it leads through an unknown.
std::optional<cty::Value> ValueAtPath(const cty::Value& value, const cty::AttributePath& path);

// Equality as Terraform's RawEquals: unknowns of compatible types are equal, nulls are equal
// regardless of type, otherwise deep equality.
bool RawEquals(const cty::Value& a, const cty::Value& b);

}  // namespace nsxalb::framework

#endif  // NSXALB_PLUGIN_FRAMEWORK_VALUE_UTIL_H_
