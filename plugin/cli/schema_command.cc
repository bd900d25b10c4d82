// Being written (issue 2); replaced by the schema implementation.
#include "plugin/cli/schema_command.h"

namespace nsxalb::cli {
int RunSchemaCommand(const std::vector<std::string>&, std::ostream&, std::ostream& err) {
  err << "schema: not built yet\n";
  return 2;
}
}  // namespace nsxalb::cli
