// The JSON form of schemas, the format of provider_schema/: one schema per file, shaped like one
// schema entry of `terraform providers schema -json`:
//   {"version":0,"block":{"attributes":{"name":{"type":"string","description":"...",
//    "description_kind":"plain","required":true}},"block_types":{"b":{"nesting_mode":"list",
//    "block":{...},"min_items":0,"max_items":2}},"description":"...","description_kind":"plain"}}
// plus framework-only annotations under an "nsxalb" key of an attribute or block type:
//   "nsxalb":{"requires_replace":true,"env":["NSXALB_CONTROLLER"]}
// Annotations never reach Terraform: SchemaToJson and the wire leave them out.
#ifndef NSXALB_PLUGIN_FRAMEWORK_SCHEMA_JSON_H_
#define NSXALB_PLUGIN_FRAMEWORK_SCHEMA_JSON_H_

#include <map>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "plugin/framework/schema.h"

namespace nsxalb::framework {

// Parses and validates (ValidateSchema) one schema. Unknown keys, wrong JSON types, bad type
// expressions and rule violations are InvalidArgument errors naming the JSON location, e.g.
// "block.attributes.name.type: ...".
absl::StatusOr<Schema> ParseSchemaJson(std::string_view json);

// The schema as `terraform providers schema -json` prints it (compact, no annotations).
std::string SchemaToJson(const Schema& schema);

// A whole `terraform providers schema -json` document for one provider:
// {"format_version":"1.0","provider_schemas":{ADDRESS:{"provider":…,"resource_schemas":{…},
//  "data_source_schemas":{…}}}}, pretty-printed with two-space indentation.
std::string ProviderSchemasJson(const std::string& provider_address, const Schema& provider,
                                const std::map<std::string, Schema>& resources,
                                const std::map<std::string, Schema>& data_sources);

}  // namespace nsxalb::framework

#endif  // NSXALB_PLUGIN_FRAMEWORK_SCHEMA_JSON_H_
