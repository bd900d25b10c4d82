// Conversions between tfplugin5 protobuf messages and framework / cty types. Internal to the wire
// layer: nothing outside plugin/wire sees the generated types.
#ifndef NSXALB_PLUGIN_WIRE_CONVERT_H_
#define NSXALB_PLUGIN_WIRE_CONVERT_H_

#include <string>

#include "absl/status/statusor.h"
#include "google/protobuf/repeated_ptr_field.h"
#include "plugin/cty/path.h"
#include "plugin/cty/value.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/framework/function.h"
#include "plugin/framework/schema.h"
#include "proto/tfplugin5.pb.h"

namespace nsxalb::wire {

// Decodes a request value of `schema`'s implied type. `present` is false when the request left
// the DynamicValue unset, which means null. Malformed, truncated or mistyped input adds an error
// diagnostic naming `what` ("config", "prior_state", ...) and the attribute path, and returns
// false. Text about sensitive attributes never quotes the input.
bool DecodeValue(bool present, const tfplugin5::DynamicValue& in, const framework::Block& schema,
                 const char* what, cty::Value* out, framework::Diagnostics& diagnostics);

// Encodes a response value as msgpack. A value that does not conform to the schema adds an
// error diagnostic (a provider bug) and leaves `out` untouched.
bool EncodeValue(const cty::Value& value, const framework::Block& schema, const char* what,
                 tfplugin5::DynamicValue* out, framework::Diagnostics& diagnostics);

// Decodes a value of `type` (a function argument), msgpack or JSON; InvalidArgument naming the
// path of what does not decode.
absl::StatusOr<cty::Value> DecodeTypedValue(const tfplugin5::DynamicValue& in,
                                            const cty::Type& type);

// Encodes a value of `type` (a function result) as msgpack.
absl::Status EncodeTypedValue(const cty::Value& value, const cty::Type& type,
                              tfplugin5::DynamicValue* out);

// A function definition as the wire Function message.
void FunctionToProto(const framework::FunctionDefinition& definition, tfplugin5::Function* out);

// AttributePath conversions. PathFromProto fails on a step with no selector.
void PathToProto(const cty::AttributePath& path, tfplugin5::AttributePath* out);
bool PathFromProto(const tfplugin5::AttributePath& in, cty::AttributePath* out);

// Appends diagnostics.
void DiagnosticsToProto(const framework::Diagnostics& diagnostics,
                        google::protobuf::RepeatedPtrField<tfplugin5::Diagnostic>* out);

// A framework schema as the wire Schema message (annotations left out).
void SchemaToProto(const framework::Schema& schema, tfplugin5::Schema* out);

}  // namespace nsxalb::wire

#endif  // NSXALB_PLUGIN_WIRE_CONVERT_H_
