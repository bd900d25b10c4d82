// Implementation of markdown.h.
#include "plugin/cli/common/markdown.h"

namespace nsxalb::cli {

std::string MarkdownCell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace nsxalb::cli
