// The `size` command's report as JSON: every figure with its value, unit, text, basis, rules and
// seed source, so a pipeline can read what the text report says.
#ifndef NSXALB_PLUGIN_CLI_SIZE_SIZE_REPORT_JSON_H_
#define NSXALB_PLUGIN_CLI_SIZE_SIZE_REPORT_JSON_H_

#include <vector>

#include "nlohmann/json.hpp"
#include "plugin/sizing/profiles.h"
#include "plugin/sizing/recommend.h"
#include "plugin/sizing/validate.h"

namespace nsxalb::cli {

// `size --tables --json`: {"profiles": [...]} is built from this list of profiles with their
// provenance and every measured cell (null where the seed publishes none).
nlohmann::ordered_json SeedTablesJson(const std::vector<sizing::Platform>& platforms);

// `size --json`: the platform and profile, the workload, the recommendation (with a demand), the
// check of `settings` (when any is given) and every finding of `v`, which is
// sizing::Validate(workload, settings).
nlohmann::ordered_json SizeReportJson(const sizing::Workload& workload,
                                      const sizing::Settings& settings,
                                      const sizing::Validation& v);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_SIZE_SIZE_REPORT_JSON_H_
