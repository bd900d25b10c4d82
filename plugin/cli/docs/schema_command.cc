// `terraform-provider-nsxalb schema --json`: the embedded schemas, read through the same
// framework engine that serves GetSchema, printed like `terraform providers schema -json`.
#include "plugin/cli/docs/schema_command.h"

#include "plugin/framework/provider_server.h"
#include "plugin/framework/schema_json.h"
#include "plugin/provider/provider.h"

namespace nsxalb::cli {

namespace {

constexpr char kSchemaUsage[] = R"(Usage: terraform-provider-nsxalb schema --json

Prints the provider's schemas (the provider block, every resource and every data source) in
the format of `terraform providers schema -json`, read from the schemas embedded in the binary.
)";

}  // namespace

int RunSchemaCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    out << kSchemaUsage;
    return 0;
  }
  if (args.size() != 1 || args[0] != "--json") {
    err << kSchemaUsage;
    return 2;
  }
  framework::ProviderServer server(provider::NewProvider());
  if (server.schema_diagnostics().HasError()) {
    err << "schema: the embedded schemas are invalid:\n" << server.schema_diagnostics().ToString();
    return 1;
  }
  out << framework::ProviderSchemasJson(provider::kProviderAddress, server.provider_schema(),
                                        server.resource_schemas(), server.data_source_schemas())
      << "\n";
  return out.good() ? 0 : 1;
}

}  // namespace nsxalb::cli
