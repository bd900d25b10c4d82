// The estate's usage (estate_view.h) as Markdown for a review or a wiki page: a title, the totals,
// a table of the groups, the groups at risk and why (rule estate-group-at-risk), and the groups
// with reclaimable Service Units. `estate-report` writes it for a file, and `plan-report` for
// every nsxalb_se_groups_usage data source of a plan, from this one renderer.
#ifndef NSXALB_PLUGIN_CLI_ESTATE_ESTATE_REPORT_H_
#define NSXALB_PLUGIN_CLI_ESTATE_ESTATE_REPORT_H_

#include <string>

#include "plugin/cli/estate/estate_view.h"

namespace nsxalb::cli {

// The Markdown: `title` as a heading of `heading_level` (2: "##"), the sections one level below.
std::string EstateMarkdown(const EstateView& estate, const std::string& title, int heading_level);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_ESTATE_ESTATE_REPORT_H_
