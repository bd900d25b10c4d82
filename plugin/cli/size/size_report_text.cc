// Implementation of size_report_text.h.
#include "plugin/cli/size/size_report_text.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/sizing/capacity.h"
#include "plugin/sizing/figure.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/rules.h"
#include "plugin/sizing/service_units.h"

namespace nsxalb::cli {
namespace {

namespace sz = ::nsxalb::sizing;

std::string Pad(const std::string& s, size_t width) {
  return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

std::string PadLeft(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

void PrintProfile(const sz::Profile& p, std::ostream& out) {
  out << p.name << ": " << p.cloud_type << "; Avi " << p.avi_version << "; " << p.cpu_model;
  if (*p.nic_note != '\0') out << "; " << p.nic_note;
  out << " (seed " << p.seed_file << ")\n";
}

template <typename T>
void PrintChoice(const char* name, const sz::Choice<T>& c, const std::string& value,
                 std::ostream& out) {
  out << "  " << Pad(name, 27) << Pad(value, 10) << Pad(sz::BasisName(c.basis), 14) << c.rule
      << ": " << c.reason << "\n";
}

std::string Bool(bool b) { return b ? "true" : "false"; }

// The capacity table with the demand and utilization of each demanded metric, then the CPU budget
// as one line. A "!" marks what is not carried: a metric judged alone, or the budget (its parts are
// not marked one by one when there are several).
void PrintCapacity(const sz::SeCapacity& c, const std::vector<sz::MetricLoad>& loads,
                   const sz::CpuLoad& cpu, int se_count, std::ostream& out) {
  const bool budget_of_many = cpu.parts.size() >= 2;
  out << "  " << Pad("metric", 22) << PadLeft("capacity/SE", 14) << "  " << Pad("basis", 14)
      << PadLeft("demand", 12) << PadLeft("utilization", 13) << "\n";
  for (sz::Metric m : sz::kAllMetrics) {
    const sz::Figure& f = c.Of(m);
    std::string demand;
    std::string utilization;
    for (const sz::MetricLoad& l : loads) {
      if (l.metric != m) continue;
      demand = sz::FormatValue(m, l.demand, sz::Rounding::kUp);
      const bool marked = !l.carried && !(budget_of_many && sz::SharesCpuBudget(m));
      utilization = absl::StrCat(sz::FormatPercent(l.utilization_pct), marked ? " !" : "");
    }
    std::string row = absl::StrCat("  ", Pad(sz::InfoOf(m).label, 22),
                                   PadLeft(sz::FormatValue(m, f.value, sz::Rounding::kDown), 14),
                                   "  ", Pad(sz::BasisName(f.basis), 14));
    if (!demand.empty()) absl::StrAppend(&row, PadLeft(demand, 12), PadLeft(utilization, 13));
    while (!row.empty() && row.back() == ' ') row.pop_back();
    out << row << "\n";
  }
  if (!cpu.Empty()) {
    out << "  CPU budget per SE: " << sz::CpuLoadText(cpu) << (cpu.carried ? "" : " !") << " ("
        << sz::rules::kCpuBudget << ")\n";
  }
  if (se_count > 1) out << "  (utilization is of " << se_count << " active SEs)\n";
  out << "  Sources:\n";
  for (sz::Metric m : sz::kAllMetrics) {
    const sz::Figure& f = c.Of(m);
    out << "    " << Pad(sz::InfoOf(m).key, 15) << f.source;
    if (!f.rules.empty()) out << "; rules: " << absl::StrJoin(f.rules, ", ");
    out << "\n";
  }
}

void PrintFindings(const char* title, const std::vector<sz::Finding>& findings, std::ostream& out) {
  if (findings.empty()) return;
  out << "\n" << title << ":\n";
  for (const sz::Finding& f : findings) {
    out << "  " << sz::SeverityName(f.severity) << " [" << f.attribute << "] " << f.summary
        << "\n    " << f.detail << "\n    (rule " << f.rule << ")\n";
  }
}

}  // namespace

void PrintSeedTables(const std::vector<sizing::Platform>& platforms, std::ostream& out) {
  bool first = true;
  for (sz::Platform platform : platforms) {
    const sz::Profile& p = sz::ProfileOf(platform);
    if (!first) out << "\n";
    first = false;
    PrintProfile(p, out);
    out << Pad("", 34);
    for (const sz::MeasuredSize& s : p.sizes) out << PadLeft(sz::SizeName(s), 12);
    out << "\n";
    for (sz::Metric m : sz::kAllMetrics) {
      out << Pad(sz::InfoOf(m).seed_row, 34);
      for (const sz::MeasuredSize& s : p.sizes) {
        const auto& v = s.values[static_cast<int>(m)];
        out << PadLeft(v ? sz::FormatValue(m, static_cast<double>(*v), sz::Rounding::kDown) : "n/p",
                       12);
      }
      out << "\n";
    }
    out << Pad("SE Disk", 34);
    for (const sz::MeasuredSize& s : p.sizes) {
      out << PadLeft(s.disk_gb ? absl::StrCat(*s.disk_gb, " GB") : "n/p", 12);
    }
    out << "\n";
  }
  out << "\nn/p: not published in the seed. Throughput is client-facing virtual-service "
         "throughput.\n";
}

void PrintSizeReport(const sizing::Workload& w, const sizing::Validation& v, bool has_settings,
                     std::ostream& out) {
  const bool has_demand = !w.demand.Empty();
  out << "Sizing for ";
  PrintProfile(sz::ProfileOf(w.platform), out);
  if (has_demand) {
    out << "\nWorkload at " << w.target_utilization_pct << "% target utilization:\n";
    for (sz::Metric m : sz::kAllMetrics) {
      if (!w.demand.Get(m)) continue;
      const double d = *w.demand.Get(m);
      out << "  " << Pad(sz::InfoOf(m).label, 22)
          << PadLeft(sz::FormatValue(m, d, sz::Rounding::kUp), 14) << "  needs "
          << sz::FormatValue(m, d * 100 / w.target_utilization_pct, sz::Rounding::kUp) << "\n";
    }
  }
  if (has_demand && v.recommendation) {
    const sz::Recommendation& r = *v.recommendation;
    out << "\nRecommendation: " << r.se_count.value << " active "
        << sz::Agree(r.se_count.value, "SE", "SEs");
    switch (r.ha_mode) {
      case sz::HaMode::kShared:
        out << " + " << r.buffer_se << " buffer";
        break;
      case sz::HaMode::kSharedPair:
        out << " (active/active, no buffer)";
        break;
      case sz::HaMode::kLegacyActiveStandby:
        out << " + 1 standby (active/standby)";
        break;
    }
    out << ", " << sz::FormatVcpus(r.vcpus_per_se.value) << " / " << r.memory_per_se.value
        << " MB each\n";
    PrintChoice("vcpus_per_se", r.vcpus_per_se, absl::StrCat(r.vcpus_per_se.value), out);
    PrintChoice("memory_per_se", r.memory_per_se, absl::StrCat(r.memory_per_se.value), out);
    PrintChoice("disk_per_se", r.disk_per_se, absl::StrCat(r.disk_per_se.value), out);
    PrintChoice("cpu_reserve", r.cpu_reserve, Bool(r.cpu_reserve.value), out);
    PrintChoice("mem_reserve", r.mem_reserve, Bool(r.mem_reserve.value), out);
    PrintChoice("dedicated_dispatcher_core", r.dedicated_dispatcher_core,
                Bool(r.dedicated_dispatcher_core.value), out);
    PrintChoice("num_dispatcher_cores", r.num_dispatcher_cores,
                absl::StrCat(r.num_dispatcher_cores.value), out);
    PrintChoice("max_queues_per_vnic", r.max_queues_per_vnic,
                absl::StrCat(r.max_queues_per_vnic.value), out);
    PrintChoice("hybrid_rss_mode", r.hybrid_rss_mode, Bool(r.hybrid_rss_mode.value), out);
    PrintChoice("min_scaleout_per_vs", r.min_scaleout_per_vs,
                absl::StrCat(r.min_scaleout_per_vs.value), out);
    PrintChoice("max_se", r.max_se, absl::StrCat(r.max_se.value), out);
    out << "  " << Pad("buffer_se", 27) << r.buffer_se << "\n";
    out << "\nService Units (licences) at the planned scale:\n";
    PrintChoice("per SE", r.service_units.per_se,
                sz::FormatServiceUnits(r.service_units.per_se.value), out);
    PrintChoice("service_units", r.service_units.at_planned_scale,
                sz::FormatServiceUnits(r.service_units.at_planned_scale.value), out);
    out << "\nCapacity and utilization (" << sz::FormatVcpus(r.vcpus_per_se.value) << ", "
        << r.memory_per_se.value << " MB per SE):\n";
    PrintCapacity(r.capacity, r.loads, r.cpu, r.se_count.value, out);
    if (r.cpu_binds) {
      out << "  Binding: the CPU budget at " << sz::FormatPercent(r.cpu.utilization_pct) << "\n";
    } else if (r.binding) {
      out << "  Binding metric: " << sz::InfoOf(*r.binding).label << " at "
          << sz::FormatPercent(sz::BindingUtilizationPct(r)) << "\n";
    }
    PrintFindings("Warnings about the recommendation", r.findings, out);
  }
  if (has_settings && v.capacity) {
    out << "\nYour settings: " << v.se_count << " active " << sz::Agree(v.se_count, "SE", "SEs")
        << " of " << sz::FormatVcpus(v.vcpus) << " / " << v.memory_mb << " MB\n";
    PrintCapacity(*v.capacity, v.loads, v.cpu, v.se_count, out);
  }
  bool only_errors = true;
  for (const sz::Finding& f : v.findings)
    only_errors = only_errors && f.severity == sz::Severity::kError;
  PrintFindings(has_settings  ? "Findings for your settings"
                : only_errors ? "Errors"
                              : "Findings",
                v.findings, out);
  if (has_settings && v.findings.empty()) out << "\nNo findings for your settings.\n";
}

}  // namespace nsxalb::cli
