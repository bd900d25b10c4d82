// Tables for a terminal: columns padded to their widest cell and two spaces apart, as
// `controller list-se-groups` and `controller usage --all` print them.
#ifndef NSXALB_PLUGIN_CLI_COMMON_TEXT_TABLE_H_
#define NSXALB_PLUGIN_CLI_COMMON_TEXT_TABLE_H_

#include <set>
#include <string>
#include <vector>

namespace nsxalb::cli {

// The rows (the header first), one line each. Columns are left-aligned except those whose index
// is in `right_aligned` (figures); no line ends in spaces.
std::string TextTable(const std::vector<std::vector<std::string>>& rows,
                      const std::set<size_t>& right_aligned = {});

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_COMMON_TEXT_TABLE_H_
