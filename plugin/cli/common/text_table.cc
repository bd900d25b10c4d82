// Implementation of text_table.h.
#include "plugin/cli/common/text_table.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace nsxalb::cli {

std::string TextTable(const std::vector<std::vector<std::string>>& rows,
                      const std::set<size_t>& right_aligned) {
  std::vector<size_t> width;
  for (const std::vector<std::string>& row : rows) {
    if (width.size() < row.size()) width.resize(row.size(), 0);
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  }
  std::string out;
  for (const std::vector<std::string>& row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      const std::string padding(width[c] - row[c].size(), ' ');
      const bool last = c + 1 == row.size();
      if (c > 0) line += "  ";
      if (right_aligned.count(c) > 0) {
        absl::StrAppend(&line, padding, row[c]);
      } else {
        absl::StrAppend(&line, row[c], last ? "" : padding);
      }
    }
    // An empty last cell would leave the separator and the padding before it.
    line.erase(line.find_last_not_of(' ') + 1);
    absl::StrAppend(&out, line, "\n");
  }
  return out;
}

}  // namespace nsxalb::cli
