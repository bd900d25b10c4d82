// `terraform-provider-nsxalb estate-report ESTATE_JSON [--out OUT.md] [--svg OUT.svg]
// [--html OUT.html]`: the usage of an estate of SE groups as Markdown (estate_report.h), and
// optionally as an SVG chart (estate_chart.h) and a self-contained web page (estate_html.h), from
// the JSON of `controller usage --all --json` or the value of an nsxalb_se_groups_usage data
// source (the same shape). No Controller and no Terraform.
#ifndef NSXALB_PLUGIN_CLI_ESTATE_ESTATE_REPORT_COMMAND_H_
#define NSXALB_PLUGIN_CLI_ESTATE_ESTATE_REPORT_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

namespace nsxalb::cli {

// Runs `estate-report`; `args` are the arguments after it. Writes the Markdown to `out` (or to
// --out). Returns 0 when the report was written, 1 when an output file cannot be written, 2 on a
// usage error or an input that is missing, not JSON or not an estate (the message names the file
// and the JSON path).
int RunEstateReportCommand(const std::vector<std::string>& args, std::ostream& out,
                           std::ostream& err);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_ESTATE_ESTATE_REPORT_COMMAND_H_
