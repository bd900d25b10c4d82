// The JSON encoding of cty values (ctyjson): RawState.json in UpgradeResourceState, and the
// `terraform show -json`-like output of the CLI. Unknown values cannot be represented in JSON.
// Also one primitive value as a JSON value, for code that hands cty values to JSON APIs (the
// domain's settings, the Controller's fields).
#ifndef NSXALB_PLUGIN_CTY_JSON_H_
#define NSXALB_PLUGIN_CTY_JSON_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "plugin/cty/type.h"
#include "plugin/cty/value.h"

namespace nsxalb::cty {

// Decodes JSON text (compact or pretty-printed) as a value of `type`. An object missing some
// attributes decodes with those attributes null (state written by an older schema); an attribute
// not in `type` is an error naming it. Errors are made with PathError.
absl::StatusOr<Value> DecodeJson(std::string_view json, const Type& type);

// Encodes a wholly known value as compact JSON. Dynamic values become {"value":…,"type":…}.
absl::StatusOr<std::string> EncodeJson(const Value& value, const Type& type);

// A known primitive value as a JSON value: a string, a bool, or a number (an integer when it is
// whole and fits int64, else the nearest double). JSON null for a null or unknown value and for
// any value that is not a primitive.
nlohmann::json PrimitiveJson(const Value& value);

}  // namespace nsxalb::cty

#endif  // NSXALB_PLUGIN_CTY_JSON_H_
