// Implementation of estate_report.h.
#include "plugin/cli/estate/estate_report.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/cli/common/markdown.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/rules.h"
#include "plugin/sizing/service_units.h"

namespace nsxalb::cli {
namespace {

// "`web` (nsxt-cloud)": a group as a list item names it.
std::string GroupLabel(const EstateRow& row) {
  return absl::StrCat("`", row.name, "`",
                      row.cloud.empty() ? "" : absl::StrCat(" (", row.cloud, ")"));
}

// The groups of the estate as a Markdown table, a row each.
std::string MarkdownTable(const EstateView& estate) {
  const bool with_tenant = HasTenantColumn(estate);
  const std::vector<std::string> columns = EstateColumns(with_tenant);
  const std::vector<size_t> figures = EstateFigureColumns(with_tenant);
  std::string header = "|", rule = "|";
  for (size_t c = 0; c < columns.size(); ++c) {
    absl::StrAppend(&header, " ", columns[c], " |");
    const bool figure = std::find(figures.begin(), figures.end(), c) != figures.end();
    absl::StrAppend(&rule, figure ? "--:|" : "---|");
  }
  std::string out = absl::StrCat(header, "\n", rule, "\n");
  for (const EstateRow& row : estate.groups) {
    absl::StrAppend(&out, "|");
    for (const std::string& cell : EstateCells(row, with_tenant))
      absl::StrAppend(&out, " ", MarkdownCell(cell), " |");
    absl::StrAppend(&out, "\n");
  }
  return out;
}

std::string AtRisk(const EstateView& estate) {
  std::string out;
  for (const EstateRow& row : estate.groups) {
    if (!row.at_risk) continue;
    const std::string why = AtRiskReason(row);
    absl::StrAppend(&out, "- ", GroupLabel(row), why.empty() ? "" : absl::StrCat(": ", why), ".\n");
  }
  if (out.empty()) return "No group is at risk.\n";
  return absl::StrCat(out, "\n(rule ", sizing::rules::kEstateGroupAtRisk,
                      ": an SE ran above the group's target in the window, or the forecast "
                      "reaches the target within the forecast days.)\n");
}

std::string Reclaimable(const EstateView& estate) {
  std::string out;
  for (const EstateRow& row : estate.groups) {
    if (!row.service_units_reclaimable.has_value() || *row.service_units_reclaimable <= 0) {
      continue;
    }
    absl::StrAppend(&out, "- ", GroupLabel(row), ": **",
                    sizing::FormatServiceUnits(*row.service_units_reclaimable),
                    " reclaimable** of ",
                    sizing::FormatServiceUnits(row.service_units_now.value_or(0)), " now (",
                    row.service_units_recommended.has_value()
                        ? sizing::FormatServiceUnitsNumber(*row.service_units_recommended)
                        : "-",
                    " recommended from the observed load).\n");
  }
  return out.empty() ? "No group has reclaimable Service Units.\n" : out;
}

// The groups whose running SEs lag their settings, each with its SEs (rule ses-behind-settings).
std::string SesBehind(const EstateView& estate) {
  std::string out;
  for (const EstateRow& row : estate.groups) {
    if (row.ses_behind.empty()) continue;
    absl::StrAppend(&out, "- ", GroupLabel(row), ": ", absl::StrJoin(row.ses_behind, "; "), ".\n");
  }
  if (out.empty()) return "Every running SE matches its group's settings.\n";
  return absl::StrCat(out, "\n(rule ", sizing::rules::kSesBehindSettings,
                      ": new-ses-only SEs keep their shape until they are replaced; "
                      "after-se-reboot SEs until they reboot.)\n");
}

}  // namespace

std::string EstateMarkdown(const EstateView& estate, const std::string& title, int heading_level) {
  const std::string heading(heading_level, '#');
  std::string out = absl::StrCat(heading, " ", title, "\n\n", EstateTotalLine(estate.totals), ".");
  if (estate.metrics_requests.has_value()) {
    absl::StrAppend(
        &out, " Read with ",
        sizing::FormatCount(*estate.metrics_requests, "metrics request", "metrics requests"),
        " (rule ", sizing::rules::kEstateRequestsBounded, ").");
  }
  absl::StrAppend(&out, "\n\n");
  // The licence pool per tier (rule license-remaining-after-reclaim), a paragraph each.
  for (const segroup::EstateLicensePool& pool : estate.license_pool) {
    absl::StrAppend(&out, EstateLicensePoolLine(pool), ".\n\n");
  }
  if (!estate.license_error.empty()) {
    absl::StrAppend(&out, "Licence pool unknown: ", estate.license_error, "\n\n");
  }
  if (estate.groups.empty()) {
    absl::StrAppend(&out, "No SE group matched.\n");
    return out;
  }
  absl::StrAppend(&out, MarkdownTable(estate), "\n", heading, "# At risk\n\n", AtRisk(estate), "\n",
                  heading, "# Reclaimable\n\n", Reclaimable(estate), "\n", heading,
                  "# SEs behind settings\n\n", SesBehind(estate));
  return out;
}

}  // namespace nsxalb::cli
