// The `size` command's report as text for a terminal: the recommendation with the basis and rule
// of every setting, capacity and utilization per metric with the seed cells used, and findings.
#ifndef NSXALB_PLUGIN_CLI_SIZE_SIZE_REPORT_TEXT_H_
#define NSXALB_PLUGIN_CLI_SIZE_SIZE_REPORT_TEXT_H_

#include <ostream>
#include <vector>

#include "plugin/sizing/profiles.h"
#include "plugin/sizing/recommend.h"
#include "plugin/sizing/validate.h"

namespace nsxalb::cli {

// `size --tables`: the seed tables of `platforms` with their provenance.
void PrintSeedTables(const std::vector<sizing::Platform>& platforms, std::ostream& out);

// `size`: the report for `w` and `v` = sizing::Validate(w, settings); `has_settings` says whether
// any setting was given (then the check of the settings is printed).
void PrintSizeReport(const sizing::Workload& w, const sizing::Validation& v, bool has_settings,
                     std::ostream& out);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_SIZE_SIZE_REPORT_TEXT_H_
