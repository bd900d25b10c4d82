// The estate's usage as one self-contained web page (`estate-report --html FILE`), for the licence
// owner and the capacity review: the licence pool per tier (when the estate carries it), the
// totals, the table of groups (sortable by any column), and per group its chart (the headroom
// forecast panel and its SUs now and recommended: estate_chart.h), the groups at risk first.
//
// Self-contained: inline CSS, inline SVG and one small inline script; no request leaves the page
// (a Content-Security-Policy of default-src 'none' says so to the browser too). Responsive: one
// column on a phone (the table scrolls sideways in its box), wider type and two charts a row on a
// wall screen. Every string from the Controller (group, cloud, tenant and SE names, notes) is
// escaped (XmlEscape) and never enters the script: a name such as "<script>" is text.
//
// The table sorts in the browser: the script turns each column header into a button; a click
// sorts by that column (figures as numbers, an unknown figure "-" last), a second click reverses
// it. Without script the table reads in the estate's order. The fragment #sort=KEY or
// #sort=KEY:desc (KEY: the column's data-key, e.g. sus-now) clicks the same header button on
// load, so a link or a test gets the sorted table through the click handler itself.
#ifndef NSXALB_PLUGIN_CLI_ESTATE_ESTATE_HTML_H_
#define NSXALB_PLUGIN_CLI_ESTATE_ESTATE_HTML_H_

#include <string>

#include "plugin/cli/estate/estate_view.h"

namespace nsxalb::cli {

// The page as an HTML5 document (UTF-8) titled `title`.
std::string EstateHtml(const EstateView& estate, const std::string& title);

// The data-key of a column of the table: its name in lower case, runs of other characters as "-"
// ("SUs now" -> "sus-now"); the key #sort= names.
std::string EstateColumnKey(const std::string& column);

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_ESTATE_ESTATE_HTML_H_
