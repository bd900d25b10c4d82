// plan-report's "Observed load" sections.
#include "plugin/cli/plan_report/plan_report_observed.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "plugin/cli/plan_report/plan_json.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/service_units.h"

namespace nsxalb::cli {
namespace {

namespace sz = ::nsxalb::sizing;

using Json = nlohmann::json;

double NumberOr(const Json& object, const char* key, double fallback) {
  if (!object.is_object()) return fallback;
  auto v = object.find(key);
  return v != object.end() && v->is_number() ? v->get<double>() : fallback;
}

// "200,000", "12.50 Gbps" or "91.0%"; "-" when unknown.
std::string Figure(const Json& object, const char* key, const char* kind) {
  const double v = NumberOr(object, key, std::nan(""));
  if (std::isnan(v)) return "-";
  if (std::string(kind) == "gbps") return absl::StrFormat("%.2f Gbps", v);
  if (std::string(kind) == "pct") return sizing::FormatPercent(v);
  return sizing::FormatInt(static_cast<int64_t>(std::llround(v)));
}

// The declared figure for an observed key from the group's planned values.
std::string Declared(const Json* group, const std::string& key) {
  if (group == nullptr) return "-";
  const Json& after = *group;
  if (key == "cpu_pct") {
    const double target = NumberOr(after, "max_cpu_usage", std::nan(""));
    return std::isnan(target) ? "-" : absl::StrCat("target ", sizing::FormatPercent(target));
  }
  Json workload = after.is_object() ? after.value("workload", Json()) : Json();
  if (workload.is_array() && !workload.empty()) workload = workload[0];
  if (!workload.is_object()) return "-";
  std::vector<const char*> keys;
  const char* kind = "int";
  if (key == "ssl_tps") {
    keys = {"ssl_tps_ecc", "ssl_tps_rsa"};
  } else if (key == "throughput_gbps") {
    keys = {"l7_ssl_gbps", "l7_gbps", "l4_gbps"};
    kind = "gbps";
  } else {
    keys = {key.c_str()};
  }
  double sum = 0;
  bool any = false;
  for (const char* k : keys) {
    const double v = NumberOr(workload, k, std::nan(""));
    if (!std::isnan(v)) {
      sum += v;
      any = true;
    }
  }
  if (!any) return "-";
  return Figure(Json{{"v", sum}}, "v", kind);
}

// "Service Units: 24 now, 8 recommended, **16 reclaimable**", or the reason none is.
std::string ServiceUnitsLine(const Json& su) {
  const auto units = [&su](const char* key) {
    const double v = NumberOr(su, key, std::nan(""));
    return std::isnan(v) ? std::string("unknown") : sz::FormatServiceUnits(v);
  };
  std::string out = absl::StrCat("Service Units (service-units-now): ", units("now"), " now, ",
                                 units("recommended"), " recommended, ");
  const double reclaimable = NumberOr(su, "reclaimable", std::nan(""));
  if (std::isnan(reclaimable)) {
    absl::StrAppend(&out, "none called reclaimable (", StringMember(su, "reason"), ").");
  } else {
    absl::StrAppend(&out, "**", sz::FormatServiceUnits(reclaimable), " reclaimable**.");
  }
  return out;
}

// "Forecast: web-se-1 reaches 80% in **27 days** (2027-01-01), +1.00 a day, R² 0.98 over 14
// daily peaks.", or "Forecast: none (<reason>)."
std::string ForecastLine(const Json& f) {
  const double days = NumberOr(f, "days_to_target", std::nan(""));
  if (std::isnan(days)) return absl::StrCat("Forecast: none (", StringMember(f, "reason"), ").");
  auto peaks = f.find("daily_peaks");
  const int count = peaks != f.end() && peaks->is_array() ? static_cast<int>(peaks->size()) : 0;
  return absl::StrCat(
      "Forecast (forecast-days-to-target): ", StringMember(f, "subject"), " reaches ",
      static_cast<int64_t>(NumberOr(f, "target_pct", 0)), "% in **",
      sz::FormatCount(static_cast<int>(days), "day", "days"), "** (", StringMember(f, "reaches_on"),
      absl::StrFormat("), %+.2f a day, R² %.2f over %d daily peaks.",
                      NumberOr(f, "slope_per_day", 0), NumberOr(f, "r_squared", 0), count));
}

// The nsxalb_se_group_usage data sources the plan read: Terraform records what it read in
// prior_state.
std::vector<const Json*> UsageDataSources(const Json& plan) {
  std::vector<const Json*> usage;
  for (const Json* resource : PriorStateResources(plan)) {
    if (StringMember(*resource, "type") == "nsxalb_se_group_usage" &&
        StringMember(*resource, "mode") == "data") {
      usage.push_back(resource);
    }
  }
  return usage;
}

}  // namespace

const Json* ObservedUsageOf(const Json& plan, const std::string& name) {
  for (const Json* resource : UsageDataSources(plan)) {
    auto values = resource->find("values");
    if (values != resource->end() && StringMember(*values, "name") == name) return &*values;
  }
  return nullptr;
}

void RenderObservedLoad(const Json& plan, std::ostream& out) {
  // The planned objects are in planned_values.
  const std::vector<const Json*> planned = PlannedResources(plan);
  for (const Json* resource : UsageDataSources(plan)) {
    const Json usage = resource->value("values", Json::object());
    const std::string name = StringMember(usage, "name");
    const Json* group = nullptr;
    for (const Json* r : planned) {
      if (r->is_object() && r->value("type", "") == "nsxalb_se_group" &&
          r->value("mode", "") == "managed" &&
          StringMember(r->value("values", Json()), "name") == name) {
        group = &(*r)["values"];
      }
    }
    out << "\n### Observed load: `" << resource->value("address", "") << "` (" << name << ", "
        << StringMember(usage, "statistic") << " over " << StringMember(usage, "window") << ", "
        << static_cast<int64_t>(NumberOr(usage, "se_count", 0)) << " SEs, basis "
        << StringMember(usage, "basis") << ")\n\n"
        << "| metric | declared | observed | at |\n|---|--:|--:|---|\n";
    const Json observed = usage.value("observed", Json::object());
    const Json at = usage.value("observed_at", Json::object());
    const struct {
      const char* key;
      const char* label;
      const char* kind;
    } rows[] = {{"l7_rps", "L7 RPS", "int"},
                {"ssl_tps", "SSL TPS (ECC + RSA)", "int"},
                {"l4_cps", "L4 CPS", "int"},
                {"l4_open_conns", "open connections", "int"},
                {"throughput_gbps", "throughput", "gbps"},
                {"cpu_pct", "CPU (highest SE)", "pct"}};
    for (const auto& row : rows) {
      const std::string seen = Figure(observed, row.key, row.kind);
      if (seen == "-") continue;
      out << "| " << row.label << " | " << Declared(group, row.key) << " | " << seen << " | "
          << StringMember(at, row.key) << " |\n";
    }
    const Json calibration = usage.value("calibration", Json::object());
    const double ratio = NumberOr(calibration, "ratio", std::nan(""));
    out << "\n- Calibration (calibrate-cpu-to-observed): "
        << (std::isnan(ratio)
                ? std::string("none")
                : absl::StrFormat("observed CPU / model CPU = %.3f over %d samples%s", ratio,
                                  static_cast<int>(NumberOr(calibration, "samples", 0)),
                                  calibration.value("applied", false) ? ", applied" : ""))
        << ".\n";
    const std::string summary = StringMember(usage.value("recommendation", Json()), "summary");
    if (!summary.empty()) out << "- Recommended from the observed load: " << summary << ".\n";
    out << "- " << ServiceUnitsLine(usage.value("service_units", Json::object())) << "\n";
    out << "- " << ForecastLine(usage.value("forecast", Json::object())) << "\n";
  }
}

}  // namespace nsxalb::cli
