// The provider's schemas (provider_schema/*.json), embedded in the binary at build time. This is
// the single source of truth: the provider builds its framework schemas from these texts, the
// `schema --json` command prints them, and tests prove GetSchema over the wire equals them.
// Format: see plugin/framework/schema_json.h.
#ifndef NSXALB_PROVIDER_SCHEMA_EMBEDDED_H_
#define NSXALB_PROVIDER_SCHEMA_EMBEDDED_H_

#include <string_view>
#include <vector>

namespace nsxalb::provider_schema {

// One schema file: its type name (the file name without .json) and its JSON text.
struct EmbeddedSchema {
  std::string_view name;
  std::string_view json;
};

// provider_schema/provider.json: the provider block.
std::string_view ProviderJson();
// provider_schema/resources/*.json, sorted by name.
const std::vector<EmbeddedSchema>& ResourceJson();
// provider_schema/data_sources/*.json, sorted by name.
const std::vector<EmbeddedSchema>& DataSourceJson();

}  // namespace nsxalb::provider_schema

#endif  // NSXALB_PROVIDER_SCHEMA_EMBEDDED_H_
