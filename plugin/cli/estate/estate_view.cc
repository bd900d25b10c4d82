// Implementation of estate_view.h.
#include "plugin/cli/estate/estate_view.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/cli/common/sizing_chart_usage.h"
#include "plugin/common/status_macros.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/service_units.h"

namespace nsxalb::cli {
namespace {

using Json = nlohmann::json;

// A JSON value and its path in the document ("$.groups[2].usage"), so that every error names
// where it is.
class At {
 public:
  At(const Json& value, std::string path) : value_(&value), path_(std::move(path)) {}

  const Json& value() const { return *value_; }

  // The element `i` of an array.
  At Element(size_t i) const { return At((*value_)[i], absl::StrCat(path_, "[", i, "]")); }

  // The member `key`, which must be an object (or an array).
  absl::StatusOr<At> Object(const char* key) const { return Typed(key, Json::value_t::object); }
  absl::StatusOr<At> Array(const char* key) const { return Typed(key, Json::value_t::array); }

  // An array member that may be absent or null: an empty array then.
  absl::StatusOr<std::vector<At>> Elements(const char* key) const {
    std::vector<At> out;
    const Json* v = Find(key);
    if (v == nullptr || v->is_null()) return out;
    if (!v->is_array()) return WrongType(key, "an array", *v);
    const At array(*v, Path(key));
    for (size_t i = 0; i < v->size(); ++i) out.push_back(array.Element(i));
    return out;
  }

  absl::StatusOr<std::string> String(const char* key) const {
    NSXALB_ASSIGN_OR_RETURN(const Json* v, Present(key));
    if (!v->is_string()) return WrongType(key, "a string", *v);
    return v->get<std::string>();
  }

  // A string member that may be null or absent: "" then.
  absl::StatusOr<std::string> OptionalString(const char* key) const {
    const Json* v = Find(key);
    if (v == nullptr || v->is_null()) return std::string();
    if (!v->is_string()) return WrongType(key, "a string or null", *v);
    return v->get<std::string>();
  }

  absl::StatusOr<bool> Bool(const char* key) const {
    NSXALB_ASSIGN_OR_RETURN(const Json* v, Present(key));
    if (!v->is_boolean()) return WrongType(key, "true or false", *v);
    return v->get<bool>();
  }

  // A whole number from 0 to INT_MAX.
  absl::StatusOr<int> Count(const char* key) const {
    NSXALB_ASSIGN_OR_RETURN(const Json* v, Present(key));
    return Whole(key, *v, "a whole number");
  }

  // The same, or null.
  absl::StatusOr<std::optional<int>> CountOrNull(const char* key) const {
    NSXALB_ASSIGN_OR_RETURN(const Json* v, Present(key));
    if (v->is_null()) return std::optional<int>();
    NSXALB_ASSIGN_OR_RETURN(const int n, Whole(key, *v, "a whole number or null"));
    return n;
  }

  // A number, or null (present either way).
  absl::StatusOr<std::optional<double>> NumberOrNull(const char* key) const {
    NSXALB_ASSIGN_OR_RETURN(const Json* v, Present(key));
    if (v->is_null()) return std::optional<double>();
    if (!v->is_number()) return WrongType(key, "a number or null", *v);
    return v->get<double>();
  }

  // A number that may be absent or null: unset then.
  absl::StatusOr<std::optional<double>> OptionalNumber(const char* key) const {
    const Json* v = Find(key);
    if (v == nullptr || v->is_null()) return std::optional<double>();
    if (!v->is_number()) return WrongType(key, "a number or null", *v);
    return v->get<double>();
  }

  // A number (not null).
  absl::StatusOr<double> Number(const char* key) const {
    NSXALB_ASSIGN_OR_RETURN(const Json* v, Present(key));
    if (!v->is_number()) return WrongType(key, "a number", *v);
    return v->get<double>();
  }

  // The path of the member `key` ("$.groups[2].usage").
  std::string Path(const char* key) const { return absl::StrCat(path_, ".", key); }

 private:
  const Json* Find(const char* key) const {
    if (!value_->is_object()) return nullptr;
    auto it = value_->find(key);
    return it == value_->end() ? nullptr : &*it;
  }

  absl::StatusOr<const Json*> Present(const char* key) const {
    const Json* v = Find(key);
    if (v == nullptr) return absl::InvalidArgumentError(absl::StrCat(Path(key), ": missing"));
    return v;
  }

  absl::StatusOr<int> Whole(const char* key, const Json& v, const char* want) const {
    if (!v.is_number()) return WrongType(key, want, v);
    const double d = v.get<double>();
    if (d < 0 || d > std::numeric_limits<int>::max() || std::trunc(d) != d) {
      return WrongType(key, want, v);
    }
    return static_cast<int>(d);
  }

  absl::StatusOr<At> Typed(const char* key, Json::value_t type) const {
    NSXALB_ASSIGN_OR_RETURN(const Json* v, Present(key));
    if (v->type() != type) {
      return WrongType(key, type == Json::value_t::object ? "an object" : "an array", *v);
    }
    return At(*v, Path(key));
  }

  absl::Status WrongType(const char* key, const char* want, const Json& got) const {
    std::string text = got.dump();
    if (text.size() > 40) text = absl::StrCat(text.substr(0, 40), "...");
    return absl::InvalidArgumentError(
        absl::StrCat(Path(key), ": want ", want, ", got ", got.type_name(),
                     got.is_structured() || got.is_null() ? "" : absl::StrCat(" ", text)));
  }

  const Json* value_;
  std::string path_;
};

// The summary of a finding as the usage JSON writes it (segroup::FindingText: "warning [] rule:
// Summary. Detail"): the text between the rule and the first ". "; the whole line when it has
// another shape.
std::string FindingSummary(std::string_view line) {
  const size_t attribute_end = line.find("] ");
  if (attribute_end == std::string_view::npos) return std::string(line);
  const size_t rule_end = line.find(": ", attribute_end);
  if (rule_end == std::string_view::npos) return std::string(line);
  std::string_view summary = line.substr(rule_end + 2);
  summary = summary.substr(0, summary.find(". "));
  if (!summary.empty() && summary.back() == '.') summary.remove_suffix(1);
  return std::string(summary);
}

absl::StatusOr<EstateRow> ReadRow(const At& group) {
  EstateRow row;
  NSXALB_ASSIGN_OR_RETURN(row.name, group.String("name"));
  NSXALB_ASSIGN_OR_RETURN(row.uuid, group.String("id"));
  NSXALB_ASSIGN_OR_RETURN(row.tenant, group.OptionalString("tenant"));
  NSXALB_ASSIGN_OR_RETURN(row.cloud, group.OptionalString("cloud"));
  NSXALB_ASSIGN_OR_RETURN(row.platform, group.OptionalString("platform"));
  NSXALB_ASSIGN_OR_RETURN(row.at_risk, group.Bool("at_risk"));
  NSXALB_ASSIGN_OR_RETURN(row.observed, group.Bool("observed"));
  // The licence (absent from an estate written before the ledger was read).
  NSXALB_ASSIGN_OR_RETURN(row.license_tier, group.OptionalString("license_tier"));
  NSXALB_ASSIGN_OR_RETURN(row.license_service_units_now,
                          group.OptionalNumber("license_service_units_now"));
  NSXALB_ASSIGN_OR_RETURN(row.license_note, group.OptionalString("license_note"));
  NSXALB_ASSIGN_OR_RETURN(const At usage, group.Object("usage"));
  NSXALB_ASSIGN_OR_RETURN(row.se_count, usage.Count("se_count"));
  if (usage.value().contains("ses_behind_settings") &&
      !usage.value()["ses_behind_settings"].is_null()) {
    NSXALB_ASSIGN_OR_RETURN(row.ses_behind_settings, usage.Count("ses_behind_settings"));
  }

  NSXALB_ASSIGN_OR_RETURN(const At su, usage.Object("service_units"));
  NSXALB_ASSIGN_OR_RETURN(row.service_units_now, su.NumberOrNull("now"));
  NSXALB_ASSIGN_OR_RETURN(row.service_units_recommended, su.NumberOrNull("recommended"));
  NSXALB_ASSIGN_OR_RETURN(row.service_units_reclaimable, su.NumberOrNull("reclaimable"));
  NSXALB_ASSIGN_OR_RETURN(row.service_units_reason, su.OptionalString("reason"));

  NSXALB_ASSIGN_OR_RETURN(const At observed, usage.Object("observed"));
  NSXALB_ASSIGN_OR_RETURN(row.cpu_peak_pct, observed.NumberOrNull("cpu_pct"));

  NSXALB_ASSIGN_OR_RETURN(const At forecast, usage.Object("forecast"));
  NSXALB_ASSIGN_OR_RETURN(row.target_pct, forecast.Count("target_pct"));
  NSXALB_ASSIGN_OR_RETURN(row.days_to_target, forecast.CountOrNull("days_to_target"));
  NSXALB_ASSIGN_OR_RETURN(row.reaches_on, forecast.OptionalString("reaches_on"));
  NSXALB_ASSIGN_OR_RETURN(row.forecast_subject, forecast.OptionalString("subject"));
  if (forecast.value().contains("daily_peaks") && !forecast.value()["daily_peaks"].is_null()) {
    absl::StatusOr<ChartForecast> chart = ChartForecastFromUsageJson(usage.value());
    if (!chart.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(group.Path("usage"), ".", chart.status().message()));
    }
    row.forecast_chart = *std::move(chart);
  }

  NSXALB_ASSIGN_OR_RETURN(const std::vector<At> ses, usage.Elements("service_engines"));
  for (const At& se : ses) {
    NSXALB_ASSIGN_OR_RETURN(const std::optional<double> cpu, se.NumberOrNull("cpu_peak_pct"));
    NSXALB_ASSIGN_OR_RETURN(std::string name, se.OptionalString("name"));
    if (name.empty()) {
      NSXALB_ASSIGN_OR_RETURN(name, se.OptionalString("uuid"));
    }
    const Json& matches = se.value().contains("matches") ? se.value()["matches"] : Json();
    if (matches.is_boolean() && !matches.get<bool>()) {
      NSXALB_ASSIGN_OR_RETURN(const std::string why, se.OptionalString("why"));
      NSXALB_ASSIGN_OR_RETURN(const std::vector<At> fields, se.Elements("fields"));
      std::vector<std::string> names;
      for (const At& f : fields) {
        if (f.value().is_string()) names.push_back(f.value().get<std::string>());
      }
      row.ses_behind.push_back(
          absl::StrCat(name, ": ", why,
                       names.empty() ? "" : absl::StrCat(" (", absl::StrJoin(names, ", "), ")")));
    }
    if (!cpu.has_value() || *cpu <= row.target_pct) continue;
    row.ses_above_target.push_back(SeAboveTarget{std::move(name), *cpu});
  }

  NSXALB_ASSIGN_OR_RETURN(const std::vector<At> findings, usage.Elements("findings"));
  if (!row.observed && !findings.empty()) {
    const Json& first = findings.front().value();
    if (first.is_string()) row.note = FindingSummary(first.get<std::string>());
  }
  if (!row.license_note.empty()) {
    row.note = row.note.empty() ? row.license_note : absl::StrCat(row.note, "; ", row.license_note);
  }
  return row;
}

// "-" for an unknown figure.
std::string UnitsCell(const std::optional<double>& units) {
  return units.has_value() ? sizing::FormatServiceUnitsNumber(*units) : "-";
}

// SUs now: the ledger's count when the estate has it, the derivation from vCPUs beside it when
// they differ ("4 (vCPUs: 8)"); the derivation alone without the ledger.
std::string NowCell(const EstateRow& row) {
  if (!row.license_service_units_now.has_value()) return UnitsCell(row.service_units_now);
  std::string cell = sizing::FormatServiceUnitsNumber(*row.license_service_units_now);
  if (row.service_units_now.has_value() &&
      std::fabs(*row.service_units_now - *row.license_service_units_now) > 1e-9) {
    absl::StrAppend(&cell, " (vCPUs: ", sizing::FormatServiceUnitsNumber(*row.service_units_now),
                    ")");
  }
  return cell;
}

}  // namespace

absl::StatusOr<EstateView> ReadEstateView(const Json& estate) {
  if (!estate.is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat("$: want an object with groups and totals, got ", estate.type_name()));
  }
  const At root(estate, "$");
  EstateView view;
  NSXALB_ASSIGN_OR_RETURN(const At groups, root.Array("groups"));
  for (size_t i = 0; i < groups.value().size(); ++i) {
    NSXALB_ASSIGN_OR_RETURN(EstateRow row, ReadRow(groups.Element(i)));
    view.groups.push_back(std::move(row));
  }
  NSXALB_ASSIGN_OR_RETURN(const At totals, root.Object("totals"));
  segroup::EstateTotals& t = view.totals;
  NSXALB_ASSIGN_OR_RETURN(t.groups, totals.Count("groups"));
  NSXALB_ASSIGN_OR_RETURN(t.groups_at_risk, totals.Count("groups_at_risk"));
  NSXALB_ASSIGN_OR_RETURN(t.groups_without_observed_load,
                          totals.Count("groups_without_observed_load"));
  NSXALB_ASSIGN_OR_RETURN(t.service_units_now, totals.Number("service_units_now"));
  NSXALB_ASSIGN_OR_RETURN(t.service_units_recommended, totals.Number("service_units_recommended"));
  NSXALB_ASSIGN_OR_RETURN(t.service_units_reclaimable, totals.Number("service_units_reclaimable"));
  if (totals.value().contains("ses_behind_settings")) {
    NSXALB_ASSIGN_OR_RETURN(t.ses_behind_settings, totals.Count("ses_behind_settings"));
  }
  if (estate.contains("metrics_requests") && !estate["metrics_requests"].is_null()) {
    NSXALB_ASSIGN_OR_RETURN(view.metrics_requests, root.Count("metrics_requests"));
  }
  NSXALB_ASSIGN_OR_RETURN(const std::vector<At> pools, root.Elements("license_pool"));
  for (const At& p : pools) {
    segroup::EstateLicensePool pool;
    NSXALB_ASSIGN_OR_RETURN(pool.pool.tier, p.String("tier"));
    NSXALB_ASSIGN_OR_RETURN(pool.pool.licensed, p.Number("licensed"));
    NSXALB_ASSIGN_OR_RETURN(pool.pool.consumed, p.Number("consumed"));
    NSXALB_ASSIGN_OR_RETURN(pool.pool.escrow, p.Number("escrow"));
    NSXALB_ASSIGN_OR_RETURN(pool.pool.remaining, p.Number("remaining"));
    NSXALB_ASSIGN_OR_RETURN(pool.remaining_after_reclaim, p.Number("remaining_after_reclaim"));
    view.license_pool.push_back(std::move(pool));
  }
  NSXALB_ASSIGN_OR_RETURN(view.license_error, root.OptionalString("license_error"));
  return view;
}

bool HasTenantColumn(const EstateView& estate) {
  return std::any_of(estate.groups.begin(), estate.groups.end(),
                     [](const EstateRow& row) { return !row.tenant.empty(); });
}

std::vector<std::string> EstateColumns(bool with_tenant) {
  std::vector<std::string> columns = {"SE group",
                                      "cloud",
                                      "SEs",
                                      "SEs behind settings",
                                      "SUs now",
                                      "SUs recommended",
                                      "SUs reclaimable",
                                      "CPU peak",
                                      "forecast",
                                      "at risk",
                                      "note"};
  if (with_tenant) columns.insert(columns.begin() + 1, "tenant");
  return columns;
}

std::vector<size_t> EstateFigureColumns(bool with_tenant) {
  const size_t o = with_tenant ? 1 : 0;
  return {2 + o, 3 + o, 4 + o, 5 + o, 6 + o, 7 + o, 8 + o};
}

std::vector<std::string> EstateCells(const EstateRow& row, bool with_tenant) {
  std::vector<std::string> cells = {
      row.name,
      row.cloud.empty() ? "-" : row.cloud,
      absl::StrCat(row.se_count),
      row.ses_behind_settings.has_value() ? absl::StrCat(*row.ses_behind_settings) : "-",
      NowCell(row),
      UnitsCell(row.service_units_recommended),
      UnitsCell(row.service_units_reclaimable),
      row.cpu_peak_pct.has_value() ? sizing::FormatPercent(*row.cpu_peak_pct) : "-",
      row.days_to_target.has_value() ? sizing::FormatCount(*row.days_to_target, "day", "days")
                                     : "-",
      row.at_risk ? "yes" : "no",
      row.note};
  if (with_tenant) cells.insert(cells.begin() + 1, row.tenant.empty() ? "-" : row.tenant);
  return cells;
}

std::vector<std::optional<double>> EstateFigures(const EstateRow& row, bool with_tenant) {
  std::vector<std::optional<double>> figures(EstateColumns(with_tenant).size());
  const std::vector<size_t> at = EstateFigureColumns(with_tenant);
  figures[at[0]] = row.se_count;
  if (row.ses_behind_settings.has_value()) figures[at[1]] = *row.ses_behind_settings;
  figures[at[2]] = row.license_service_units_now.has_value() ? row.license_service_units_now
                                                             : row.service_units_now;  // NowCell
  figures[at[3]] = row.service_units_recommended;
  figures[at[4]] = row.service_units_reclaimable;
  figures[at[5]] = row.cpu_peak_pct;
  if (row.days_to_target.has_value()) figures[at[6]] = *row.days_to_target;
  return figures;
}

std::string EstateLicensePoolLine(const segroup::EstateLicensePool& p) {
  return absl::StrCat("Licence pool ", p.pool.tier, ": ",
                      sizing::FormatServiceUnitsNumber(p.pool.licensed), " licensed, ",
                      sizing::FormatServiceUnitsNumber(p.pool.consumed), " consumed, ",
                      sizing::FormatServiceUnitsNumber(p.pool.escrow), " in escrow, ",
                      sizing::FormatServiceUnitsNumber(p.pool.remaining), " remaining; ",
                      sizing::FormatServiceUnitsNumber(p.remaining_after_reclaim),
                      " remaining after the reclaimable units come back");
}

std::string EstateLicenseLines(const EstateView& estate) {
  std::string out;
  for (const segroup::EstateLicensePool& p : estate.license_pool) {
    absl::StrAppend(&out, EstateLicensePoolLine(p), "\n");
  }
  if (!estate.license_error.empty()) {
    absl::StrAppend(&out, "Licence pool unknown: ", estate.license_error, "\n");
  }
  return out;
}

std::string EstateTotalLine(const segroup::EstateTotals& t) {
  return absl::StrCat(
      "Total: ", sizing::FormatCount(t.groups, "group", "groups"), ", ",
      sizing::FormatServiceUnits(t.service_units_now), " now, ",
      sizing::FormatServiceUnitsNumber(t.service_units_recommended), " recommended, ",
      sizing::FormatServiceUnitsNumber(t.service_units_reclaimable), " reclaimable; ",
      t.groups_at_risk, " at risk; ", t.groups_without_observed_load, " without observed load; ",
      sizing::FormatCount(t.ses_behind_settings, "SE", "SEs"), " behind settings");
}

std::string AtRiskReason(const EstateRow& row) {
  std::vector<std::string> why;
  if (!row.ses_above_target.empty()) {
    std::vector<std::string> ses;
    double highest = 0;
    for (const SeAboveTarget& se : row.ses_above_target) {
      ses.push_back(absl::StrCat(se.se, " ", sizing::FormatPercent(se.cpu_peak_pct)));
      highest = std::max(highest, se.cpu_peak_pct);
    }
    why.push_back(absl::StrCat("CPU peak ", sizing::FormatPercent(highest), " above the ",
                               row.target_pct, "% target (", absl::StrJoin(ses, ", "), ")"));
  }
  if (row.days_to_target.has_value()) {
    std::vector<std::string> when;
    for (const std::string* part : {&row.reaches_on, &row.forecast_subject}) {
      if (!part->empty()) when.push_back(*part);
    }
    why.push_back(
        absl::StrCat("the forecast reaches ", row.target_pct, "% in ",
                     sizing::FormatCount(*row.days_to_target, "day", "days"),
                     when.empty() ? "" : absl::StrCat(" (", absl::StrJoin(when, ", "), ")")));
  }
  return absl::StrJoin(why, "; ");
}

}  // namespace nsxalb::cli
