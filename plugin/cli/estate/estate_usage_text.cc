// Implementation of estate_usage_text.h.
#include "plugin/cli/estate/estate_usage_text.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "nlohmann/json.hpp"
#include "plugin/cli/common/text_table.h"

namespace nsxalb::cli {
namespace {

// A figure for CSV: whole numbers without a fraction, others as JSON writes them (the shortest
// text that reads back the same); "" when unknown.
std::string PlainNumber(const std::optional<double>& value) {
  if (!value.has_value()) return "";
  if (std::trunc(*value) == *value && std::fabs(*value) < 9e15) {
    return absl::StrCat(static_cast<int64_t>(*value));
  }
  return nlohmann::json(*value).dump();
}

std::string PlainBool(bool value) { return value ? "true" : "false"; }

// The pool figure `which` (0 licensed, 1 consumed, 2 escrow, 3 remaining, 4 remaining after
// reclaim) of the tier `row` draws on; "" when the estate has no pool for it.
std::string PoolCell(const EstateView& estate, const EstateRow& row, int which) {
  for (const segroup::EstateLicensePool& p : estate.license_pool) {
    if (p.pool.tier != row.license_tier) continue;
    const double figures[] = {p.pool.licensed, p.pool.consumed, p.pool.escrow, p.pool.remaining,
                              p.remaining_after_reclaim};
    return PlainNumber(figures[which]);
  }
  return "";
}

}  // namespace

std::string EstateUsageText(const EstateView& estate) {
  const bool with_tenant = HasTenantColumn(estate);
  std::vector<std::vector<std::string>> rows = {EstateColumns(with_tenant)};
  for (const EstateRow& row : estate.groups) rows.push_back(EstateCells(row, with_tenant));
  const std::vector<size_t> figures = EstateFigureColumns(with_tenant);
  return absl::StrCat(TextTable(rows, std::set<size_t>(figures.begin(), figures.end())), "\n",
                      EstateTotalLine(estate.totals), "\n", EstateLicenseLines(estate));
}

std::string EstateUsageCsv(const EstateView& estate) {
  const bool with_tenant = HasTenantColumn(estate);
  std::vector<std::string> header = {"name",           "uuid",
                                     "cloud",          "platform",
                                     "se_count",       "ses_behind_settings",
                                     "su_now",         "su_recommended",
                                     "su_reclaimable", "cpu_peak_pct",
                                     "days_to_target", "reaches_on",
                                     "at_risk",        "observed",
                                     "note",           "license_tier",
                                     "su_now_ledger",  "tier_licensed",
                                     "tier_consumed",  "tier_escrow",
                                     "tier_remaining", "tier_remaining_after_reclaim"};
  if (with_tenant) header.insert(header.begin() + 2, "tenant");
  std::string out = CsvRecord(header);
  for (const EstateRow& r : estate.groups) {
    const std::optional<double> days =
        r.days_to_target.has_value() ? std::optional<double>(*r.days_to_target) : std::nullopt;
    std::vector<std::string> fields = {
        r.name,
        r.uuid,
        r.cloud,
        r.platform,
        absl::StrCat(r.se_count),
        r.ses_behind_settings.has_value() ? absl::StrCat(*r.ses_behind_settings) : "",
        PlainNumber(r.service_units_now),
        PlainNumber(r.service_units_recommended),
        PlainNumber(r.service_units_reclaimable),
        PlainNumber(r.cpu_peak_pct),
        PlainNumber(days),
        r.reaches_on,
        PlainBool(r.at_risk),
        PlainBool(r.observed),
        r.note,
        r.license_tier,
        PlainNumber(r.license_service_units_now),
        PoolCell(estate, r, 0),
        PoolCell(estate, r, 1),
        PoolCell(estate, r, 2),
        PoolCell(estate, r, 3),
        PoolCell(estate, r, 4)};
    if (with_tenant) fields.insert(fields.begin() + 2, r.tenant);
    absl::StrAppend(&out, CsvRecord(fields));
  }
  return out;
}

std::string CsvRecord(const std::vector<std::string>& fields) {
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) {
    const std::string& f = fields[i];
    if (i > 0) out += ',';
    if (f.find_first_of(",\"\r\n") == std::string::npos) {
      out += f;
    } else {
      absl::StrAppend(&out, "\"", absl::StrReplaceAll(f, {{"\"", "\"\""}}), "\"");
    }
  }
  out += '\n';
  return out;
}

}  // namespace nsxalb::cli
