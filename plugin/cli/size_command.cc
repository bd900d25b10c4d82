// `terraform-provider-nsxalb size`: flags -> sizing library -> text or JSON report. The model lives
// in plugin/sizing; this file only parses flags and renders.
#include "plugin/cli/size_command.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/types/optional.h"
#include "nlohmann/json.hpp"
#include "plugin/sizing/capacity.h"
#include "plugin/sizing/figure.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/profiles.h"
#include "plugin/sizing/recommend.h"
#include "plugin/sizing/validate.h"

namespace nsxalb::cli {
namespace {

namespace sz = ::nsxalb::sizing;
using Json = nlohmann::ordered_json;

constexpr char kUsage[] =
    R"(Usage: terraform-provider-nsxalb size --platform vcenter|nsxt [workload] [settings] [options]
       terraform-provider-nsxalb size --tables [--platform vcenter|nsxt] [--json]

Sizes NSX ALB Service Engine groups from the embedded seed measurements. Needs no plugin
environment and no Controller.

Workload (demand; any subset):
  --ssl-tps-ecc N          ECC SSL transactions per second
  --ssl-tps-rsa N          RSA SSL transactions per second
  --l7-rps N               L7 (HTTP) requests per second
  --l4-cps N               L4 (TCP) connections per second
  --l4-open-conns N        L4 open (concurrent) connections
  --l4-gbps X              L4 throughput, Gbps
  --l7-gbps X              L7 throughput, Gbps
  --l7-ssl-gbps X          L7 SSL throughput, Gbps
Sizing policy:
  --target-utilization P   percent of capacity to plan for, 40-90 (default 80, max_cpu_usage)
  --max-vcpus-per-se N     largest SE to recommend, 1-64 (default 6, the measured range)
  --buffer-se N            buffer SEs for N+M HA (default 1)
  --max-scaleout-per-vs N  SEs one virtual service may use (default 4)
Settings to check (any subset):
  --vcpus N                vcpus_per_se
  --memory-mb N            memory_per_se, MB
  --disk-gb N              disk_per_se, GB
  --cpu-reserve B          cpu_reserve, true|false
  --mem-reserve B          mem_reserve, true|false
  --dedicated-dispatcher B dedicated_dispatcher_core, true|false
  --num-dispatcher-cores N num_dispatcher_cores
  --max-queues-per-vnic N  max_queues_per_vnic
  --hybrid-rss B           hybrid_rss_mode, true|false
  --se-count N             active SEs the workload is spread over
Options:
  --json                   print the report as JSON
  --strict                 exit 1 when the settings under-deliver the workload
  --tables                 print the embedded seed tables
  --help                   print this help

Exit codes: 0 ok; 1 under-sized with --strict; 2 usage error or invalid value.
)";

// The flag that sets each attribute, for error messages.
const std::map<std::string, std::string>& FlagOfAttribute() {
  static const std::map<std::string, std::string> kMap = {
      {"vcpus_per_se", "--vcpus"},
      {"memory_per_se", "--memory-mb"},
      {"disk_per_se", "--disk-gb"},
      {"cpu_reserve", "--cpu-reserve"},
      {"mem_reserve", "--mem-reserve"},
      {"dedicated_dispatcher_core", "--dedicated-dispatcher"},
      {"num_dispatcher_cores", "--num-dispatcher-cores"},
      {"max_queues_per_vnic", "--max-queues-per-vnic"},
      {"hybrid_rss_mode", "--hybrid-rss"},
      {"se_count", "--se-count"},
      {"workload.target_utilization", "--target-utilization"},
      {"workload.max_vcpus_per_se", "--max-vcpus-per-se"},
      {"buffer_se", "--buffer-se"},
      {"max_scaleout_per_vs", "--max-scaleout-per-vs"},
  };
  return kMap;
}

std::string FlagFor(const std::string& attribute) {
  const auto it = FlagOfAttribute().find(attribute);
  if (it != FlagOfAttribute().end()) return it->second;
  if (attribute.rfind("workload.", 0) == 0) {
    std::string key = attribute.substr(9);
    for (char& c : key) c = c == '_' ? '-' : c;
    return "--" + key;
  }
  return "";
}

struct Options {
  absl::optional<sz::Platform> platform;
  sz::Workload workload;
  sz::Settings settings;
  bool json = false;
  bool strict = false;
  bool tables = false;
  bool help = false;
};

// A parse error: the message names the flag.
struct ParseError {
  std::string message;
};

bool ParseInt(const std::string& text, int64_t* out) { return absl::SimpleAtoi(text, out); }

absl::optional<ParseError> ParseIntFlag(const std::string& flag, const std::string& text,
                                        int64_t lo, int64_t hi, int64_t* out) {
  if (!ParseInt(text, out)) {
    return ParseError{absl::StrCat(flag, ": \"", text, "\" is not a whole number")};
  }
  // Wide bounds only guard against overflow; the model reports its own ranges as findings.
  if (*out < lo || *out > hi) {
    return ParseError{absl::StrCat(flag, ": ", text, " is out of range")};
  }
  return absl::nullopt;
}

absl::optional<ParseError> ParseBoolFlag(const std::string& flag, const std::string& text,
                                         absl::optional<bool>* out) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "true") {
    *out = true;
  } else if (lower == "false") {
    *out = false;
  } else {
    return ParseError{absl::StrCat(flag, ": \"", text, "\" must be true or false")};
  }
  return absl::nullopt;
}

using ValueHandler = std::function<absl::optional<ParseError>(Options&, const std::string& flag,
                                                              const std::string& value)>;

ValueHandler IntInto(int sz::Workload::*field) {
  return [field](Options& o, const std::string& flag, const std::string& value) {
    int64_t n = 0;
    if (auto e = ParseIntFlag(flag, value, -1000000, 1000000, &n)) return e;
    o.workload.*field = static_cast<int>(n);
    return absl::optional<ParseError>();
  };
}

ValueHandler IntSetting(absl::optional<int> sz::Settings::*field) {
  return [field](Options& o, const std::string& flag, const std::string& value) {
    int64_t n = 0;
    if (auto e = ParseIntFlag(flag, value, -1000000, 1000000, &n)) return e;
    o.settings.*field = static_cast<int>(n);
    return absl::optional<ParseError>();
  };
}

ValueHandler Int64Setting(absl::optional<int64_t> sz::Settings::*field) {
  return [field](Options& o, const std::string& flag, const std::string& value) {
    int64_t n = 0;
    if (auto e = ParseIntFlag(flag, value, -(int64_t{1} << 40), int64_t{1} << 40, &n)) return e;
    o.settings.*field = n;
    return absl::optional<ParseError>();
  };
}

ValueHandler BoolSetting(absl::optional<bool> sz::Settings::*field) {
  return [field](Options& o, const std::string& flag, const std::string& value) {
    return ParseBoolFlag(flag, value, &(o.settings.*field));
  };
}

ValueHandler DemandFor(sz::Metric metric) {
  return [metric](Options& o, const std::string& flag, const std::string& value) {
    double x = 0;
    if (!absl::SimpleAtod(value, &x) || !std::isfinite(x)) {
      return absl::optional<ParseError>(
          ParseError{absl::StrCat(flag, ": \"", value, "\" is not a number")});
    }
    if (x < 0) {
      return absl::optional<ParseError>(
          ParseError{absl::StrCat(flag, ": ", value, " must be 0 or more")});
    }
    o.workload.demand.Set(metric, sz::BaseFromDisplay(metric, x));
    return absl::optional<ParseError>();
  };
}

const std::map<std::string, ValueHandler>& ValueFlags() {
  static const std::map<std::string, ValueHandler> kFlags = [] {
    std::map<std::string, ValueHandler> m;
    m["--platform"] = [](Options& o, const std::string& flag, const std::string& value) {
      absl::StatusOr<sz::Platform> p = sz::ParsePlatform(value);
      if (!p.ok()) {
        return absl::optional<ParseError>(
            ParseError{absl::StrCat(flag, ": \"", value, "\" must be vcenter or nsxt")});
      }
      o.platform = *p;
      return absl::optional<ParseError>();
    };
    for (sz::Metric metric : sz::kAllMetrics) {
      std::string name = sz::InfoOf(metric).key;
      for (char& c : name) c = c == '_' ? '-' : c;
      m["--" + name] = DemandFor(metric);
    }
    m["--target-utilization"] = [](Options& o, const std::string& flag, const std::string& value) {
      std::string v = value;
      if (!v.empty() && v.back() == '%') v.pop_back();
      int64_t n = 0;
      if (auto e = ParseIntFlag(flag, v, -1000, 1000, &n)) return e;
      o.workload.target_utilization_pct = static_cast<int>(n);
      return absl::optional<ParseError>();
    };
    m["--max-vcpus-per-se"] = IntInto(&sz::Workload::max_vcpus_per_se);
    m["--buffer-se"] = IntInto(&sz::Workload::buffer_se);
    m["--max-scaleout-per-vs"] = IntInto(&sz::Workload::max_scaleout_per_vs);
    m["--vcpus"] = IntSetting(&sz::Settings::vcpus_per_se);
    m["--memory-mb"] = Int64Setting(&sz::Settings::memory_per_se);
    m["--disk-gb"] = Int64Setting(&sz::Settings::disk_per_se);
    m["--cpu-reserve"] = BoolSetting(&sz::Settings::cpu_reserve);
    m["--mem-reserve"] = BoolSetting(&sz::Settings::mem_reserve);
    m["--dedicated-dispatcher"] = BoolSetting(&sz::Settings::dedicated_dispatcher_core);
    m["--num-dispatcher-cores"] = IntSetting(&sz::Settings::num_dispatcher_cores);
    m["--max-queues-per-vnic"] = IntSetting(&sz::Settings::max_queues_per_vnic);
    m["--hybrid-rss"] = BoolSetting(&sz::Settings::hybrid_rss_mode);
    m["--se-count"] = IntSetting(&sz::Settings::se_count);
    return m;
  }();
  return kFlags;
}

absl::optional<ParseError> Parse(const std::vector<std::string>& args, Options& o) {
  std::map<std::string, bool> seen;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i];
    absl::optional<std::string> value;
    const size_t eq = flag.find('=');
    if (flag.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
    }
    if (flag.rfind("--", 0) != 0) {
      return ParseError{absl::StrCat("unexpected argument \"", flag, "\" (flags start with --)")};
    }
    if (seen[flag]) return ParseError{absl::StrCat(flag, ": given more than once")};
    seen[flag] = true;
    bool* toggle = flag == "--json"                   ? &o.json
                   : flag == "--strict"               ? &o.strict
                   : flag == "--tables"               ? &o.tables
                   : flag == "--help" || flag == "-h" ? &o.help
                                                      : nullptr;
    if (toggle != nullptr) {
      if (value.has_value()) return ParseError{absl::StrCat(flag, ": takes no value")};
      *toggle = true;
      continue;
    }
    const auto it = ValueFlags().find(flag);
    if (it == ValueFlags().end()) return ParseError{absl::StrCat("unknown flag ", flag)};
    if (!value.has_value()) {
      if (i + 1 >= args.size()) return ParseError{absl::StrCat(flag, ": needs a value")};
      value = args[++i];
    }
    if (auto e = it->second(o, flag, *value)) return e;
  }
  return absl::nullopt;
}

// ---- JSON ----

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

Json LoadsJson(const std::vector<sz::MetricLoad>& loads) {
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

Json TablesJson(const std::vector<sz::Platform>& platforms) {
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

Json WorkloadJson(const sz::Workload& w) {
  Json demand = Json::object();
  for (sz::Metric m : sz::kAllMetrics) {
    if (w.demand.Get(m)) demand[sz::InfoOf(m).key] = Display(m, *w.demand.Get(m));
  }
  return Json{{"demand", demand},
              {"target_utilization", w.target_utilization_pct},
              {"max_vcpus_per_se", w.max_vcpus_per_se},
              {"buffer_se", w.buffer_se},
              {"max_scaleout_per_vs", w.max_scaleout_per_vs}};
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
  return out;
}

Json RecommendationJson(const sz::Recommendation& r) {
  Json settings = Json{{"vcpus_per_se", ChoiceJson(r.vcpus_per_se)},
                       {"memory_per_se", ChoiceJson(r.memory_per_se)},
                       {"disk_per_se", ChoiceJson(r.disk_per_se)},
                       {"cpu_reserve", ChoiceJson(r.cpu_reserve)},
                       {"mem_reserve", ChoiceJson(r.mem_reserve)},
                       {"dedicated_dispatcher_core", ChoiceJson(r.dedicated_dispatcher_core)},
                       {"num_dispatcher_cores", ChoiceJson(r.num_dispatcher_cores)},
                       {"max_queues_per_vnic", ChoiceJson(r.max_queues_per_vnic)},
                       {"hybrid_rss_mode", ChoiceJson(r.hybrid_rss_mode)},
                       {"buffer_se", Json{{"value", r.buffer_se},
                                          {"basis", "rule"},
                                          {"rule", ""},
                                          {"reason", "workload input (N+M HA)"}}},
                       {"max_se", ChoiceJson(r.max_se)}};
  return Json{{"settings", settings},
              {"se_count", ChoiceJson(r.se_count)},
              {"binding_metric", r.binding ? Json(sz::InfoOf(*r.binding).key) : Json(nullptr)},
              {"capacity", CapacityJson(r.capacity)},
              {"utilization", LoadsJson(r.loads)},
              {"disk", Json{{"value", r.disk.value},
                            {"basis", sz::BasisName(r.disk.basis)},
                            {"rules", r.disk.rules},
                            {"source", r.disk.source}}},
              {"findings", FindingsJson(r.findings)}};
}

// ---- Text ----

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

void PrintTables(const std::vector<sz::Platform>& platforms, std::ostream& out) {
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

template <typename T>
void PrintChoice(const char* name, const sz::Choice<T>& c, const std::string& value,
                 std::ostream& out) {
  out << "  " << Pad(name, 27) << Pad(value, 10) << Pad(sz::BasisName(c.basis), 14) << c.rule
      << ": " << c.reason << "\n";
}

std::string Bool(bool b) { return b ? "true" : "false"; }

std::string Vcpus(int n) { return absl::StrCat(n, n == 1 ? " vCPU" : " vCPUs"); }

void PrintCapacity(const sz::SeCapacity& c, const std::vector<sz::MetricLoad>& loads, int se_count,
                   std::ostream& out) {
  out << "  " << Pad("metric", 22) << PadLeft("capacity/SE", 14) << "  " << Pad("basis", 14)
      << PadLeft("demand", 12) << PadLeft("utilization", 13) << "\n";
  for (sz::Metric m : sz::kAllMetrics) {
    const sz::Figure& f = c.Of(m);
    std::string demand;
    std::string utilization;
    for (const sz::MetricLoad& l : loads) {
      if (l.metric != m) continue;
      demand = sz::FormatValue(m, l.demand, sz::Rounding::kUp);
      utilization = absl::StrCat(sz::FormatPercent(l.utilization_pct), l.carried ? "" : " !");
    }
    std::string row = absl::StrCat("  ", Pad(sz::InfoOf(m).label, 22),
                                   PadLeft(sz::FormatValue(m, f.value, sz::Rounding::kDown), 14),
                                   "  ", Pad(sz::BasisName(f.basis), 14));
    if (!demand.empty()) absl::StrAppend(&row, PadLeft(demand, 12), PadLeft(utilization, 13));
    while (!row.empty() && row.back() == ' ') row.pop_back();
    out << row << "\n";
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

void PrintReport(const Options& o, const sz::Validation& v, bool has_demand, bool has_settings,
                 std::ostream& out) {
  const sz::Workload& w = o.workload;
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
    out << "\nRecommendation: " << r.se_count.value << " active SE"
        << (r.se_count.value == 1 ? "" : "s") << " + " << r.buffer_se << " buffer, "
        << Vcpus(r.vcpus_per_se.value) << " / " << r.memory_per_se.value << " MB each\n";
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
    PrintChoice("max_se", r.max_se, absl::StrCat(r.max_se.value), out);
    out << "  " << Pad("buffer_se", 27) << r.buffer_se << "\n";
    out << "\nCapacity and utilization (" << Vcpus(r.vcpus_per_se.value) << ", "
        << r.memory_per_se.value << " MB per SE):\n";
    PrintCapacity(r.capacity, r.loads, r.se_count.value, out);
    if (r.binding) {
      for (const sz::MetricLoad& l : r.loads) {
        if (l.metric == *r.binding) {
          out << "  Binding metric: " << sz::InfoOf(l.metric).label << " at "
              << sz::FormatPercent(l.utilization_pct) << "\n";
        }
      }
    }
    PrintFindings("Warnings about the recommendation", r.findings, out);
  }
  if (has_settings && v.capacity) {
    out << "\nYour settings: " << v.se_count << " active SE" << (v.se_count == 1 ? "" : "s")
        << " of " << Vcpus(v.vcpus) << " / " << v.memory_mb << " MB\n";
    PrintCapacity(*v.capacity, v.loads, v.se_count, out);
  }
  PrintFindings(has_settings ? "Findings for your settings" : "Errors", v.findings, out);
  if (has_settings && v.findings.empty()) out << "\nNo findings for your settings.\n";
}

int UsageError(const std::string& message, std::ostream& err) {
  err << "size: " << message << "\nRun 'terraform-provider-nsxalb size --help' for usage.\n";
  return 2;
}

}  // namespace

int RunSizeCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Options o;
  if (absl::optional<ParseError> e = Parse(args, o)) return UsageError(e->message, err);
  if (o.help) {
    out << kUsage;
    return 0;
  }
  if (o.tables) {
    std::vector<sz::Platform> platforms(sz::kAllPlatforms.begin(), sz::kAllPlatforms.end());
    if (o.platform) platforms = {*o.platform};
    if (o.json) {
      out << Json{{"profiles", TablesJson(platforms)}}.dump(2) << "\n";
    } else {
      PrintTables(platforms, out);
    }
    return 0;
  }
  if (!o.platform) return UsageError("--platform is required (vcenter or nsxt)", err);
  o.workload.platform = *o.platform;
  const bool has_demand = !o.workload.demand.Empty();
  const bool has_settings = !o.settings.Empty();
  if (!has_demand && !has_settings) {
    return UsageError(
        "give a workload (e.g. --l7-rps 150000) or settings to check (e.g. --vcpus 4)", err);
  }

  const sz::Validation v = sz::Validate(o.workload, o.settings);
  if (o.json) {
    Json report = Json{{"platform", sz::PlatformName(o.workload.platform)},
                       {"profile", ProfileJson(sz::ProfileOf(o.workload.platform))},
                       {"workload", WorkloadJson(o.workload)}};
    if (has_demand && v.recommendation) {
      report["recommendation"] = RecommendationJson(*v.recommendation);
    }
    if (has_settings) {
      Json check = Json{{"given", SettingsJson(o.settings)},
                        {"effective", Json{{"vcpus_per_se", v.vcpus},
                                           {"memory_per_se", v.memory_mb},
                                           {"se_count", v.se_count}}},
                        {"under_sized", v.under_sized}};
      if (v.capacity) {
        check["capacity"] = CapacityJson(*v.capacity);
        check["utilization"] = LoadsJson(v.loads);
      }
      report["check"] = check;
    }
    report["findings"] = FindingsJson(v.findings);
    out << report.dump(2) << "\n";
  } else {
    PrintReport(o, v, has_demand, has_settings, out);
  }

  if (v.HasErrors()) {
    for (const sz::Finding& f : v.findings) {
      if (f.severity != sz::Severity::kError) continue;
      const std::string flag = FlagFor(f.attribute);
      err << "size: " << (flag.empty() ? "" : flag + " (") << f.attribute
          << (flag.empty() ? "" : ")") << ": " << f.summary << "\n";
    }
    return 2;
  }
  if (o.strict && v.under_sized) {
    err << "size: the settings under-deliver the workload (--strict)\n";
    return 1;
  }
  return 0;
}

}  // namespace nsxalb::cli
