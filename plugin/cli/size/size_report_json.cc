// Implementation of size_report_json.h.
#include "plugin/cli/size/size_report_json.h"

#include <string>
#include <vector>

#include "plugin/sizing/capacity.h"
#include "plugin/sizing/figure.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/rules.h"

namespace nsxalb::cli {
namespace {

namespace sz = ::nsxalb::sizing;
using Json = nlohmann::ordered_json;

double Display(sz::Metric m, double base) { return sz::DisplayFromBase(m, base); }

Json FigureJson(sz::Metric m, const sz::Figure& f) {
  return Json{{"value", Display(m, f.value)},
              {"unit", sz::InfoOf(m).unit},
              {"text", sz::FormatValue(m, f.value, sz::Rounding::kDown)},
              {"basis", sz::BasisName(f.basis)},
              {"rules", f.rules},
              {"source", f.source}};
}

template <typename T>
Json ChoiceJson(const sz::Choice<T>& c) {
  return Json{{"value", c.value},
              {"basis", sz::BasisName(c.basis)},
              {"rule", c.rule},
              {"reason", c.reason}};
}

Json CapacityJson(const sz::SeCapacity& c) {
  Json metrics = Json::object();
  for (sz::Metric m : sz::kAllMetrics) metrics[sz::InfoOf(m).key] = FigureJson(m, c.Of(m));
  return Json{{"vcpus", c.vcpus},
              {"memory_mb", c.memory_mb},
              {"table_memory_mb", Json{{"value", c.table_memory_mb.value},
                                       {"basis", sz::BasisName(c.table_memory_mb.basis)},
                                       {"rules", c.table_memory_mb.rules},
                                       {"source", c.table_memory_mb.source}}},
              {"per_se", metrics}};
}

// The loads by metric key, and under "cpu" the CPU budget with its parts (when any metric shares
// it).
Json LoadsJson(const std::vector<sz::MetricLoad>& loads, const sz::CpuLoad& cpu) {
  Json out = Json::object();
  for (const sz::MetricLoad& l : loads) {
    out[sz::InfoOf(l.metric).key] = Json{{"demand", Display(l.metric, l.demand)},
                                         {"needed", Display(l.metric, l.needed)},
                                         {"per_se", Display(l.metric, l.per_se.value)},
                                         {"se_count", l.se_count},
                                         {"group_capacity", Display(l.metric, l.group_capacity)},
                                         {"utilization_pct", l.utilization_pct},
                                         {"basis", sz::BasisName(l.per_se.basis)},
                                         {"carried", l.carried}};
  }
  if (!cpu.Empty()) {
    Json parts = Json::object();
    for (const sz::CpuPart& part : cpu.parts) {
      parts[sz::InfoOf(part.metric).key] = part.utilization_pct;
    }
    out["cpu"] = Json{{"utilization_pct", cpu.utilization_pct},
                      {"carried", cpu.carried},
                      {"parts", parts},
                      {"text", sz::CpuLoadText(cpu)},
                      {"rule", sz::rules::kCpuBudget}};
  }
  return out;
}

Json FindingsJson(const std::vector<sz::Finding>& findings) {
  Json out = Json::array();
  for (const sz::Finding& f : findings) {
    out.push_back(Json{{"severity", sz::SeverityName(f.severity)},
                       {"attribute", f.attribute},
                       {"rule", f.rule},
                       {"summary", f.summary},
                       {"detail", f.detail}});
  }
  return out;
}

Json ProfileJson(const sz::Profile& p) {
  return Json{{"name", p.name},
              {"seed_file", p.seed_file},
              {"avi_version", p.avi_version},
              {"cloud_type", p.cloud_type},
              {"cpu_model", p.cpu_model},
              {"nic_note", p.nic_note}};
}

Json WorkloadJson(const sz::Workload& w) {
  Json demand = Json::object();
  for (sz::Metric m : sz::kAllMetrics) {
    if (w.demand.Get(m)) demand[sz::InfoOf(m).key] = Display(m, *w.demand.Get(m));
  }
  return Json{{"demand", demand},
              {"target_utilization", w.target_utilization_pct},
              {"max_vcpus_per_se", w.max_vcpus_per_se},
              {"buffer_se", w.buffer_se},
              {"max_scaleout_per_vs", w.max_scaleout_per_vs},
              {"ha_mode", sz::HaModeName(w.ha_mode)},
              {"virtual_services",
               w.virtual_services.has_value() ? Json(*w.virtual_services) : Json(nullptr)},
              {"max_vs_per_se", w.max_vs_per_se}};
}

Json SettingsJson(const sz::Settings& s) {
  Json out = Json::object();
  auto put = [&out](const char* name, const auto& opt) {
    if (opt.has_value()) out[name] = *opt;
  };
  put("vcpus_per_se", s.vcpus_per_se);
  put("memory_per_se", s.memory_per_se);
  put("disk_per_se", s.disk_per_se);
  put("cpu_reserve", s.cpu_reserve);
  put("mem_reserve", s.mem_reserve);
  put("dedicated_dispatcher_core", s.dedicated_dispatcher_core);
  put("num_dispatcher_cores", s.num_dispatcher_cores);
  put("max_queues_per_vnic", s.max_queues_per_vnic);
  put("hybrid_rss_mode", s.hybrid_rss_mode);
  put("se_count", s.se_count);
  put("max_se", s.max_se);
  return out;
}

Json RecommendationJson(const sz::Recommendation& r) {
  Json settings = Json{
      {"vcpus_per_se", ChoiceJson(r.vcpus_per_se)},
      {"memory_per_se", ChoiceJson(r.memory_per_se)},
      {"disk_per_se", ChoiceJson(r.disk_per_se)},
      {"cpu_reserve", ChoiceJson(r.cpu_reserve)},
      {"mem_reserve", ChoiceJson(r.mem_reserve)},
      {"dedicated_dispatcher_core", ChoiceJson(r.dedicated_dispatcher_core)},
      {"num_dispatcher_cores", ChoiceJson(r.num_dispatcher_cores)},
      {"max_queues_per_vnic", ChoiceJson(r.max_queues_per_vnic)},
      {"hybrid_rss_mode", ChoiceJson(r.hybrid_rss_mode)},
      {"min_scaleout_per_vs", ChoiceJson(r.min_scaleout_per_vs)},
      {"buffer_se", Json{{"value", r.buffer_se},
                         {"basis", "rule"},
                         {"rule", ""},
                         {"reason", r.ha_mode == sz::HaMode::kShared ? "workload input (N+M HA)"
                                                                     : "no buffer outside N+M"}}},
      {"max_se", ChoiceJson(r.max_se)}};
  const Json service_units =
      Json{{"per_se", ChoiceJson(r.service_units.per_se)},
           {"at_planned_scale", ChoiceJson(r.service_units.at_planned_scale)}};
  const std::string binding = sz::BindingKey(r);
  return Json{{"settings", settings},
              {"ha_mode", sz::HaModeName(r.ha_mode)},
              {"se_count", ChoiceJson(r.se_count)},
              {"binding_metric", binding.empty() ? Json(nullptr) : Json(binding)},
              {"carried", r.carried},
              {"service_units", service_units},
              {"capacity", CapacityJson(r.capacity)},
              {"utilization", LoadsJson(r.loads, r.cpu)},
              {"disk", Json{{"value", r.disk.value},
                            {"basis", sz::BasisName(r.disk.basis)},
                            {"rules", r.disk.rules},
                            {"source", r.disk.source}}},
              {"findings", FindingsJson(r.findings)}};
}

}  // namespace

nlohmann::ordered_json SeedTablesJson(const std::vector<sz::Platform>& platforms) {
  Json out = Json::array();
  for (sz::Platform platform : platforms) {
    const sz::Profile& p = sz::ProfileOf(platform);
    Json sizes = Json::array();
    for (const sz::MeasuredSize& s : p.sizes) {
      Json values = Json::object();
      for (sz::Metric m : sz::kAllMetrics) {
        const auto& v = s.values[static_cast<int>(m)];
        values[sz::InfoOf(m).key] =
            v.has_value() ? Json(Display(m, static_cast<double>(*v))) : Json(nullptr);
      }
      sizes.push_back(Json{{"size", sz::SizeName(s)},
                           {"vcpus", s.vcpus},
                           {"memory_gb", s.memory_gb},
                           {"disk_gb", s.disk_gb.has_value() ? Json(*s.disk_gb) : Json(nullptr)},
                           {"values", values}});
    }
    Json profile = ProfileJson(p);
    profile["sizes"] = sizes;
    out.push_back(profile);
  }
  return out;
}

nlohmann::ordered_json SizeReportJson(const sizing::Workload& workload,
                                      const sizing::Settings& settings,
                                      const sizing::Validation& v) {
  const bool has_demand = !workload.demand.Empty();
  const bool has_settings = !settings.Empty();
  Json report = Json{{"platform", sz::PlatformName(workload.platform)},
                     {"profile", ProfileJson(sz::ProfileOf(workload.platform))},
                     {"workload", WorkloadJson(workload)}};
  if (has_demand && v.recommendation) {
    report["recommendation"] = RecommendationJson(*v.recommendation);
  }
  if (has_settings) {
    Json check = Json{
        {"given", SettingsJson(settings)},
        {"effective",
         Json{{"vcpus_per_se", v.vcpus}, {"memory_per_se", v.memory_mb}, {"se_count", v.se_count}}},
        {"under_sized", v.under_sized}};
    if (v.capacity) {
      check["capacity"] = CapacityJson(*v.capacity);
      check["utilization"] = LoadsJson(v.loads, v.cpu);
    }
    report["check"] = check;
  }
  report["findings"] = FindingsJson(v.findings);
  return report;
}

}  // namespace nsxalb::cli
