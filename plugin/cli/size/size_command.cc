// `terraform-provider-nsxalb size`: flags -> sizing library -> text or JSON report, and a chart.
// The model lives in plugin/sizing, the reports in size_report_text.h and size_report_json.h, the
// chart in cli/common/sizing_chart.h; this file parses flags and runs them.
#include "plugin/cli/size/size_command.h"

#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/substitute.h"
#include "nlohmann/json.hpp"
#include "plugin/cli/common/sizing_chart.h"
#include "plugin/cli/common/sizing_chart_usage.h"
#include "plugin/cli/size/size_report_json.h"
#include "plugin/cli/size/size_report_text.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/limits.h"
#include "plugin/sizing/profiles.h"
#include "plugin/sizing/recommend.h"
#include "plugin/sizing/validate.h"

namespace nsxalb::cli {
namespace {

namespace sz = ::nsxalb::sizing;

// $0 is the vCPU range of an SE (sizing/limits.h).
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
  --max-vcpus-per-se N     largest SE to recommend, $0 (default 6, the measured range)
  --buffer-se N            buffer SEs for N+M HA (default 1)
  --max-scaleout-per-vs N  SEs one virtual service may use (default 4)
  --ha-mode MODE           HA_MODE_SHARED (N+M, default), HA_MODE_SHARED_PAIR (active/active)
                           or HA_MODE_LEGACY_ACTIVE_STANDBY
  --virtual-services N     virtual services the group places (default: one)
  --max-vs-per-se N        virtual services per SE, max_vs_per_se (default 10; 2 with --per-app)
Licences (Service Units: what the planned group costs):
  --max-num-se-dps N       data-path processes per SE, max_num_se_dps (1-128; default one per
                           vCPU): one Service Unit each
  --per-app B              true|false: per-app SE mode, per_app (each vCPU 0.25 SU; at most 2
                           virtual services per SE)
Settings to check (any subset; each flag is the Avi field of that name):
  --vcpus-per-se N         vCPUs of each SE
  --memory-per-se N        memory of each SE, MB
  --disk-per-se N          disk of each SE, GB
  --cpu-reserve B          true|false
  --mem-reserve B          true|false
  --dedicated-dispatcher-core B
                           true|false
  --num-dispatcher-cores N
  --max-queues-per-vnic N
  --hybrid-rss-mode B      true|false
  --min-scaleout-per-vs N  SEs each virtual service is placed on: with one virtual service, the
                           active SEs its workload is spread over; with --virtual-services above
                           1, checked against the HA mode and the virtual-service slots
  --max-se N               checked against the HA mode and the virtual-service slots
  Old names, accepted as aliases through 0.2.x and removed in 0.3.0: --vcpus (--vcpus-per-se),
  --memory-mb (--memory-per-se), --disk-gb (--disk-per-se), --dedicated-dispatcher
  (--dedicated-dispatcher-core), --hybrid-rss (--hybrid-rss-mode), --se-count
  (--min-scaleout-per-vs).
Options:
  --svg FILE               also write a sizing chart (SVG): capacity of one SE by vCPUs for the
                           binding metric, both profiles, the demand line, the recommended size
  --chart-metric M         the metric to chart instead of the binding one (e.g. l7-rps)
  --observed-peak N        --svg: also draw the group's observed peak of the charted metric (as
                           nsxalb_se_group_usage or `controller usage` reports it; Gbps for
                           throughput) beside the demand line
  --observed-usage FILE    --svg: draw the group's headroom forecast (daily peaks, trend, target)
                           in a panel below the chart, from FILE: the JSON of
                           `terraform-provider-nsxalb controller usage NAME --json`; and its
                           observed peak of the charted metric when --observed-peak is not given
                           (not for SSL TPS: the report does not split ECC from RSA handshakes)
  --json                   print the report as JSON
  --strict                 exit 1 when the settings under-deliver the workload
  --tables                 print the embedded seed tables
  --help                   print this help

Exit codes: 0 ok; 1 under-sized with --strict; 2 usage error or invalid value.
)";

// The old name of each renamed flag -> its name after the Avi field. Accepted through 0.2.x (the
// help says so); remove in 0.3.0.
const std::map<std::string, std::string>& FlagAliases() {
  static const std::map<std::string, std::string> kAliases = {
      {"--vcpus", "--vcpus-per-se"},
      {"--memory-mb", "--memory-per-se"},
      {"--disk-gb", "--disk-per-se"},
      {"--dedicated-dispatcher", "--dedicated-dispatcher-core"},
      {"--hybrid-rss", "--hybrid-rss-mode"},
      {"--se-count", "--min-scaleout-per-vs"},
  };
  return kAliases;
}

// The flag that sets each attribute, for error messages.
const std::map<std::string, std::string>& FlagOfAttribute() {
  static const std::map<std::string, std::string> kMap = {
      {"vcpus_per_se", "--vcpus-per-se"},
      {"memory_per_se", "--memory-per-se"},
      {"disk_per_se", "--disk-per-se"},
      {"cpu_reserve", "--cpu-reserve"},
      {"mem_reserve", "--mem-reserve"},
      {"dedicated_dispatcher_core", "--dedicated-dispatcher-core"},
      {"num_dispatcher_cores", "--num-dispatcher-cores"},
      {"max_queues_per_vnic", "--max-queues-per-vnic"},
      {"hybrid_rss_mode", "--hybrid-rss-mode"},
      // Both are set by --min-scaleout-per-vs: se_count with one virtual service.
      {"se_count", "--min-scaleout-per-vs"},
      {"min_scaleout_per_vs", "--min-scaleout-per-vs"},
      {"workload.target_utilization", "--target-utilization"},
      {"workload.max_vcpus_per_se", "--max-vcpus-per-se"},
      {"buffer_se", "--buffer-se"},
      {"max_scaleout_per_vs", "--max-scaleout-per-vs"},
      {"max_vs_per_se", "--max-vs-per-se"},
      {"max_se", "--max-se"},
      {"ha_mode", "--ha-mode"},
      {"max_num_se_dps", "--max-num-se-dps"},
      {"per_app", "--per-app"},
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
  std::optional<sz::Platform> platform;
  sz::Workload workload;
  sz::Settings settings;
  bool json = false;
  bool strict = false;
  bool tables = false;
  bool help = false;
  // --min-scaleout-per-vs: settings.se_count with one virtual service, else
  // settings.min_scaleout_per_vs (as nsxalb_se_group reads the attribute); resolved after parsing,
  // since --virtual-services may come later.
  std::optional<int> min_scaleout_per_vs;
  std::string svg_file;                    // --svg: write the sizing chart here
  std::optional<sz::Metric> chart_metric;  // --chart-metric: else the binding metric
  std::optional<double> observed_peak;     // --observed-peak: display units of the chart metric
  std::string observed_usage_file;         // --observed-usage: a usage report's JSON
};

// A parse error: the message names the flag.
struct ParseError {
  std::string message;
};

bool ParseInt(const std::string& text, int64_t* out) { return absl::SimpleAtoi(text, out); }

std::optional<ParseError> ParseIntFlag(const std::string& flag, const std::string& text, int64_t lo,
                                       int64_t hi, int64_t* out) {
  if (!ParseInt(text, out)) {
    return ParseError{absl::StrCat(flag, ": \"", text, "\" is not a whole number")};
  }
  // Wide bounds only guard against overflow; the model reports its own ranges as findings.
  if (*out < lo || *out > hi) {
    return ParseError{absl::StrCat(flag, ": ", text, " is out of range")};
  }
  return std::nullopt;
}

std::optional<ParseError> ParseBoolFlag(const std::string& flag, const std::string& text,
                                        std::optional<bool>* out) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "true") {
    *out = true;
  } else if (lower == "false") {
    *out = false;
  } else {
    return ParseError{absl::StrCat(flag, ": \"", text, "\" must be true or false")};
  }
  return std::nullopt;
}

using ValueHandler = std::function<std::optional<ParseError>(Options&, const std::string& flag,
                                                             const std::string& value)>;

ValueHandler IntInto(int sz::Workload::*field) {
  return [field](Options& o, const std::string& flag, const std::string& value) {
    int64_t n = 0;
    if (auto e = ParseIntFlag(flag, value, -1000000, 1000000, &n)) return e;
    o.workload.*field = static_cast<int>(n);
    return std::optional<ParseError>();
  };
}

ValueHandler IntSetting(std::optional<int> sz::Settings::*field) {
  return [field](Options& o, const std::string& flag, const std::string& value) {
    int64_t n = 0;
    if (auto e = ParseIntFlag(flag, value, -1000000, 1000000, &n)) return e;
    o.settings.*field = static_cast<int>(n);
    return std::optional<ParseError>();
  };
}

ValueHandler Int64Setting(std::optional<int64_t> sz::Settings::*field) {
  return [field](Options& o, const std::string& flag, const std::string& value) {
    int64_t n = 0;
    if (auto e = ParseIntFlag(flag, value, -(int64_t{1} << 40), int64_t{1} << 40, &n)) return e;
    o.settings.*field = n;
    return std::optional<ParseError>();
  };
}

ValueHandler BoolSetting(std::optional<bool> sz::Settings::*field) {
  return [field](Options& o, const std::string& flag, const std::string& value) {
    return ParseBoolFlag(flag, value, &(o.settings.*field));
  };
}

ValueHandler DemandFor(sz::Metric metric) {
  return [metric](Options& o, const std::string& flag, const std::string& value) {
    double x = 0;
    if (!absl::SimpleAtod(value, &x) || !std::isfinite(x)) {
      return std::optional<ParseError>(
          ParseError{absl::StrCat(flag, ": \"", value, "\" is not a number")});
    }
    if (x < 0) {
      return std::optional<ParseError>(
          ParseError{absl::StrCat(flag, ": ", value, " must be 0 or more")});
    }
    o.workload.demand.Set(metric, sz::BaseFromDisplay(metric, x));
    return std::optional<ParseError>();
  };
}

const std::map<std::string, ValueHandler>& ValueFlags() {
  static const std::map<std::string, ValueHandler> kFlags = [] {
    std::map<std::string, ValueHandler> m;
    m["--platform"] = [](Options& o, const std::string& flag, const std::string& value) {
      absl::StatusOr<sz::Platform> p = sz::ParsePlatform(value);
      if (!p.ok()) {
        return std::optional<ParseError>(
            ParseError{absl::StrCat(flag, ": \"", value, "\" must be vcenter or nsxt")});
      }
      o.platform = *p;
      return std::optional<ParseError>();
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
      return std::optional<ParseError>();
    };
    m["--max-vcpus-per-se"] = IntInto(&sz::Workload::max_vcpus_per_se);
    m["--buffer-se"] = IntInto(&sz::Workload::buffer_se);
    m["--max-scaleout-per-vs"] = IntInto(&sz::Workload::max_scaleout_per_vs);
    m["--max-vs-per-se"] = IntInto(&sz::Workload::max_vs_per_se);
    m["--virtual-services"] = [](Options& o, const std::string& flag, const std::string& value) {
      int64_t n = 0;
      if (auto e = ParseIntFlag(flag, value, -1000000, 1000000, &n)) return e;
      o.workload.virtual_services = static_cast<int>(n);
      return std::optional<ParseError>();
    };
    m["--ha-mode"] = [](Options& o, const std::string& flag, const std::string& value) {
      absl::StatusOr<sz::HaMode> mode = sz::ParseHaMode(value);
      if (!mode.ok()) {
        return std::optional<ParseError>(
            ParseError{absl::StrCat(flag, ": ", mode.status().message())});
      }
      o.workload.ha_mode = *mode;
      return std::optional<ParseError>();
    };
    m["--max-num-se-dps"] = [](Options& o, const std::string& flag, const std::string& value) {
      int64_t n = 0;
      if (auto e = ParseIntFlag(flag, value, -1000000, 1000000, &n)) return e;
      o.workload.service_unit_settings.max_num_se_dps = static_cast<int>(n);
      return std::optional<ParseError>();
    };
    m["--per-app"] = [](Options& o, const std::string& flag, const std::string& value) {
      if (value != "true" && value != "false") {
        return std::optional<ParseError>(
            ParseError{absl::StrCat(flag, ": \"", value, "\" must be true or false")});
      }
      o.workload.service_unit_settings.per_app = value == "true";
      return std::optional<ParseError>();
    };
    m["--vcpus-per-se"] = IntSetting(&sz::Settings::vcpus_per_se);
    m["--memory-per-se"] = Int64Setting(&sz::Settings::memory_per_se);
    m["--disk-per-se"] = Int64Setting(&sz::Settings::disk_per_se);
    m["--cpu-reserve"] = BoolSetting(&sz::Settings::cpu_reserve);
    m["--mem-reserve"] = BoolSetting(&sz::Settings::mem_reserve);
    m["--dedicated-dispatcher-core"] = BoolSetting(&sz::Settings::dedicated_dispatcher_core);
    m["--num-dispatcher-cores"] = IntSetting(&sz::Settings::num_dispatcher_cores);
    m["--max-queues-per-vnic"] = IntSetting(&sz::Settings::max_queues_per_vnic);
    m["--hybrid-rss-mode"] = BoolSetting(&sz::Settings::hybrid_rss_mode);
    m["--min-scaleout-per-vs"] = [](Options& o, const std::string& flag, const std::string& value) {
      int64_t n = 0;
      if (auto e = ParseIntFlag(flag, value, -1000000, 1000000, &n)) return e;
      o.min_scaleout_per_vs = static_cast<int>(n);
      return std::optional<ParseError>();
    };
    m["--max-se"] = IntSetting(&sz::Settings::max_se);
    m["--svg"] = [](Options& o, const std::string& flag, const std::string& value) {
      if (value.empty()) return std::optional<ParseError>(ParseError{flag + ": needs a file"});
      o.svg_file = value;
      return std::optional<ParseError>();
    };
    m["--chart-metric"] = [](Options& o, const std::string& flag, const std::string& value) {
      std::string key = value;
      for (char& c : key) c = c == '-' ? '_' : c;
      o.chart_metric = sz::MetricFromKey(key);
      if (!o.chart_metric) {
        return std::optional<ParseError>(ParseError{absl::StrCat(
            flag, ": \"", value, "\" is not a metric (ssl-tps-ecc, ssl-tps-rsa, l7-rps, l4-cps, ",
            "l4-open-conns, l4-gbps, l7-gbps, l7-ssl-gbps)")});
      }
      return std::optional<ParseError>();
    };
    m["--observed-usage"] = [](Options& o, const std::string& flag, const std::string& value) {
      if (value.empty()) return std::optional<ParseError>(ParseError{flag + ": needs a file"});
      o.observed_usage_file = value;
      return std::optional<ParseError>();
    };
    m["--observed-peak"] = [](Options& o, const std::string& flag, const std::string& value) {
      double peak = 0;
      if (!absl::SimpleAtod(value, &peak) || !std::isfinite(peak) || peak < 0) {
        return std::optional<ParseError>(
            ParseError{absl::StrCat(flag, ": \"", value, "\" is not a number >= 0")});
      }
      o.observed_peak = peak;
      return std::optional<ParseError>();
    };
    return m;
  }();
  return kFlags;
}

std::optional<ParseError> Parse(const std::vector<std::string>& args, Options& o) {
  std::map<std::string, bool> seen;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i];
    std::optional<std::string> value;
    const size_t eq = flag.find('=');
    if (flag.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
    }
    if (flag.rfind("--", 0) != 0 && flag != "-h") {
      return ParseError{absl::StrCat("unexpected argument \"", flag, "\" (flags start with --)")};
    }
    // An old name counts as its new one: --vcpus and --vcpus-per-se together are one flag twice.
    const auto alias = FlagAliases().find(flag);
    const std::string& name = alias == FlagAliases().end() ? flag : alias->second;
    if (seen[name]) return ParseError{absl::StrCat(flag, ": given more than once")};
    seen[name] = true;
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
    const auto it = ValueFlags().find(name);
    if (it == ValueFlags().end()) return ParseError{absl::StrCat("unknown flag ", flag)};
    if (!value.has_value()) {
      if (i + 1 >= args.size()) return ParseError{absl::StrCat(flag, ": needs a value")};
      value = args[++i];
    }
    if (auto e = it->second(o, flag, *value)) return e;
  }
  // Per-app mode holds an SE to 2 virtual services (rule per-app-two-vs-per-se), as the resource
  // plans an unset max_vs_per_se.
  if (o.workload.service_unit_settings.per_app && !seen["--max-vs-per-se"]) {
    o.workload.max_vs_per_se = sz::kPerAppMaxVsPerSe;
  }
  if (o.min_scaleout_per_vs) {
    if (o.workload.virtual_services.value_or(1) <= 1) {
      o.settings.se_count = o.min_scaleout_per_vs;
    } else {
      o.settings.min_scaleout_per_vs = o.min_scaleout_per_vs;
    }
  }
  return std::nullopt;
}

int UsageError(const std::string& message, std::ostream& err) {
  err << "size: " << message << "\nRun 'terraform-provider-nsxalb size --help' for usage.\n";
  return 2;
}

// What the chart takes from --observed-usage's report: the forecast, and the observed peak of
// each metric the report gives one for (display units).
struct ObservedUsage {
  ChartForecast forecast;
  std::map<sz::Metric, double> observed_peaks;
};

// Reads --observed-usage's file; a ParseError naming the flag, the file and the member otherwise.
std::variant<ObservedUsage, ParseError> ReadObservedUsage(const std::string& path) {
  const std::string flag = "--observed-usage";
  std::ifstream in(path);
  if (!in) return ParseError{absl::StrCat(flag, ": cannot read ", path)};
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const nlohmann::json report = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (report.is_discarded()) {
    return ParseError{absl::StrCat(flag, ": ", path,
                                   " is not JSON; write it with "
                                   "`terraform-provider-nsxalb controller usage NAME --json`")};
  }
  ObservedUsage usage;
  absl::StatusOr<ChartForecast> forecast = ChartForecastFromUsageJson(report);
  if (!forecast.ok()) {
    return ParseError{absl::StrCat(flag, ": ", path, ": ", forecast.status().message())};
  }
  usage.forecast = *std::move(forecast);
  for (sz::Metric metric : sz::kAllMetrics) {
    absl::StatusOr<std::optional<double>> peak = ObservedPeakFromUsageJson(report, metric);
    if (!peak.ok())
      return ParseError{absl::StrCat(flag, ": ", path, ": ", peak.status().message())};
    if (peak->has_value()) usage.observed_peaks[metric] = **peak;
  }
  return usage;
}

// Writes the sizing chart of --svg: the binding metric (of the given settings when any, else of
// the recommendation) or --chart-metric, with --observed-usage's forecast and observed peak.
int WriteChart(const Options& o, const sz::Validation& v, bool has_settings,
               const std::optional<ObservedUsage>& usage, std::ostream& err) {
  if (o.workload.demand.Empty() || !v.recommendation) {
    return UsageError("--svg needs a valid workload (e.g. --l7-rps 150000)", err);
  }
  const sz::Recommendation& r = *v.recommendation;
  ChartInput input;
  input.workload = o.workload;
  input.recommended = ChartShape{r.vcpus_per_se.value, r.memory_per_se.value, r.se_count.value,
                                 r.service_units.at_planned_scale.value};
  std::optional<sz::Metric> metric = o.chart_metric;
  if (has_settings && v.capacity) {
    input.given = ChartShape{v.vcpus, v.memory_mb, v.se_count, std::nullopt};
    double highest = -1;
    for (const sz::MetricLoad& l : v.loads) {
      if (!o.chart_metric && l.utilization_pct > highest) {
        highest = l.utilization_pct;
        metric = l.metric;
      }
    }
  }
  if (!metric) metric = r.binding;
  input.metric = metric.value_or(sz::Metric::kL7Rps);
  std::optional<double> observed_peak = o.observed_peak;
  if (usage.has_value()) {
    input.forecast = usage->forecast;
    const auto peak = usage->observed_peaks.find(input.metric);
    if (!observed_peak.has_value() && peak != usage->observed_peaks.end()) {
      observed_peak = peak->second;
    }
  }
  if (observed_peak) input.observed = sz::BaseFromDisplay(input.metric, *observed_peak);
  std::ofstream file(o.svg_file, std::ios::trunc);
  file << SizingChartSvg(input);
  file.close();
  if (!file) {
    err << "size: --svg: cannot write " << o.svg_file << "\n";
    return 2;
  }
  return 0;
}

}  // namespace

int RunSizeCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Options o;
  if (std::optional<ParseError> e = Parse(args, o)) return UsageError(e->message, err);
  if (o.help) {
    out << absl::Substitute(kUsage, sz::VcpuRangeText());
    return 0;
  }
  if (o.tables) {
    std::vector<sz::Platform> platforms(sz::kAllPlatforms.begin(), sz::kAllPlatforms.end());
    if (o.platform) platforms = {*o.platform};
    if (o.json) {
      out << nlohmann::ordered_json{{"profiles", SeedTablesJson(platforms)}}.dump(2) << "\n";
    } else {
      PrintSeedTables(platforms, out);
    }
    return 0;
  }
  if (!o.platform) return UsageError("--platform is required (vcenter or nsxt)", err);
  o.workload.platform = *o.platform;
  const bool has_demand = !o.workload.demand.Empty();
  const bool has_settings = !o.settings.Empty();
  if (!has_demand && !has_settings) {
    return UsageError(
        "give a workload (e.g. --l7-rps 150000) or settings to check (e.g. --vcpus-per-se 4)", err);
  }

  // The usage file is read before any output, so that a bad one is only a usage error.
  std::optional<ObservedUsage> usage;
  if (!o.observed_usage_file.empty()) {
    if (o.svg_file.empty()) {
      return UsageError("--observed-usage draws on the chart: give --svg FILE too", err);
    }
    std::variant<ObservedUsage, ParseError> read = ReadObservedUsage(o.observed_usage_file);
    if (const ParseError* e = std::get_if<ParseError>(&read)) return UsageError(e->message, err);
    usage = std::get<ObservedUsage>(std::move(read));
  }

  const sz::Validation v = sz::Validate(o.workload, o.settings);
  if (o.json) {
    out << SizeReportJson(o.workload, o.settings, v).dump(2) << "\n";
  } else {
    PrintSizeReport(o.workload, v, has_settings, out);
  }
  if (!o.svg_file.empty()) {
    if (int rc = WriteChart(o, v, has_settings, usage, err); rc != 0) return rc;
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
