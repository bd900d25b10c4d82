// Implementation of estate_html.h: markup only; every figure and sentence comes from estate_view.h
// and every chart from estate_chart.h.
#include "plugin/cli/estate/estate_html.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "plugin/cli/common/svg_writer.h"
#include "plugin/cli/estate/estate_chart.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/rules.h"
#include "plugin/sizing/service_units.h"

namespace nsxalb::cli {
namespace {

// The stylesheet: light cards on a grey page; one column below 700 px, larger type and two charts
// a row from 1800 px (a wall screen).
constexpr char kStyle[] = R"css(
:root { --ink: #222; --muted: #5f6368; --line: #dde1e6; --page: #f3f5f8; --card: #fff;
        --risk: #c62828; --now: #1f5fa8; --recommended: #2e8b3a; --escrow: #e67e00; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; background: var(--page); color: var(--ink); font-size: 15px; line-height: 1.45;
       font-family: "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; }
main { max-width: 1240px; margin: 0 auto; padding: 20px 16px 32px; }
h1 { font-size: 1.55em; margin: 0 0 6px; }
h2 { font-size: 1.2em; margin: 0 0 10px; }
h3 { font-size: 1.05em; margin: 0 0 4px; overflow-wrap: anywhere; }
p { margin: 4px 0; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px;
        padding: 14px 18px; margin: 0 0 18px; box-shadow: 0 1px 2px rgba(0, 0, 0, .04); }
.totals { font-size: 1.08em; font-weight: bold; }
.muted, .hint { color: var(--muted); font-size: .9em; }
.pool-tier { margin: 8px 0 12px; }
.pool-line { font-weight: bold; }
.meter { display: flex; height: 14px; border-radius: 7px; overflow: hidden; background: #e6ebe7;
         margin-top: 4px; max-width: 720px; }
.meter span { display: block; height: 100%; }
.meter .consumed { background: var(--now); }
.meter .escrow { background: var(--escrow); }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: .85em; color: var(--muted);
          margin-top: 4px; }
.legend i { display: inline-block; width: 10px; height: 10px; border-radius: 2px;
            margin-right: 5px; vertical-align: baseline; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { padding: 7px 10px; border-bottom: 1px solid var(--line); text-align: left;
         white-space: nowrap; vertical-align: top; }
thead th { background: #eef1f5; position: sticky; top: 0; font-size: .92em; }
th.num, td.num { text-align: right; }
td.note { white-space: normal; min-width: 14em; color: var(--muted); }
th button { font: inherit; font-weight: bold; color: inherit; background: none; border: 0;
            padding: 0; cursor: pointer; text-align: inherit; }
th button:focus-visible { outline: 2px solid var(--now); outline-offset: 2px; }
th[aria-sort="ascending"] button::after { content: " \25B2"; font-size: .75em; }
th[aria-sort="descending"] button::after { content: " \25BC"; font-size: .75em; }
tbody tr:hover { background: #f7f9fc; }
tr.at-risk td:first-child { box-shadow: inset 4px 0 0 var(--risk); }
tr.at-risk td.risk { color: var(--risk); font-weight: bold; }
a { color: var(--now); }
.badge { display: inline-block; font-size: .75em; font-weight: bold; padding: 1px 8px;
         border-radius: 9px; vertical-align: middle; margin-left: 6px; }
.badge.risk { background: var(--risk); color: #fff; }
.badge.reclaim { background: #e3f1e5; color: var(--recommended); }
.reason { color: var(--risk); }
.charts { display: grid; grid-template-columns: 1fr; gap: 18px; }
.charts .card { margin: 0; }
article.at-risk { border-left: 5px solid var(--risk); }
figure { margin: 8px 0 0; }
figure svg { display: block; width: 100%; height: auto; max-width: 780px; }
footer { color: var(--muted); font-size: .85em; margin-top: 18px; }
@media (max-width: 700px) {
  body { font-size: 14px; }
  main { padding: 10px 8px 24px; }
  .card { padding: 10px 10px; border-radius: 8px; }
  th, td { padding: 5px 7px; }
  h1 { font-size: 1.3em; }
  tbody td:first-child { position: sticky; left: 0; background: var(--card); z-index: 1; }
}
@media (min-width: 1800px) {
  body { font-size: 19px; }
  main { max-width: 2200px; padding: 28px 32px; }
  .charts { grid-template-columns: 1fr 1fr; }
  figure svg { max-width: none; }
}
)css";

// The sort: no data in it, only the table's markup (data-key, data-type, data-sort, data-order).
constexpr char kScript[] = R"js(
(function () {
  'use strict';
  var table = document.getElementById('estate-table');
  if (!table) return;
  var body = table.tBodies[0];
  var heads = table.tHead.rows[0].cells;

  // The value row `row` sorts by in column `col`: a number (null when unknown) in a figure
  // column, the cell's text in lower case otherwise.
  function valueOf(row, col, numeric) {
    var cell = row.cells[col];
    var v = cell.getAttribute('data-sort');
    if (numeric) return v === null || v === '' ? null : parseFloat(v);
    return (v === null ? cell.textContent : v).toLowerCase();
  }

  // Sorts the rows by column `col`; unknown figures last either way, ties in the estate's order.
  function sortBy(col, descending) {
    var numeric = heads[col].getAttribute('data-type') === 'number';
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = valueOf(a, col, numeric), y = valueOf(b, col, numeric), c = 0;
      if (x === null || y === null) {
        c = (x === null ? 1 : 0) - (y === null ? 1 : 0);
      } else {
        c = numeric ? x - y : (x < y ? -1 : (x > y ? 1 : 0));
        if (descending) c = -c;
      }
      return c !== 0 ? c : a.getAttribute('data-order') - b.getAttribute('data-order');
    });
    rows.forEach(function (r) { body.appendChild(r); });
    for (var i = 0; i < heads.length; ++i) {
      heads[i].setAttribute('aria-sort',
                            i !== col ? 'none' : (descending ? 'descending' : 'ascending'));
    }
    table.setAttribute('data-sorted-by',
                       heads[col].getAttribute('data-key') + (descending ? ':desc' : ':asc'));
  }

  // A click on a column's header: sort by it, ascending; the other way when it already is.
  function onHeaderClick(event) {
    var th = event.currentTarget.parentNode;
    sortBy(th.cellIndex, th.getAttribute('aria-sort') === 'ascending');
  }

  // Each header's text becomes a button (without script the headers stay plain text).
  for (var i = 0; i < heads.length; ++i) {
    var button = document.createElement('button');
    button.type = 'button';
    button.title = 'Sort by this column';
    while (heads[i].firstChild) button.appendChild(heads[i].firstChild);
    heads[i].appendChild(button);
    heads[i].setAttribute('aria-sort', 'none');
    button.addEventListener('click', onHeaderClick);
  }

  // #sort=KEY or #sort=KEY:desc: clicks KEY's header button, the very handler a user's click
  // runs, until the column is sorted that way (once or twice).
  function applyFragment() {
    var m = /^#sort=([a-z0-9-]+)(:desc|:asc)?$/.exec(window.location.hash);
    if (!m) return;
    var want = m[2] === ':desc' ? 'descending' : 'ascending';
    for (var i = 0; i < heads.length; ++i) {
      if (heads[i].getAttribute('data-key') !== m[1]) continue;
      var button = heads[i].querySelector('button');
      for (var n = 0; n < 2 && heads[i].getAttribute('aria-sort') !== want; ++n) button.click();
      return;
    }
  }
  window.addEventListener('hashchange', applyFragment);
  applyFragment();
})();
)js";

// A number for an attribute: the shortest text that reads back as the same double.
std::string AttributeNumber(double value) { return absl::StrFormat("%.17g", value); }

// A percentage of `whole` for a CSS width, 0-100.
std::string Share(double part, double whole) {
  if (whole <= 0) return "0";
  return absl::StrFormat("%.2f", std::clamp(part / whole * 100, 0.0, 100.0));
}

std::string Header(const EstateView& estate, const std::string& title) {
  std::string out = absl::StrCat("<header class=\"card\">\n<h1>", XmlEscape(title), "</h1>\n",
                                 "<p class=\"totals\" id=\"totals\">",
                                 XmlEscape(EstateTotalLine(estate.totals)), ".</p>\n");
  if (estate.metrics_requests.has_value()) {
    absl::StrAppend(
        &out, "<p class=\"muted\">Read with ",
        sizing::FormatCount(*estate.metrics_requests, "metrics request", "metrics requests"),
        " (rule ", sizing::rules::kEstateRequestsBounded, ").</p>\n");
  }
  absl::StrAppend(&out, "</header>\n");
  return out;
}

std::string Pool(const EstateView& estate) {
  std::string out = "<section class=\"card\" id=\"pool\">\n<h2>Licence pool</h2>\n";
  if (!estate.license_error.empty()) {
    absl::StrAppend(&out,
                    "<p class=\"reason\">Licence pool unknown: ", XmlEscape(estate.license_error),
                    "</p>\n");
  }
  if (estate.license_pool.empty()) {
    if (estate.license_error.empty()) {
      absl::StrAppend(&out,
                      "<p class=\"muted\">The estate's JSON carries no licence pool (the "
                      "Controller's licence ledger was not read).</p>\n");
    }
    absl::StrAppend(&out, "</section>\n");
    return out;
  }
  for (const segroup::EstateLicensePool& tier : estate.license_pool) {
    const std::string line = EstateLicensePoolLine(tier);
    absl::StrAppend(
        &out, "<div class=\"pool-tier\">\n<p class=\"pool-line\" data-tier=\"",
        XmlEscape(tier.pool.tier), "\">", XmlEscape(line), "</p>\n",
        "<div class=\"meter\" role=\"img\" aria-label=\"", XmlEscape(line),
        "\"><span class=\"consumed\" style=\"width:", Share(tier.pool.consumed, tier.pool.licensed),
        "%\"></span><span class=\"escrow\" style=\"width:",
        Share(tier.pool.escrow, tier.pool.licensed), "%\"></span></div>\n</div>\n");
  }
  absl::StrAppend(&out,
                  "<div class=\"legend\"><span><i style=\"background:var(--now)\"></i>consumed"
                  "</span><span><i style=\"background:var(--escrow)\"></i>in escrow (SEs being "
                  "created)</span><span><i style=\"background:#e6ebe7\"></i>remaining</span>"
                  "</div>\n</section>\n");
  return out;
}

// The groups of the estate as an HTML table, a row each.
std::string HtmlTable(const EstateView& estate) {
  const bool with_tenant = HasTenantColumn(estate);
  const std::vector<std::string> columns = EstateColumns(with_tenant);
  const std::vector<size_t> figures = EstateFigureColumns(with_tenant);
  auto is_figure = [&](size_t c) {
    return std::find(figures.begin(), figures.end(), c) != figures.end();
  };
  std::string out = absl::StrCat(
      "<section class=\"card\" id=\"groups\">\n<h2>SE groups</h2>\n",
      "<p class=\"hint\">Click a column's header to sort by it; click again to reverse.</p>\n",
      "<div class=\"scroll\">\n<table id=\"estate-table\">\n<thead><tr>");
  for (size_t c = 0; c < columns.size(); ++c) {
    absl::StrAppend(&out, "<th scope=\"col\" data-key=\"", EstateColumnKey(columns[c]),
                    "\" data-type=\"", is_figure(c) ? "number\" class=\"num" : "text", "\">",
                    XmlEscape(columns[c]), "</th>");
  }
  absl::StrAppend(&out, "</tr></thead>\n<tbody>\n");
  const size_t risk_column = columns.size() - 2;  // "at risk"
  for (size_t r = 0; r < estate.groups.size(); ++r) {
    const EstateRow& row = estate.groups[r];
    const std::vector<std::string> cells = EstateCells(row, with_tenant);
    const std::vector<std::optional<double>> numbers = EstateFigures(row, with_tenant);
    absl::StrAppend(&out, "<tr data-order=\"", r, "\" data-group=\"", XmlEscape(row.uuid), "\"",
                    row.at_risk ? " class=\"at-risk\"" : "", ">");
    for (size_t c = 0; c < cells.size(); ++c) {
      std::string attributes;
      if (is_figure(c)) {
        absl::StrAppend(&attributes, " class=\"num\" data-sort=\"",
                        numbers[c].has_value() ? AttributeNumber(*numbers[c]) : "", "\"");
      } else if (c == risk_column) {
        attributes = " class=\"risk\"";
      } else if (c + 1 == cells.size()) {
        attributes = " class=\"note\"";
      }
      std::string text = XmlEscape(cells[c]);
      if (c == 0) text = absl::StrCat("<a href=\"#group-", r, "\">", text, "</a>");
      absl::StrAppend(&out, "<td", attributes, ">", text, "</td>");
    }
    absl::StrAppend(&out, "</tr>\n");
  }
  absl::StrAppend(&out, "</tbody>\n</table>\n</div>\n");
  if (estate.groups.empty()) absl::StrAppend(&out, "<p>No SE group matched.</p>\n");
  absl::StrAppend(&out, "</section>\n");
  return out;
}

// One group's card: its name, where it runs, why it is at risk or has no figures, and its chart.
std::string GroupCard(const EstateRow& row, size_t index, double largest_units) {
  std::string out = absl::StrCat("<article class=\"card group", row.at_risk ? " at-risk" : "",
                                 "\" id=\"group-", index, "\" data-group=\"", XmlEscape(row.uuid),
                                 "\">\n<h3>", XmlEscape(row.name));
  if (row.at_risk) absl::StrAppend(&out, "<span class=\"badge risk\">at risk</span>");
  if (row.service_units_reclaimable.has_value() && *row.service_units_reclaimable > 0) {
    absl::StrAppend(&out, "<span class=\"badge reclaim\">",
                    XmlEscape(sizing::FormatServiceUnits(*row.service_units_reclaimable)),
                    " reclaimable</span>");
  }
  std::vector<std::string> where;
  if (!row.tenant.empty()) where.push_back(absl::StrCat("tenant ", row.tenant));
  if (!row.cloud.empty()) where.push_back(absl::StrCat("cloud ", row.cloud));
  if (!row.platform.empty()) where.push_back(row.platform);
  where.push_back(sizing::FormatCount(row.se_count, "SE", "SEs"));
  std::string place;
  for (const std::string& part : where) {
    absl::StrAppend(&place, place.empty() ? "" : " \xC2\xB7 ", XmlEscape(part));
  }
  absl::StrAppend(&out, "</h3>\n<p class=\"muted\">", place, "</p>\n");
  if (row.at_risk) {
    const std::string why = AtRiskReason(row);
    if (!why.empty()) absl::StrAppend(&out, "<p class=\"reason\">", XmlEscape(why), ".</p>\n");
  }
  if (!row.note.empty())
    absl::StrAppend(&out, "<p class=\"muted\">", XmlEscape(row.note), "</p>\n");
  absl::StrAppend(&out, "<figure>\n", EstateGroupChartSvg(row, largest_units), "</figure>\n",
                  "</article>\n");
  return out;
}

std::string Charts(const EstateView& estate) {
  if (estate.groups.empty()) return "";
  std::vector<size_t> order(estate.groups.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_partition(order.begin(), order.end(),
                        [&](size_t i) { return estate.groups[i].at_risk; });
  const double largest = LargestServiceUnits(estate);
  std::string out = absl::StrCat(
      "<section id=\"charts\">\n<h2>Per group</h2>\n",
      "<p class=\"hint\">The groups at risk first (rule ", sizing::rules::kEstateGroupAtRisk,
      "), then the estate's order. Each chart: the daily peaks, the trend and the target; below "
      "it the Service Units now and recommended from the observed load.</p>\n",
      "<div class=\"charts\">\n");
  for (size_t i : order) absl::StrAppend(&out, GroupCard(estate.groups[i], i, largest));
  absl::StrAppend(&out, "</div>\n</section>\n");
  return out;
}

}  // namespace

std::string EstateColumnKey(const std::string& column) {
  std::string key;
  for (char c : column) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      key.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    } else if (!key.empty() && key.back() != '-') {
      key.push_back('-');
    }
  }
  while (!key.empty() && key.back() == '-') key.pop_back();
  return key;
}

std::string EstateHtml(const EstateView& estate, const std::string& title) {
  return absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n",
      "<title>", XmlEscape(title), "</title>\n<style>", kStyle,
      "</style>\n</head>\n<body>\n<main>\n", Header(estate, title), Pool(estate), HtmlTable(estate),
      Charts(estate),
      "<footer>Written by terraform-provider-nsxalb estate-report. The page is self-contained: "
      "it loads nothing.</footer>\n</main>\n<script>",
      kScript, "</script>\n</body>\n</html>\n");
}

}  // namespace nsxalb::cli
