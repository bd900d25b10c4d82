// The estate's usage as the CLI shows it. Every front end of the estate renders the same JSON: what
// `controller usage --all --json` prints (segroup::EstateUsageJson) is the nsxalb_se_groups_usage
// data source's value, which `estate-report` reads from a file and `plan-report` from a plan. This
// file reads that JSON back into the figures of each group's row, naming the JSON path of anything
// missing or of the wrong type, and defines once the columns, the total line and the reasons that
// the text table, the CSV and the Markdown share.
#ifndef NSXALB_PLUGIN_CLI_ESTATE_ESTATE_VIEW_H_
#define NSXALB_PLUGIN_CLI_ESTATE_ESTATE_VIEW_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "plugin/cli/common/sizing_chart.h"
#include "plugin/segroup/usage/estate_reader.h"

namespace nsxalb::cli {

// One SE of a group whose CPU ran above the group's target in the window.
struct SeAboveTarget {
  std::string se;  // its name, or its uuid without one
  double cpu_peak_pct = 0;
};

// One group of the estate, as its row shows it.
struct EstateRow {
  std::string name;
  std::string uuid;
  std::string tenant;  // the group's tenant (its name) in an All Tenants estate; "" otherwise
  std::string cloud;
  std::string platform;
  int se_count = 0;
  // Its running SEs that do not match its settings (usage.ses_behind_settings; unset when the
  // JSON does not say, as an estate written before 0.3 does not), and each of them ("web-se-1:
  // new-ses-only (vcpus_per_se)", from usage.service_engines).
  std::optional<int> ses_behind_settings;
  std::vector<std::string> ses_behind;
  // Service Units now, recommended from the observed load, and reclaimable; unset when unknown,
  // with `service_units_reason` saying why reclaimable is.
  std::optional<double> service_units_now;
  std::optional<double> service_units_recommended;
  std::optional<double> service_units_reclaimable;
  std::string service_units_reason;
  std::optional<double> cpu_peak_pct;  // the highest SE's CPU (usage.observed.cpu_pct)
  int target_pct = 80;                 // the target CPU and forecast are judged against
  std::vector<SeAboveTarget> ses_above_target;
  // The forecast: days until `forecast_subject` reaches the target, on `reaches_on`
  // ("2026-05-01"); unset (and "") when there is none.
  std::optional<int> days_to_target;
  std::string reaches_on;
  std::string forecast_subject;
  bool at_risk = false;
  bool observed = false;
  // The forecast as its chart draws it (daily peaks, trend, target), from usage.forecast; unset
  // when the JSON has no daily_peaks.
  std::optional<ChartForecast> forecast_chart;
  // Without observed load, the summary of the group's first finding ("The Controller's analytics
  // are unavailable"); "" otherwise. Then the licence note, when there is one.
  std::string note;
  // The licence (estate JSON license_tier, license_service_units_now, license_note): the tier the
  // group draws on, its SUs now as the ledger counts them (unset without the ledger), and where
  // that differs from service_units_now (the derivation from vCPUs), why.
  std::string license_tier;
  std::optional<double> license_service_units_now;
  std::string license_note;
};

// The estate: its groups in the order the JSON lists them (the estate reader's: most reclaimable
// first), the totals, and the metrics POSTs the read took (unset when the JSON does not say).
struct EstateView {
  std::vector<EstateRow> groups;
  segroup::EstateTotals totals;
  std::optional<int> metrics_requests;
  // The licence pool per tier (estate JSON license_pool; empty when absent) and why the ledger
  // could not be read (license_error; "" otherwise).
  std::vector<segroup::EstateLicensePool> license_pool;
  std::string license_error;
};

// Reads the estate's JSON ({groups: [{id, name, tenant?, cloud, platform, at_risk, observed,
// usage}], totals: {...}, license_pool?, license_error?, metrics_requests?}). InvalidArgument
// naming the JSON path ("$.groups[2].usage.se_count: missing") when a member the rows show is
// missing or of another type. The CLI reads an estate the reader returned through EstateUsageJson
// too, so that every front end shows the same figures.
absl::StatusOr<EstateView> ReadEstateView(const nlohmann::json& estate);

// True when the estate's groups carry their tenant (an All Tenants estate): its tables then have a
// tenant column after the group's name.
bool HasTenantColumn(const EstateView& estate);

// The columns of the estate's table (text, Markdown and HTML): SE group, [tenant,] cloud, SEs,
// SEs behind settings, SUs now, SUs recommended, SUs reclaimable, CPU peak, forecast, at risk,
// note.
std::vector<std::string> EstateColumns(bool with_tenant = false);

// The indexes of EstateColumns that hold figures (right-aligned in a terminal, sorted as numbers
// on a page).
std::vector<size_t> EstateFigureColumns(bool with_tenant = false);

// A group's cells under EstateColumns: SUs now from the ledger when the estate has it, with the
// derivation from vCPUs beside it where they differ ("4 (vCPUs: 8)"); SUs to the quarter, CPU to
// 0.1%, the forecast in days, "yes" or "no"; "-" for an unknown figure.
std::vector<std::string> EstateCells(const EstateRow& row, bool with_tenant = false);

// The figures behind a group's cells, column by column under EstateColumns: the number a figure
// column shows (unset when unknown), unset for the other columns. A page sorts by them.
std::vector<std::optional<double>> EstateFigures(const EstateRow& row, bool with_tenant = false);

// One tier's pool: "Licence pool ENTERPRISE: 64 licensed, 56 consumed, 0 in escrow, 8
// remaining; 16 remaining after the reclaimable units come back".
std::string EstateLicensePoolLine(const segroup::EstateLicensePool& pool);

// EstateLicensePoolLine for every tier, a line each, and "Licence pool unknown: <why>" when the
// ledger could not be read; "" for an estate without either.
std::string EstateLicenseLines(const EstateView& estate);

// "Total: 4 groups, 24 SUs now, 8 recommended, 16 reclaimable; 1 at risk; 1 without observed
// load; 3 SEs behind settings".
std::string EstateTotalLine(const segroup::EstateTotals& totals);

// Why an at-risk group is (rule estate-group-at-risk): "CPU peak 91% above the 80% target
// (web-se-1 91%)" and/or "the forecast reaches 80% in 12 days (2026-05-01, web-se-1)", joined by
// "; ".
std::string AtRiskReason(const EstateRow& row);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_ESTATE_ESTATE_VIEW_H_
