// The JSON encoding of cty values (ctyjson): RawState.json in UpgradeResourceState, and the
// `terraform show -json`-like output of the CLI. Unknown values cannot be represented in JSON.
#ifndef NSXALB_PLUGIN_CTY_JSON_H_
#define NSXALB_PLUGIN_CTY_JSON_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "plugin/cty/type.h"
#include "plugin/cty/value.h"

namespace nsxalb::cty {

// Decodes JSON text (compact or pretty-printed) as a value of `type`. An object missing some
// attributes decodes with those attributes null (state written by an older schema); an attribute
// not in `type` is an error naming it. Errors are made with PathError.
absl::StatusOr<Value> DecodeJson(std::string_view json, const Type& type);

// Encodes a wholly known value as compact JSON. Dynamic values become {"value":…,"type":…}.
absl::StatusOr<std::string> EncodeJson(const Value& value, const Type& type);

}  // namespace nsxalb::cty

#endif  // NSXALB_PLUGIN_CTY_JSON_H_
