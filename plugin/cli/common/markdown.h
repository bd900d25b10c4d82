// Markdown for the CLI's reports (plan-report, estate-report).
#ifndef NSXALB_PLUGIN_CLI_COMMON_MARKDOWN_H_
#define NSXALB_PLUGIN_CLI_COMMON_MARKDOWN_H_

#include <string>
#include <string_view>

namespace nsxalb::cli {

// `text` as one cell of a Markdown table: '|' escaped and line breaks made spaces, so that the
// cell cannot end the row or the table.
std::string MarkdownCell(std::string_view text);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_COMMON_MARKDOWN_H_
