// `terraform-provider-nsxalb estate-report`: flags, the estate's JSON from a file or stdin ->
// estate_view.h -> Markdown (estate_report.h), the chart (estate_chart.h) and the web page
// (estate_html.h).
#include "plugin/cli/estate/estate_report_command.h"

#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "plugin/cli/estate/estate_chart.h"
#include "plugin/cli/estate/estate_html.h"
#include "plugin/cli/estate/estate_report.h"
#include "plugin/cli/estate/estate_view.h"

namespace nsxalb::cli {
namespace {

constexpr char kUsage[] =
    R"(Usage: terraform-provider-nsxalb estate-report ESTATE_JSON [--out OUT.md] [--svg OUT.svg]
                                                  [--html OUT.html]

Renders the usage of an estate of SE groups as Markdown (for a review, a wiki page or a ticket):
the totals, a table of the groups (SEs, Service Units now, recommended from the observed load and
reclaimable, CPU peak, forecast, at risk), the groups at risk and why, and the groups with
reclaimable Service Units.

  ESTATE_JSON   what `terraform-provider-nsxalb controller usage --all --json` prints, or the
                value of an nsxalb_se_groups_usage data source (terraform output -json NAME);
                - for stdin
  --out FILE    write the Markdown to FILE instead of stdout
  --svg FILE    also write a chart: per group, its SUs now against recommended, the groups at
                risk marked, the totals in the title (a self-contained SVG)
  --html FILE   also write a web page: the licence pool per tier (when the estate has it), the
                totals, the table of groups (click a column's header to sort by it), and per
                group its chart (daily peaks, trend and target; SUs now and recommended), the
                groups at risk first. One self-contained file (inline CSS, SVG and script; it
                loads nothing), for a phone or a wall screen; #sort=COLUMN[:desc] in its address
                sorts the table on load (e.g. estate.html#sort=sus-reclaimable:desc)

Exit codes: 0 report written; 1 an output file cannot be written; 2 usage error, or ESTATE_JSON
is missing, not JSON or not an estate (the message names the JSON path).
)";

struct Options {
  std::string input;
  std::string out;
  std::string svg;
  std::string html;
  bool help = false;
};

std::optional<std::string> Parse(const std::vector<std::string>& args, Options& o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      o.help = true;
      continue;
    }
    std::string* target = nullptr;
    std::string flag = a.substr(0, a.find('='));
    if (flag == "--out") target = &o.out;
    if (flag == "--svg") target = &o.svg;
    if (flag == "--html") target = &o.html;
    if (target != nullptr) {
      if (!target->empty()) return absl::StrCat(flag, ": given more than once");
      if (a.size() > flag.size()) {
        *target = a.substr(flag.size() + 1);
      } else if (i + 1 < args.size()) {
        *target = args[++i];
      }
      if (target->empty()) return absl::StrCat(flag, ": needs a file");
    } else if (a.rfind("--", 0) == 0) {
      return absl::StrCat("unknown flag ", a);
    } else if (o.input.empty()) {
      o.input = a;
    } else {
      return absl::StrCat("unexpected argument \"", a, "\" (one estate file)");
    }
  }
  if (!o.help && o.input.empty()) {
    return "give the estate as JSON: terraform-provider-nsxalb controller usage --all --json > "
           "estate.json; then estate-report estate.json";
  }
  return std::nullopt;
}

// The estate in `path` ("-": stdin), or the error naming the file and the JSON path.
absl::StatusOr<EstateView> ReadEstateFile(const std::string& path) {
  std::string text;
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot be read"));
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const std::string name = path == "-" ? "stdin" : path;
  nlohmann::json estate;
  try {
    estate = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    return absl::InvalidArgumentError(absl::StrCat(name, " is not JSON (", e.what(), ")"));
  }
  absl::StatusOr<EstateView> view = ReadEstateView(estate);
  if (!view.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " is not an estate as `controller usage --all --json` writes it: ",
                     view.status().message()));
  }
  return view;
}

// Writes `text` to `path`; false (with the error on `err`) when it cannot.
bool WriteFile(const std::string& path, const std::string& text, std::ostream& err) {
  std::ofstream file(path, std::ios::trunc | std::ios::binary);
  file << text;
  file.close();
  if (file) return true;
  err << "estate-report: cannot write " << path << "\n";
  return false;
}

}  // namespace

int RunEstateReportCommand(const std::vector<std::string>& args, std::ostream& out,
                           std::ostream& err) {
  Options o;
  if (std::optional<std::string> e = Parse(args, o)) {
    err << "estate-report: " << *e
        << "\nRun 'terraform-provider-nsxalb estate-report --help' for usage.\n";
    return 2;
  }
  if (o.help) {
    out << kUsage;
    return 0;
  }
  absl::StatusOr<EstateView> estate = ReadEstateFile(o.input);
  if (!estate.ok()) {
    err << "estate-report: " << estate.status().message() << "\n";
    return 2;
  }
  std::string markdown = EstateMarkdown(*estate, "NSX ALB SE groups: usage of the estate", 2);
  if (!o.svg.empty()) {
    if (!WriteFile(o.svg, EstateChartSvg(*estate), err)) return 1;
    absl::StrAppend(&markdown, "\n![Service Units now and recommended per SE group](", o.svg,
                    ")\n");
  }
  if (!o.html.empty() &&
      !WriteFile(o.html, EstateHtml(*estate, "NSX ALB SE groups: usage of the estate"), err)) {
    return 1;
  }
  if (o.out.empty()) {
    out << markdown;
    return 0;
  }
  return WriteFile(o.out, markdown, err) ? 0 : 1;
}

}  // namespace nsxalb::cli
