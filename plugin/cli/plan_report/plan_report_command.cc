// `terraform-provider-nsxalb plan-report`: plan JSON -> the sizing plan of each SE group
// (segroup::PlanSizing, the same code the provider plans with) -> Markdown.
#include "plugin/cli/plan_report/plan_report_command.h"

#include <cmath>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"
#include "plugin/cli/common/markdown.h"
#include "plugin/cli/common/sizing_chart.h"
#include "plugin/cli/common/sizing_chart_usage.h"
#include "plugin/cli/plan_report/plan_json.h"
#include "plugin/cli/plan_report/plan_report_estate.h"
#include "plugin/cli/plan_report/plan_report_license.h"
#include "plugin/cli/plan_report/plan_report_lifecycle.h"
#include "plugin/cli/plan_report/plan_report_observed.h"
#include "plugin/segroup/sizing_plan.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/profiles.h"
#include "plugin/sizing/recommend.h"
#include "plugin/sizing/rules.h"
#include "plugin/sizing/service_units.h"

namespace nsxalb::cli {
namespace {

namespace sz = ::nsxalb::sizing;
using Json = nlohmann::json;

constexpr char kSeGroupType[] = "nsxalb_se_group";

constexpr char kUsage[] = R"(Usage: terraform-provider-nsxalb plan-report PLAN_JSON [--svg-dir DIR]

Renders a sizing review of a Terraform plan as Markdown (for a pull-request comment): for every
nsxalb_se_group, the workload, the planned and the recommended shape, the utilization of each
demanded metric, the basis of the figures, and the findings; and for every nsxalb_se_group_usage
data source the plan read, the observed load against the declared workload of the group of that
name, the calibration and the recommendation from the observed load; and for every
nsxalb_se_groups_usage data source, the estate as `estate-report` renders it (the totals, the
groups, those at risk and those with reclaimable Service Units); with an nsxalb_license_usage
data source, the Service Units the plan adds per licence tier against what remains. A group whose
running SEs (its service_engines, as the last refresh recorded them) do not have the settings the
plan leaves is listed under "SEs behind settings" (rule ses-behind-settings) with its SEs and the
utilization at their real shape.

  PLAN_JSON       the output of `terraform show -json PLANFILE`, or - for stdin
  --svg-dir DIR   also write one sizing chart per SE group, DIR/<address>.svg, linked as such

Exit codes: 0 report written; 1 the plan cannot be read; 2 usage error.
)";

struct Options {
  std::string plan_path;
  std::string svg_dir;
  bool help = false;
};

std::optional<std::string> Parse(const std::vector<std::string>& args, Options& o) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      o.help = true;
    } else if (a == "--svg-dir" || a.rfind("--svg-dir=", 0) == 0) {
      if (a == "--svg-dir") {
        if (i + 1 >= args.size()) return "--svg-dir: needs a directory";
        o.svg_dir = args[++i];
      } else {
        o.svg_dir = a.substr(10);
      }
      if (o.svg_dir.empty()) return "--svg-dir: needs a directory";
    } else if (a.rfind("--", 0) == 0) {
      return absl::StrCat("unknown flag ", a);
    } else if (o.plan_path.empty()) {
      o.plan_path = a;
    } else {
      return absl::StrCat("unexpected argument \"", a, "\" (one plan file)");
    }
  }
  if (!o.help && o.plan_path.empty()) {
    return "give the plan as JSON: terraform show -json tfplan > plan.json; then plan-report "
           "plan.json";
  }
  return std::nullopt;
}

// "create", "update", "replace", "destroy", "no change" or "read".
std::string ActionOf(const Json& actions) {
  std::vector<std::string> a;
  if (actions.is_array()) {
    for (const Json& x : actions) {
      if (x.is_string()) a.push_back(x.get<std::string>());
    }
  }
  if (a.size() == 2) return "replace";
  if (a.size() == 1) {
    if (a[0] == "delete") return "destroy";
    if (a[0] == "no-op") return "no change";
    return a[0];
  }
  return "?";
}

// The configuration module of `module_address` ("module.a.module.b"; empty for the root).
const Json* ConfigModule(const Json& plan, const std::string& module_address) {
  const Json* module = nullptr;
  auto config = plan.find("configuration");
  if (config == plan.end() || !config->is_object()) return nullptr;
  auto root = config->find("root_module");
  if (root == config->end() || !root->is_object()) return nullptr;
  module = &*root;
  std::stringstream parts(module_address);
  std::string word;
  while (std::getline(parts, word, '.')) {
    if (word == "module") continue;
    const std::string name = word.substr(0, word.find('['));
    auto calls = module->find("module_calls");
    if (calls == module->end() || !calls->is_object()) return nullptr;
    auto call = calls->find(name);
    if (call == calls->end() || !call->contains("module")) return nullptr;
    module = &(*call)["module"];
  }
  return module;
}

// The `expressions` the configuration wrote for resource `type`.`name` in that module; nullptr
// when the plan has no configuration for it.
const Json* Expressions(const Json& plan, const Json& change) {
  const Json* module = ConfigModule(plan, change.value("module_address", ""));
  if (module == nullptr) return nullptr;
  auto resources = module->find("resources");
  if (resources == module->end() || !resources->is_array()) return nullptr;
  const std::string address = absl::StrCat(change.value("type", ""), ".", change.value("name", ""));
  for (const Json& r : *resources) {
    if (r.value("address", "") == address && r.value("mode", "") == "managed") {
      auto e = r.find("expressions");
      return e != r.end() && e->is_object() ? &*e : nullptr;
    }
  }
  return nullptr;
}

bool IsUnknownIn(const Json& after_unknown, const std::string& name) {
  if (!after_unknown.is_object()) return false;
  auto it = after_unknown.find(name);
  if (it == after_unknown.end()) return false;
  if (it->is_boolean()) return it->get<bool>();
  if (it->is_object()) {
    for (const auto& [k, v] : it->items()) {
      if (v.is_boolean() && v.get<bool>()) return true;
    }
  }
  return false;
}

// One SE group of the plan.
struct Group {
  std::string address;
  std::string action;
  std::string platform;  // empty when unknown
  Json before;           // the refreshed prior state (its service_engines), or null
  Json after;
  // What the group costs in Service Units before and after the plan (segroup::
  // ServiceUnitsOfSettings): 0 where it does not exist, unset where a figure is unknown.
  std::optional<double> service_units_before;
  std::optional<double> service_units_after;
  std::optional<segroup::SizingPlan> sizing;
  std::string not_sized;  // why there is no sizing
  std::string chart;      // the chart's path, when written
};

// The group's sizing input as the provider saw it: the planned values of the sizing attributes
// and the workload, without the sizing attributes the configuration does not write (so they are
// recommended, not checked). False when an input the model needs is known only after apply; an
// unknown max_se, min_se or se_name_prefix, which the model does not read, is opaque instead.
bool InputOf(const Json& after, const Json& after_unknown, const Json* expressions,
             segroup::SizingInput& in) {
  if (IsUnknownIn(after_unknown, "workload")) return false;
  auto workload = after.find("workload");
  if (workload != after.end() && workload->is_object()) {
    in.workload = Json::object();
    for (const auto& [key, value] : workload->items()) {
      if (!value.is_null()) in.workload[key] = value;
    }
  }
  bool known = true;
  for (const std::string& name : segroup::SizingAttributeNames()) {
    if (IsUnknownIn(after_unknown, name)) {
      if (name == "max_se" || name == "min_se" || name == "se_name_prefix") {
        in.opaque_settings.insert(name);
      } else {
        known = false;
      }
      continue;
    }
    if (expressions != nullptr && !expressions->contains(name)) continue;
    auto it = after.find(name);
    if (it != after.end() && !it->is_null()) in.settings[name] = *it;
  }
  // The licence settings are never recommended: what the group will have is what it costs.
  for (const std::string& name : segroup::LicenceAttributeNames()) {
    if (IsUnknownIn(after_unknown, name)) {
      known = false;
      continue;
    }
    auto it = after.find(name);
    if (it != after.end() && !it->is_null()) in.settings[name] = *it;
  }
  return known;
}

std::string MemoryText(int64_t mb) {
  return mb % 1024 == 0 ? absl::StrCat(mb / 1024, " GB") : absl::StrCat(mb, " MB");
}

// "1 SE of 6 vCPUs, 12 GB, 29 GB disk".
std::string ShapeText(int se_count, int vcpus, int64_t memory_mb, int64_t disk_gb) {
  return absl::StrCat(sz::FormatShape(se_count, vcpus), ", ", MemoryText(memory_mb), " memory, ",
                      disk_gb, " GB disk");
}

std::string RecommendationShape(const sz::Recommendation& r) {
  return ShapeText(r.se_count.value, r.vcpus_per_se.value, r.memory_per_se.value,
                   r.disk_per_se.value);
}

int64_t IntOf(const Json& after, const char* name) {
  auto it = after.find(name);
  return it != after.end() && it->is_number() ? it->get<int64_t>() : 0;
}

// The shape apply will send: the planned values, with the active SEs the model planned (the planned
// min_scaleout_per_vs when the group is not sized).
std::string PlannedShape(const Group& g) {
  const bool sized = g.sizing && g.sizing->planned_shape;
  return ShapeText(sized ? g.sizing->planned_shape->se_count.value
                         : static_cast<int>(IntOf(g.after, "min_scaleout_per_vs")),
                   static_cast<int>(IntOf(g.after, "vcpus_per_se")),
                   IntOf(g.after, "memory_per_se"), IntOf(g.after, "disk_per_se"));
}

std::string WorkloadText(const sz::Workload& w) {
  std::vector<std::string> parts;
  for (sz::Metric m : sz::kAllMetrics) {
    if (w.demand.Get(m)) parts.push_back(sz::FormatAmount(m, *w.demand.Get(m), sz::Rounding::kUp));
  }
  return absl::StrCat(absl::StrJoin(parts, ", "), " at ", w.target_utilization_pct, "% target");
}

// "CPU 71.4% = L7 RPS 36.6% + ECC SSL TPS 34.8%" or "L7 RPS 73.2%": the binding utilization,
// "-" without demand.
std::string BindingText(const sz::Recommendation& r) {
  if (r.cpu_binds) return sz::CpuLoadText(r.cpu);
  if (!r.binding) return "-";
  return absl::StrCat(sz::InfoOf(*r.binding).label, " ",
                      sz::FormatPercent(sz::BindingUtilizationPct(r)));
}

// The metric the chart draws: the binding one, or the largest part of a binding CPU budget.
sz::Metric ChartMetric(const sz::Recommendation& r) {
  if (r.cpu_binds && !r.cpu.parts.empty()) return r.cpu.parts[0].metric;
  return r.binding.value_or(sz::Metric::kL7Rps);
}

std::string FileNameOf(const std::string& address) {
  std::string out;
  for (char c : address) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '_' || c == '-';
    out.push_back(keep ? c : '_');
  }
  return out + ".svg";
}

// What a state of the plan (`before` or `after`) costs in SUs: 0 when the group does not exist in
// it (null), unset when its figures are not known.
std::optional<double> ServiceUnitsOfState(const Json& state) {
  if (state.is_null()) return 0.0;
  return segroup::ServiceUnitsOfSettings(state);
}

// The SUs cell: "18 SUs" for a new group, "18 SUs (was 24)" for a changed cost, "-" unknown.
std::string ServiceUnitsCell(const Group& g) {
  if (!g.service_units_after.has_value()) return "-";
  if (g.action == "destroy") {
    return g.service_units_before.has_value()
               ? absl::StrCat("0 (was ", sz::FormatServiceUnits(*g.service_units_before), ")")
               : "0";
  }
  std::string out = sz::FormatServiceUnits(*g.service_units_after);
  if (g.action != "create" && g.service_units_before.has_value() &&
      *g.service_units_before != *g.service_units_after) {
    absl::StrAppend(&out, " (was ", sz::FormatServiceUnits(*g.service_units_before), ")");
  }
  return out;
}

// "Service Units: this plan adds 18 SUs and removes 6 (net +12)." over the groups whose figures
// are known, with a note for those that are not.
std::string ServiceUnitsTotal(const std::vector<Group>& groups) {
  double added = 0, removed = 0;
  int unknown = 0;
  for (const Group& g : groups) {
    if (!g.service_units_before.has_value() || !g.service_units_after.has_value()) {
      ++unknown;
      continue;
    }
    const double delta = *g.service_units_after - *g.service_units_before;
    (delta > 0 ? added : removed) += std::abs(delta);
  }
  std::string out;
  if (added == 0 && removed == 0) {
    out = "Service Units: this plan changes no group's Service Units";
  } else {
    const double net = added - removed;
    out = absl::StrCat("Service Units: this plan adds ", sz::FormatServiceUnits(added),
                       " and removes ", sz::FormatServiceUnits(removed), " (net ",
                       net > 0   ? "+"
                       : net < 0 ? "-"
                                 : "",
                       sz::FormatServiceUnits(std::abs(net)), ")");
  }
  if (unknown > 0) {
    absl::StrAppend(&out, "; ", sz::FormatCount(unknown, "group's", "groups'"),
                    " Service Units are known only after apply");
  }
  return out + ".\n";
}

void SizeGroup(const Json& plan, const Json& change, const Json& c, Group& g) {
  if (!g.after.is_object()) {
    g.not_sized = "destroyed";
    return;
  }
  const Json after_unknown = c.value("after_unknown", Json::object());
  if (IsUnknownIn(after_unknown, "platform")) {
    g.not_sized = "the platform is known only after apply";
    return;
  }
  auto platform_it = g.after.find("platform");
  if (platform_it == g.after.end() || !platform_it->is_string()) {
    g.not_sized = "no platform";
    return;
  }
  g.platform = platform_it->get<std::string>();
  absl::StatusOr<sz::Platform> platform = sz::ParsePlatform(g.platform);
  if (!platform.ok()) {
    g.not_sized = absl::StrCat("unknown platform \"", g.platform, "\"");
    return;
  }
  segroup::SizingInput input;
  if (!InputOf(g.after, after_unknown, Expressions(plan, change), input)) {
    g.not_sized = "the workload or settings are known only after apply";
    return;
  }
  segroup::SizingPlan sizing = segroup::PlanSizing(input, *platform);
  if (!sizing.has_workload) {
    g.not_sized = "no workload: not sized";
  } else if (!sizing.planned_shape) {
    g.not_sized = "the sizing inputs have errors (see the findings)";
  }
  g.sizing = std::move(sizing);
}

// Writes the group's chart into --svg-dir, with the headroom forecast of the usage data source of
// its name when the plan read one (a forecast it cannot read is noted on stderr and left out).
void WriteChart(const Options& o, const Json& plan, Group& g, std::ostream& err) {
  if (o.svg_dir.empty() || !g.sizing || !g.sizing->planned_shape || !g.sizing->workload) return;
  const sz::Recommendation& planned = *g.sizing->planned_shape;
  ChartInput input;
  input.workload = *g.sizing->workload;
  input.metric = ChartMetric(planned);
  const sz::Recommendation& rec = g.sizing->recommendation ? *g.sizing->recommendation : planned;
  input.recommended = ChartShape{rec.vcpus_per_se.value, rec.memory_per_se.value,
                                 rec.se_count.value, rec.service_units.at_planned_scale.value};
  input.given = ChartShape{planned.vcpus_per_se.value, planned.memory_per_se.value,
                           planned.se_count.value, g.service_units_after};
  auto name = g.after.find("name");
  const Json* usage = name != g.after.end() && name->is_string()
                          ? ObservedUsageOf(plan, name->get<std::string>())
                          : nullptr;
  if (usage != nullptr) {
    absl::StatusOr<ChartForecast> forecast = ChartForecastFromUsageJson(*usage);
    if (forecast.ok()) {
      input.forecast = *std::move(forecast);
    } else {
      err << "plan-report: " << g.address << ": the chart leaves out the forecast of its "
          << "nsxalb_se_group_usage (" << forecast.status().message() << ")\n";
    }
  }
  const std::string path = absl::StrCat(o.svg_dir, "/", FileNameOf(g.address));
  std::ofstream file(path, std::ios::trunc);
  file << SizingChartSvg(input);
  file.close();
  if (!file) {
    err << "plan-report: cannot write " << path << " (does --svg-dir exist?)\n";
    return;
  }
  g.chart = path;
}

void RenderGroupDetail(const Group& g, std::ostream& out) {
  out << "\n### `" << g.address << "` (" << g.action;
  if (!g.platform.empty()) out << ", " << g.platform;
  out << ")\n\n";
  if (!g.sizing || !g.sizing->planned_shape) {
    out << "Not sized: " << g.not_sized << ".\n";
  }
  if (g.sizing && g.sizing->planned_shape && g.sizing->workload) {
    const sz::Recommendation& p = *g.sizing->planned_shape;
    const sz::Workload& w = *g.sizing->workload;
    if (g.sizing->summary) out << "> " << g.sizing->summary->summary << "\n\n";
    out << "| metric | demand | needed at " << w.target_utilization_pct << "% | capacity of "
        << sz::FormatSeCount(p.se_count.value) << " | utilization | basis |\n"
        << "|---|--:|--:|--:|--:|---|\n";
    const bool budget_of_many = p.cpu.parts.size() >= 2;
    for (const sz::MetricLoad& l : p.loads) {
      const bool over = !l.carried && !(budget_of_many && sz::SharesCpuBudget(l.metric));
      out << "| " << sz::InfoOf(l.metric).label << " | "
          << sz::FormatValue(l.metric, l.demand, sz::Rounding::kUp) << " | "
          << sz::FormatValue(l.metric, l.needed, sz::Rounding::kUp) << " | "
          << sz::FormatValue(l.metric, l.group_capacity, sz::Rounding::kDown) << " | "
          << sz::FormatPercent(l.utilization_pct) << (over ? " **over target**" : "") << " | "
          << sz::BasisName(l.per_se.basis) << " |\n";
    }
    if (budget_of_many) {
      out << "| **CPU budget per SE** (" << sz::rules::kCpuBudget << ") | | | | "
          << MarkdownCell(sz::CpuLoadText(p.cpu)) << (p.cpu.carried ? "" : " **over target**")
          << " | |\n";
    }
    out << "\n- Planned: " << PlannedShape(g) << "; max_se " << IntOf(g.after, "max_se") << ".\n";
    if (g.sizing->recommendation) {
      const sz::Recommendation& r = *g.sizing->recommendation;
      out << "- Recommended: " << RecommendationShape(r) << "; max_se " << r.max_se.value << " ("
          << r.vcpus_per_se.rule << ", " << sz::BasisName(r.vcpus_per_se.basis) << ").\n";
    }
  }
  if (g.sizing && !g.sizing->findings.empty()) {
    out << "\nFindings:\n\n";
    for (const segroup::Finding& f : g.sizing->findings) {
      out << "- " << segroup::FindingText(f) << "\n";
    }
  }
  if (g.sizing) {
    for (const segroup::InputError& e : g.sizing->input_errors) {
      out << "- error: " << e.summary << ". " << e.detail << "\n";
    }
  }
  if (!g.chart.empty()) {
    const sz::Recommendation& p = *g.sizing->planned_shape;
    out << "\n![" << sz::InfoOf(ChartMetric(p)).label << " capacity of one SE by vCPUs](" << g.chart
        << ")\n";
  }
}

void Render(const std::vector<Group>& groups, std::ostream& out) {
  int create = 0, update = 0, replace = 0, destroy = 0, sized = 0, under = 0;
  for (const Group& g : groups) {
    create += g.action == "create";
    update += g.action == "update";
    replace += g.action == "replace";
    destroy += g.action == "destroy";
    if (g.sizing && g.sizing->planned_shape) {
      ++sized;
      under += !g.sizing->planned_shape->carried;
    }
  }
  out << "## NSX ALB sizing review\n\n";
  if (groups.empty()) {
    out << "The plan has no nsxalb_se_group.\n";
    return;
  }
  out << "Plan: " << sz::FormatCount(create, "SE group", "SE groups") << " to create, " << update
      << " to update, " << replace << " to replace, " << destroy << " to destroy. ";
  if (sized == 0) {
    out << "No SE group in the plan declares a workload.\n";
  } else if (under == 0) {
    out << (sized == 1   ? std::string("The sized SE group carries its workload")
            : sized == 2 ? std::string("Both sized SE groups carry their workloads")
                         : absl::StrCat("All ", sized, " sized SE groups carry their workloads"))
        << " at the target utilization.\n";
  } else {
    out << "**" << under << " of " << sz::FormatCount(sized, "sized SE group", "sized SE groups")
        << (under == 1 ? " does" : " do") << " not carry " << (under == 1 ? "its" : "their")
        << " workload at the target utilization.**\n";
  }
  out << "\n" << ServiceUnitsTotal(groups);
  out << "\n| SE group | action | workload | planned | recommended | utilization | basis | "
         "Service Units | findings |\n|---|---|---|---|---|---|---|---|---|\n";
  for (const Group& g : groups) {
    out << "| `" << g.address << "` | " << g.action << " | ";
    if (!g.sizing || !g.sizing->planned_shape || !g.sizing->workload) {
      out << MarkdownCell(g.not_sized) << " | "
          << (g.after.is_object() ? MarkdownCell(PlannedShape(g)) : "-") << " | - | - | - | "
          << MarkdownCell(ServiceUnitsCell(g)) << " | ";
      const size_t n = g.sizing ? g.sizing->findings.size() + g.sizing->input_errors.size() : 0;
      out << (n == 0 ? "none" : sz::FormatCount(static_cast<int>(n), "finding", "findings"))
          << " |\n";
      continue;
    }
    const sz::Recommendation& p = *g.sizing->planned_shape;
    const std::string planned = PlannedShape(g);
    std::string recommended = "-";
    if (g.sizing->recommendation) {
      recommended = RecommendationShape(*g.sizing->recommendation);
      if (recommended == planned) recommended = "as planned";
    }
    std::string utilization = "-";
    if (!p.loads.empty()) {
      utilization = absl::StrCat(BindingText(p), p.carried ? "" : " (over target)");
    }
    int warnings = 0, errors = 0;
    for (const segroup::Finding& f : g.sizing->findings) {
      (f.finding.severity == sz::Severity::kError ? errors : warnings)++;
    }
    std::vector<std::string> counts;
    if (errors > 0) counts.push_back(sz::FormatCount(errors, "error", "errors"));
    if (warnings > 0) counts.push_back(sz::FormatCount(warnings, "warning", "warnings"));
    out << MarkdownCell(WorkloadText(*g.sizing->workload)) << " | " << MarkdownCell(planned)
        << " | " << MarkdownCell(recommended) << " | " << MarkdownCell(utilization) << " | "
        << (g.sizing->summary ? g.sizing->summary->basis : "") << " | "
        << MarkdownCell(ServiceUnitsCell(g)) << " | "
        << (counts.empty() ? "none" : absl::StrJoin(counts, ", ")) << " |\n";
  }
  for (const Group& g : groups) RenderGroupDetail(g, out);
  std::vector<PlanGroupSes> running;
  running.reserve(groups.size());
  for (const Group& g : groups) {
    running.push_back({g.address, g.before, g.after, g.sizing ? &*g.sizing : nullptr});
  }
  out << SesBehindSection(running, "###");
  out << "\n<sub>Sizing from the NSX Advanced Load Balancer performance and sizing tables for "
         "vCenter clouds (Avi 20.1.6) and NSX-T clouds (Avi 22.1.3), by terraform-provider-nsxalb "
         "plan-report.</sub>\n";
}

}  // namespace

int RunPlanReportCommand(const std::vector<std::string>& args, std::ostream& out,
                         std::ostream& err) {
  Options o;
  if (std::optional<std::string> e = Parse(args, o)) {
    err << "plan-report: " << *e
        << "\nRun 'terraform-provider-nsxalb plan-report --help' for usage.\n";
    return 2;
  }
  if (o.help) {
    out << kUsage;
    return 0;
  }
  std::string text;
  if (o.plan_path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(o.plan_path);
    if (!in) {
      err << "plan-report: cannot read " << o.plan_path << "\n";
      return 1;
    }
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const Json plan = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!plan.is_object() || !plan.contains("format_version")) {
    err << "plan-report: " << o.plan_path
        << " is not a plan in JSON; make one with: terraform plan -out=tfplan && terraform show "
           "-json tfplan > plan.json\n";
    return 1;
  }
  if (!plan.contains("planned_values") && plan.contains("values")) {
    err << "plan-report: " << o.plan_path
        << " is a state, not a plan; run terraform show -json on the plan file (plan -out)\n";
    return 1;
  }
  std::vector<Group> groups;
  // A member of an unexpected JSON type makes nlohmann::json throw; that is a malformed plan, not
  // a crash.
  try {
    const Json empty = Json::object();
    auto changes = plan.find("resource_changes");
    if (changes != plan.end() && changes->is_array()) {
      for (const Json& change : *changes) {
        if (!change.is_object() || change.value("type", "") != kSeGroupType ||
            change.value("mode", "") != "managed") {
          continue;
        }
        auto c = change.find("change");
        const Json& details = c != change.end() && c->is_object() ? *c : empty;
        Group g;
        g.address = change.value("address", "");
        g.action = ActionOf(details.value("actions", Json::array()));
        g.after = details.value("after", Json());
        g.before = details.value("before", Json());
        g.service_units_before = ServiceUnitsOfState(details.value("before", Json()));
        g.service_units_after =
            IsUnknownIn(details.value("after_unknown", Json::object()), "max_se")
                ? std::nullopt
                : ServiceUnitsOfState(g.after);
        SizeGroup(plan, change, details, g);
        WriteChart(o, plan, g, err);
        groups.push_back(std::move(g));
      }
    }
  } catch (const Json::exception& e) {
    err << "plan-report: " << o.plan_path << " is not a plan as terraform show -json writes it ("
        << e.what() << ")\n";
    return 1;
  }
  Render(groups, out);
  std::vector<PlanLicenseGroup> licensed;
  licensed.reserve(groups.size());
  for (const Group& g : groups) {
    // The group's id in the state before the plan (its change's `before`; "" when it is created).
    const std::string id = StringMember(g.before, "id");
    licensed.push_back({g.address, id, g.action, g.service_units_after});
  }
  RenderLicense(plan, licensed, out);
  RenderObservedLoad(plan, out);
  RenderEstates(plan, out);
  return 0;
}

}  // namespace nsxalb::cli
