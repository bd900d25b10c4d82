// The msgpack encoding of cty values used in tfplugin5 DynamicValue.msgpack.
//
// Decoding is driven by the expected type and names the attribute path of every error. Unknown is
// written as fixext1 type 0 (d4 00 00); any ext type read is unknown (refined unknowns, type 12,
// included). Numbers are written as the smallest int, else float64, else a decimal string. Objects
// carry every attribute of their type. Dynamic values are [type JSON as bin, value].
#ifndef NSXALB_PLUGIN_CTY_MSGPACK_H_
#define NSXALB_PLUGIN_CTY_MSGPACK_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "plugin/cty/type.h"
#include "plugin/cty/value.h"

namespace nsxalb::cty {

// Decodes `bytes` as a value of `type`. Malformed, truncated or mistyped input gives an
// InvalidArgument status made with PathError (so ErrorPath names the attribute); never a crash.
absl::StatusOr<Value> DecodeMsgpack(std::string_view bytes, const Type& type);

// Encodes `value` conforming to `type`. Fails (with a path) when the value does not conform.
absl::StatusOr<std::string> EncodeMsgpack(const Value& value, const Type& type);

}  // namespace nsxalb::cty

#endif  // NSXALB_PLUGIN_CTY_MSGPACK_H_
