// `controller usage --all`: the estate (estate_view.h) as a table for a terminal, and as CSV for a
// spreadsheet. The JSON form is segroup::EstateUsageJson itself.
#ifndef NSXALB_PLUGIN_CLI_ESTATE_ESTATE_USAGE_TEXT_H_
#define NSXALB_PLUGIN_CLI_ESTATE_ESTATE_USAGE_TEXT_H_

#include <string>
#include <vector>

#include "plugin/cli/estate/estate_view.h"

namespace nsxalb::cli {

// The table (EstateColumns, one row per group in the estate's order, figures right-aligned), a
// blank line and EstateTotalLine.
std::string EstateUsageText(const EstateView& estate);

// The CSV: a header row (name, uuid, [tenant, when the groups carry one,] cloud, platform,
// se_count, su_now, su_recommended, su_reclaimable, cpu_peak_pct, days_to_target, reaches_on,
// at_risk, observed, note) and one row per group; figures as plain numbers, an unknown one empty,
// booleans true or false.
std::string EstateUsageCsv(const EstateView& estate);

// One CSV record (RFC 4180) ending in "\n": a field with a comma, a double quote, a CR or an LF
// is quoted, its double quotes doubled.
std::string CsvRecord(const std::vector<std::string>& fields);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_ESTATE_ESTATE_USAGE_TEXT_H_
