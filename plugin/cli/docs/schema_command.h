// `terraform-provider-nsxalb schema --json`: prints the embedded provider schema in the shape of
// `terraform providers schema -json`.
#ifndef NSXALB_PLUGIN_CLI_DOCS_SCHEMA_COMMAND_H_
#define NSXALB_PLUGIN_CLI_DOCS_SCHEMA_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

namespace nsxalb::cli {

// Runs the `schema` subcommand. `args` are the arguments after "schema". Returns the exit code.
int RunSchemaCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_DOCS_SCHEMA_COMMAND_H_
