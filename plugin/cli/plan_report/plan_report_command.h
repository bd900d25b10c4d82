// `terraform-provider-nsxalb plan-report PLAN_JSON`: a sizing review of a Terraform plan, as
// Markdown for a pull-request comment. PLAN_JSON is `terraform show -json PLANFILE` (or "-" for
// stdin). For each nsxalb_se_group in the plan it shows the workload, the planned and the
// recommended shape, the utilization of every demanded metric, the basis of the figures and the
// findings, computed by the same code the provider plans with (provider/se_group_sizing.h), so
// the review says what the plan says. With --svg-dir DIR it also writes one sizing chart per group
// (cli/common/sizing_chart.h) and links it.
#ifndef NSXALB_PLUGIN_CLI_PLAN_REPORT_PLAN_REPORT_COMMAND_H_
#define NSXALB_PLUGIN_CLI_PLAN_REPORT_PLAN_REPORT_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

namespace nsxalb::cli {

// Runs the `plan-report` subcommand. `args` are the arguments after "plan-report". Writes the
// Markdown to `out`. Returns 0 when the report was written, 1 when the plan cannot be read, 2 on
// a usage error.
int RunPlanReportCommand(const std::vector<std::string>& args, std::ostream& out,
                         std::ostream& err);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_PLAN_REPORT_PLAN_REPORT_COMMAND_H_
