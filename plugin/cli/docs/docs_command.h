// `terraform-provider-nsxalb docs --out DIR`: the provider's documentation in the Terraform
// Registry's layout (index.md, resources/<name>.md, data-sources/<name>.md), generated from the
// embedded schemas (provider_schema/) and the HCL under examples/, the way tfplugindocs does for
// Go providers. Each page has its examples, an argument reference (required, optional, read-only;
// sensitive and replacing arguments marked), the import syntax where there is one, and the sizing
// rules (sizing/rules.h) that decide or check each attribute. The output is deterministic, so a
// test can fail when the committed docs differ from it.
#ifndef NSXALB_PLUGIN_CLI_DOCS_DOCS_COMMAND_H_
#define NSXALB_PLUGIN_CLI_DOCS_DOCS_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

namespace nsxalb::cli {

// Runs the `docs` subcommand. `args` are the arguments after "docs": --out DIR (default "docs",
// the Registry's place at the repository root) and --examples DIR (default "examples"). Returns 0
// when every page was written, 1 when a file cannot be read or written, 2 on a usage error.
int RunDocsCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_DOCS_DOCS_COMMAND_H_
