// `controller usage`: an SE group's observed load (segroup::UsageReport) as text for a terminal.
// The JSON form is segroup::UsageReportJson, the data source's attributes.
#ifndef NSXALB_PLUGIN_CLI_USAGE_USAGE_REPORT_TEXT_H_
#define NSXALB_PLUGIN_CLI_USAGE_USAGE_REPORT_TEXT_H_

#include <string>

#include "plugin/segroup/usage/analyze.h"
#include "plugin/segroup/usage/compare.h"

namespace nsxalb::cli {

// The report: the group and window, the observed figures with their times, each SE, the
// calibration, the recommendation and the findings. `group` names it ("web in nsxt-cloud").
std::string UsageReportText(const std::string& group, const segroup::UsageReport& report);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_USAGE_USAGE_REPORT_TEXT_H_
