// Internal to nsxalb_cty: the type notation read from an already parsed JSON tree (dynamic values
// in ctyjson carry their type as a JSON value, not as text).
#ifndef NSXALB_PLUGIN_CTY_INTERNAL_TYPE_JSON_H_
#define NSXALB_PLUGIN_CTY_INTERNAL_TYPE_JSON_H_

#include "absl/status/statusor.h"
#include "plugin/cty/internal/json_tree.h"
#include "plugin/cty/type.h"

namespace nsxalb::cty::internal {

// Reads the JSON type notation from `node`. Errors (kInvalidArgument) name the offending part.
absl::StatusOr<Type> TypeFromJsonNode(const JsonNode& node);

}  // namespace nsxalb::cty::internal

#endif  // NSXALB_PLUGIN_CTY_INTERNAL_TYPE_JSON_H_
