// Being written (issue 3); replaced by the sizing implementation.
#include "plugin/cli/size_command.h"

namespace nsxalb::cli {
int RunSizeCommand(const std::vector<std::string>&, std::ostream&, std::ostream& err) {
  err << "size: not built yet\n";
  return 2;
}
}  // namespace nsxalb::cli
