#include "plugin/segroup/sizing_plan.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "plugin/controller/se_group_fields.h"
#include "plugin/sizing/capacity.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/rules.h"

namespace nsxalb::segroup {
namespace {

namespace sz = ::nsxalb::sizing;
using Json = nlohmann::json;

constexpr char kWorkload[] = "workload";
constexpr char kTargetUtilization[] = "target_utilization";
constexpr char kMaxVcpusPerSe[] = "max_vcpus_per_se";
constexpr char kMinScaleoutPerVs[] = "min_scaleout_per_vs";
constexpr char kMaxScaleoutPerVs[] = "max_scaleout_per_vs";
constexpr char kBufferSe[] = "buffer_se";
constexpr char kVirtualServices[] = "virtual_services";
constexpr char kMaxVsPerSe[] = "max_vs_per_se";
constexpr char kMaxCpuUsage[] = "max_cpu_usage";
constexpr char kHaMode[] = "ha_mode";
constexpr char kMaxNumSeDps[] = "max_num_se_dps";
constexpr char kPerApp[] = "per_app";
// Bound of the MB and GB sizes handed to the model, so that its arithmetic cannot overflow (its
// ranges are far inside).
constexpr int64_t kMaxSize = int64_t{1} << 40;

bool IsSizingAttribute(std::string_view name) {
  const std::vector<std::string>& names = SizingAttributeNames();
  return std::find(names.begin(), names.end(), name) != names.end();
}

// What an input says, for the model.
struct Inputs {
  bool has_workload = false;
  sz::Workload workload;
  sz::Settings settings;
  std::vector<InputError> errors;
};

// A JSON number as text for messages: integers as they are, others as the shortest decimal.
std::string NumberText(const Json& v) {
  if (v.is_number_integer()) return v.dump();
  return absl::StrCat(v.get<double>());
}

// Reads the members of one object (the settings or the workload) into Inputs.
class Reader {
 public:
  Reader(const Json& object, std::string base, std::vector<InputError>& errors)
      : object_(object), base_(std::move(base)), errors_(errors) {}

  // The member's value when it is present and not null.
  const Json* Get(const std::string& name) {
    if (!object_.is_object()) return nullptr;
    auto it = object_.find(name);
    if (it == object_.end() || it->is_null()) return nullptr;
    return &*it;
  }

  // A whole number within [lo, hi] (the bounds of the model's integer type, not its ranges).
  std::optional<int64_t> Int(const std::string& name, int64_t lo, int64_t hi) {
    const Json* v = Get(name);
    if (v == nullptr) return std::nullopt;
    if (!v->is_number()) {
      Error(name, absl::StrCat("Invalid ", Display(name)),
            absl::StrCat(Display(name), " must be a whole number, got ", v->dump(), "."));
      return std::nullopt;
    }
    std::optional<int64_t> i;
    bool whole = true;
    if (v->is_number_unsigned()) {
      const uint64_t u = v->get<uint64_t>();
      if (u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        i = static_cast<int64_t>(u);
      }
    } else if (v->is_number_integer()) {
      i = v->get<int64_t>();
    } else {
      const double d = v->get<double>();
      // Integral but too large for int64 counts as out of range, not as a fraction.
      whole = std::isfinite(d) && std::trunc(d) == d;
      if (whole && d >= -9.2e18 && d <= 9.2e18) i = static_cast<int64_t>(d);
    }
    if (!i.has_value() || *i < lo || *i > hi) {
      Error(name, absl::StrCat("Invalid ", Display(name)),
            whole ? absl::StrCat(Display(name), " = ", NumberText(*v), " is out of range.")
                  : absl::StrCat(Display(name), " must be a whole number, got ", NumberText(*v),
                                 "."));
      return std::nullopt;
    }
    return *i;
  }

  std::optional<int> Int32(const std::string& name) {
    std::optional<int64_t> i =
        Int(name, std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
    if (!i.has_value()) return std::nullopt;
    return static_cast<int>(*i);
  }

  std::optional<double> Number(const std::string& name) {
    const Json* v = Get(name);
    if (v == nullptr) return std::nullopt;
    if (!v->is_number()) {
      Error(name, absl::StrCat("Invalid ", Display(name)),
            absl::StrCat(Display(name), " must be a number, got ", v->dump(), "."));
      return std::nullopt;
    }
    return v->get<double>();
  }

  std::optional<std::string> String(const std::string& name) {
    const Json* v = Get(name);
    if (v == nullptr) return std::nullopt;
    if (!v->is_string()) {
      Error(name, absl::StrCat("Invalid ", Display(name)),
            absl::StrCat(Display(name), " must be a string, got ", v->dump(), "."));
      return std::nullopt;
    }
    return v->get<std::string>();
  }

  std::optional<bool> Bool(const std::string& name) {
    const Json* v = Get(name);
    if (v == nullptr) return std::nullopt;
    if (!v->is_boolean()) {
      Error(name, absl::StrCat("Invalid ", Display(name)),
            absl::StrCat(Display(name), " must be true or false, got ", v->dump(), "."));
      return std::nullopt;
    }
    return v->get<bool>();
  }

  // Records an error at the attribute.
  void Error(const std::string& name, const std::string& summary, const std::string& detail) {
    errors_.push_back({Display(name), summary, detail});
  }

 private:
  // "vcpus_per_se", or "workload.target_utilization" inside the workload.
  std::string Display(const std::string& name) const {
    return base_.empty() ? name : absl::StrCat(base_, ".", name);
  }

  const Json& object_;
  std::string base_;
  std::vector<InputError>& errors_;
};

Inputs ReadSizing(const SizingInput& input, sz::Platform platform) {
  Inputs in;
  in.workload.platform = platform;
  std::optional<int> target;  // the workload's target_utilization, when it sets one
  if (!input.workload.is_null()) {
    in.has_workload = true;
    Reader w(input.workload, kWorkload, in.errors);
    for (sz::Metric m : sz::kAllMetrics) {
      if (std::optional<double> d = w.Number(sz::InfoOf(m).key)) {
        in.workload.demand.Set(m, sz::BaseFromDisplay(m, *d));
      }
    }
    target = w.Int32(kTargetUtilization);
    if (auto t = w.Int32(kMaxVcpusPerSe)) in.workload.max_vcpus_per_se = *t;
    if (auto t = w.Int32(kVirtualServices)) in.workload.virtual_services = *t;
  }

  Reader r(input.settings, "", in.errors);
  sz::Settings& s = in.settings;
  s.vcpus_per_se = r.Int32("vcpus_per_se");
  s.memory_per_se = r.Int("memory_per_se", -kMaxSize, kMaxSize);
  s.disk_per_se = r.Int("disk_per_se", -kMaxSize, kMaxSize);
  s.cpu_reserve = r.Bool("cpu_reserve");
  s.mem_reserve = r.Bool("mem_reserve");
  s.dedicated_dispatcher_core = r.Bool("dedicated_dispatcher_core");
  s.num_dispatcher_cores = r.Int32("num_dispatcher_cores");
  s.max_queues_per_vnic = r.Int32("max_queues_per_vnic");
  s.hybrid_rss_mode = r.Bool("hybrid_rss_mode");
  // One virtual service is placed on min_scaleout_per_vs SEs: they are the SEs its workload is
  // spread over. Several are spread by placement, so the model chooses the active SEs then, and
  // checks the given value against the HA mode and the virtual-service slots.
  const std::optional<int> min_scaleout = r.Int32(kMinScaleoutPerVs);
  if (!in.workload.virtual_services.has_value() || *in.workload.virtual_services <= 1) {
    s.se_count = min_scaleout;
  } else {
    s.min_scaleout_per_vs = min_scaleout;
  }
  in.workload.buffer_se = r.Int32(kBufferSe).value_or(sz::kDefaultBufferSe);
  in.workload.max_scaleout_per_vs = r.Int32(kMaxScaleoutPerVs).value_or(sz::kMaxScaleoutPerVs);
  // What an SE costs in licences (sizing/service_units.h); per_app also holds an SE to 2 virtual
  // services (rule per-app-two-vs-per-se), which an unset max_vs_per_se then plans.
  in.workload.service_unit_settings.max_num_se_dps = r.Int32(kMaxNumSeDps);
  in.workload.service_unit_settings.per_app = r.Bool(kPerApp).value_or(false);
  in.workload.max_vs_per_se =
      r.Int32(kMaxVsPerSe)
          .value_or(in.workload.service_unit_settings.per_app ? sz::kPerAppMaxVsPerSe
                                                              : sz::kDefaultMaxVsPerSe);
  // The target utilization follows the group's max_cpu_usage when the workload sets none (rule
  // target-within-max-cpu-usage): the group scales out there.
  s.max_cpu_usage = r.Int32(kMaxCpuUsage);
  if (target.has_value()) {
    in.workload.target_utilization_pct = *target;
  } else if (s.max_cpu_usage.has_value()) {
    in.workload.target_utilization_pct = *s.max_cpu_usage;
  }
  if (std::optional<std::string> mode = r.String(kHaMode)) {
    absl::StatusOr<sz::HaMode> parsed = sz::ParseHaMode(*mode);
    if (parsed.ok()) {
      in.workload.ha_mode = *parsed;
    } else {
      r.Error(kHaMode, "Invalid ha_mode", absl::StrCat(parsed.status().message(), "."));
    }
  }
  // max_se is checked against the HA mode and the slots; min_se is not a model input: only a
  // whole number is checked.
  if (std::optional<int64_t> max_se =
          r.Int("max_se", std::numeric_limits<int>::min(), std::numeric_limits<int>::max())) {
    s.max_se = static_cast<int>(*max_se);
  }
  r.Int("min_se", std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
  return in;
}

// The Controller's default for a catalog field; nullopt when the catalog has none.
std::optional<Json> ControllerDefault(std::string_view field) {
  const controller::SeGroupField* f = controller::FindSeGroupField(field);
  if (f == nullptr || f->default_json.empty()) return std::nullopt;
  const Json j = Json::parse(f->default_json, nullptr, false);
  if (j.is_string() || j.is_number_integer() || j.is_boolean()) return j;
  return std::nullopt;
}

double RoundToTenth(double x) { return std::round(x * 10) / 10; }

// "1 SE of 6 vCPUs carries 150,000 L7 RPS at 73.2% (measured)", or with a CPU budget of several
// metrics "2 SEs of 6 vCPUs carry 150,000 L7 RPS + 8,000 ECC SSL TPS at 71.4% CPU (measured)".
std::string Summary(const sz::Recommendation& shape, sz::Basis basis) {
  const int count = shape.se_count.value;
  const std::string who = sz::FormatShape(count, shape.vcpus_per_se.value);
  if (shape.cpu_binds) {
    std::vector<std::string> amounts;
    for (const sz::CpuPart& part : shape.cpu.parts) {
      for (const sz::MetricLoad& load : shape.loads) {
        if (load.metric != part.metric) continue;
        amounts.push_back(sz::FormatAmount(load.metric, load.demand, sz::Rounding::kUp));
      }
    }
    const std::string amount = absl::StrJoin(amounts, " + ");
    const std::string at = sz::FormatPercent(RoundToTenth(shape.cpu.utilization_pct));
    if (shape.carried) {
      return absl::StrCat(who, sz::Agree(count, " carries ", " carry "), amount, " at ", at,
                          " CPU (", sz::BasisName(basis), ")");
    }
    return absl::StrCat(who, " would run ", amount, " at ", at, " CPU, over the ",
                        shape.target_utilization_pct, "% target (", sz::BasisName(basis), ")");
  }
  for (const sz::MetricLoad& load : shape.loads) {
    if (!shape.binding.has_value() || load.metric != *shape.binding) continue;
    const std::string amount = sz::FormatAmount(load.metric, load.demand, sz::Rounding::kUp);
    // Rounded as utilization_pct is, so that the two never disagree.
    const std::string at = sz::FormatPercent(RoundToTenth(load.utilization_pct));
    if (shape.carried) {
      return absl::StrCat(who, sz::Agree(count, " carries ", " carry "), amount, " at ", at, " (",
                          sz::BasisName(basis), ")");
    }
    return absl::StrCat(who, " would run ", amount, " at ", at, ", over the ",
                        shape.target_utilization_pct, "% target (", sz::BasisName(basis), ")");
  }
  return absl::StrCat(who, ": the workload declares no demand");
}

// A whole-number setting >= 0 within int (4 and 4.0 alike), or nullopt.
std::optional<int> WholeSetting(const Json& settings, const char* name) {
  auto it = settings.find(name);
  if (it == settings.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>();
  if (!(v >= 0) || v != std::floor(v) || v > std::numeric_limits<int>::max()) return std::nullopt;
  return static_cast<int>(v);
}

// A max_se that is given, not chosen by a rule.
sz::Choice<int> SeCount(int ses) {
  sz::Choice<int> out;
  out.value = ses;
  return out;
}

// The SUs of the planned group (rule service-units-at-planned-scale): the planned SEs' SUs each
// times the SEs max_se is planned to, the given max_se when it is set, else the recommendation's.
// Unset while a given max_se is not known yet.
std::optional<double> PlannedServiceUnits(const sz::Recommendation& shape,
                                          const std::optional<int>& given_max_se,
                                          bool max_se_opaque) {
  if (max_se_opaque) return std::nullopt;
  if (!given_max_se.has_value()) return shape.service_units.at_planned_scale.value;
  return sz::ServiceUnitsAtPlannedScale(shape.service_units.per_se, SeCount(*given_max_se)).value;
}

SizingSummary MakeSummary(const sz::Recommendation& shape, const std::vector<Finding>& found,
                          std::optional<double> service_units) {
  const sz::Basis basis = ShapeBasis(shape);
  SizingSummary out;
  out.profile = sz::PlatformName(shape.platform);
  out.se_count = shape.se_count.value;
  if (const std::string key = sz::BindingKey(shape); !key.empty()) {
    out.binding_metric = key;
    out.utilization_pct = RoundToTenth(sz::BindingUtilizationPct(shape));
  }
  out.basis = sz::BasisName(basis);
  out.service_units = service_units;
  out.summary = Summary(shape, basis);
  for (const Finding& f : found) out.findings.push_back(FindingText(f));
  return out;
}

// The recommended value of every sizing setting, for `shape` (see the header).
std::map<std::string, Json> PlannedValues(const sz::Recommendation& shape,
                                          const sz::Workload& workload) {
  const int per_vs = shape.min_scaleout_per_vs.value;
  std::map<std::string, Json> out = {
      {"vcpus_per_se", shape.vcpus_per_se.value},
      {"memory_per_se", shape.memory_per_se.value},
      {"disk_per_se", shape.disk_per_se.value},
      {"cpu_reserve", shape.cpu_reserve.value},
      {"mem_reserve", shape.mem_reserve.value},
      {"dedicated_dispatcher_core", shape.dedicated_dispatcher_core.value},
      {"num_dispatcher_cores", shape.num_dispatcher_cores.value},
      {"max_queues_per_vnic", shape.max_queues_per_vnic.value},
      {"hybrid_rss_mode", shape.hybrid_rss_mode.value},
      {kMinScaleoutPerVs, std::min(per_vs, sz::kMaxScaleoutPerVs)},
      {kMaxScaleoutPerVs,
       std::min(std::max(sz::kDefaultMaxScaleoutPerVs, per_vs), sz::kMaxScaleoutPerVs)},
      {"max_se", shape.max_se.value},
      {kBufferSe, shape.buffer_se},
      {kHaMode, sz::HaModeName(shape.ha_mode)},
      {kMaxVsPerSe, workload.max_vs_per_se},
      {kMaxCpuUsage, workload.target_utilization_pct},
  };
  for (const char* field : {"min_se", "se_name_prefix"}) {
    if (std::optional<Json> v = ControllerDefault(field)) out[field] = *v;
  }
  return out;
}

// True for the findings of rules that judge a setting against the SE's vCPU count (or the disk
// that follows from it).
bool DependsOnVcpus(const std::string& rule) {
  for (const char* r : {sz::rules::kDispatchersFewer, sz::rules::kDispatchersMeasured,
                        sz::rules::kDispatchersL4, sz::rules::kDispatchersRatio,
                        sz::rules::kHybridRss, sz::rules::kQueuesNotOne, sz::rules::kDisk}) {
    if (rule == r) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<SizingPolicy> ParseSizingPolicy(std::string_view text) {
  if (text == "warn") return SizingPolicy::kWarn;
  if (text == "enforce") return SizingPolicy::kEnforce;
  return absl::InvalidArgumentError(absl::StrCat(
      "sizing_policy must be \"warn\" or \"enforce\", got \"", std::string(text), "\""));
}

const std::vector<std::string>& SizingAttributeNames() {
  static const std::vector<std::string>* const kNames =
      new std::vector<std::string>{"vcpus_per_se",
                                   "memory_per_se",
                                   "disk_per_se",
                                   "cpu_reserve",
                                   "mem_reserve",
                                   "dedicated_dispatcher_core",
                                   "num_dispatcher_cores",
                                   "max_queues_per_vnic",
                                   "hybrid_rss_mode",
                                   "min_scaleout_per_vs",
                                   "max_scaleout_per_vs",
                                   "max_se",
                                   "min_se",
                                   "buffer_se",
                                   "ha_mode",
                                   "max_vs_per_se",
                                   "max_cpu_usage",
                                   "se_name_prefix"};
  return *kNames;
}

const std::vector<std::string>& LicenceAttributeNames() {
  static const std::vector<std::string>* const kNames =
      new std::vector<std::string>{kMaxNumSeDps, kPerApp};
  return *kNames;
}

sz::ServiceUnitSettings LicenceSettingsOf(const Json& settings) {
  sz::ServiceUnitSettings licence;
  if (!settings.is_object()) return licence;
  licence.max_num_se_dps = WholeSetting(settings, kMaxNumSeDps);
  auto per_app = settings.find(kPerApp);
  licence.per_app = per_app != settings.end() && per_app->is_boolean() && per_app->get<bool>();
  return licence;
}

std::optional<double> ServiceUnitsOfSettings(const Json& settings) {
  if (!settings.is_object()) return std::nullopt;
  const std::optional<int> vcpus = WholeSetting(settings, "vcpus_per_se");
  const std::optional<int> max_se = WholeSetting(settings, "max_se");
  if (!vcpus.has_value() || !max_se.has_value()) return std::nullopt;
  return sz::ServiceUnitsOf(*vcpus, SeCount(*max_se), LicenceSettingsOf(settings))
      .at_planned_scale.value;
}

bool IsWorkloadAttribute(std::string_view name) {
  if (name == kTargetUtilization || name == kMaxVcpusPerSe || name == kVirtualServices) {
    return true;
  }
  return sz::MetricFromKey(absl::string_view(name.data(), name.size())).has_value();
}

Json SizingSummaryJson(const SizingSummary& s) {
  return Json{
      {"profile", s.profile},
      {"se_count", s.se_count},
      {"binding_metric", s.binding_metric.has_value() ? Json(*s.binding_metric) : Json()},
      {"utilization_pct", s.utilization_pct.has_value() ? Json(*s.utilization_pct) : Json()},
      {"basis", s.basis},
      {"service_units", s.service_units.has_value() ? Json(*s.service_units) : Json()},
      {"summary", s.summary},
      {"findings", s.findings}};
}

sz::Basis ShapeBasis(const sz::Recommendation& shape) {
  std::vector<sz::Basis> bases = {shape.capacity.table_memory_mb.basis};
  for (const sz::MetricLoad& load : shape.loads) bases.push_back(load.per_se.basis);
  return sz::WeakestBasis(bases);
}

std::string ShapeSummary(const sz::Recommendation& shape) {
  return Summary(shape, ShapeBasis(shape));
}

std::string AttributeOfModel(std::string_view attribute, bool has_workload) {
  if (attribute == "se_count") return kMinScaleoutPerVs;
  if (IsSizingAttribute(attribute)) return std::string(attribute);
  if (!has_workload) return "";
  const std::string_view prefix = "workload.";
  if (attribute.substr(0, prefix.size()) == prefix &&
      IsWorkloadAttribute(attribute.substr(prefix.size()))) {
    return std::string(attribute);
  }
  return kWorkload;
}

std::string FindingText(const Finding& finding) {
  const sz::Finding& f = finding.finding;
  const std::string& attribute = finding.attribute.empty() ? f.attribute : finding.attribute;
  return absl::StrCat(sz::SeverityName(f.severity), " [", attribute, "] ", f.rule, ": ", f.summary,
                      ". ", f.detail);
}

bool FindingIsError(const Finding& finding, SizingPolicy policy, bool waived) {
  if (finding.finding.severity == sz::Severity::kError) return true;
  return finding.policy_dependent && policy == SizingPolicy::kEnforce && !waived;
}

SizingPlan PlanSizing(const SizingInput& input, sz::Platform platform) {
  SizingPlan plan;
  Inputs in = ReadSizing(input, platform);
  plan.has_workload = in.has_workload;
  if (!in.errors.empty()) {
    plan.input_errors = std::move(in.errors);
    return plan;
  }

  const sz::Validation v = sz::Validate(in.workload, in.settings);
  // Without a workload and without vcpus_per_se, the group's vCPUs are the Controller's, which
  // the model cannot see: checks that depend on the vCPU count would judge a 1-vCPU SE.
  const bool vcpus_unknown_to_model = !in.has_workload && !in.settings.vcpus_per_se.has_value();
  for (const sz::Finding& f : v.findings) {
    if (vcpus_unknown_to_model && DependsOnVcpus(f.rule)) continue;
    plan.findings.push_back(
        {f, AttributeOfModel(f.attribute, in.has_workload), sz::rules::IsUnderSizing(f.rule)});
  }
  if (!in.has_workload || v.HasErrors() || !v.capacity.has_value()) return plan;

  absl::StatusOr<sz::Recommendation> shape =
      sz::RecommendForShape(in.workload, v.vcpus, v.memory_mb, v.se_count);
  if (!shape.ok()) {
    // Validate accepted this shape, so this is a bug in the model; say so rather than plan.
    plan.input_errors.push_back({"", "Sizing failed",
                                 absl::StrCat("The sizing model could not complete the plan: ",
                                              shape.status().message(), ". This is a bug.")});
    return plan;
  }
  // The recommendation's own warnings (160k RPS per SE, scale-out) when its shape is the one
  // planned; for a shape that is set, Validate reports the same checks about it.
  const bool shape_set = in.settings.vcpus_per_se || in.settings.se_count;
  if (!shape_set) {
    for (const sz::Finding& f : shape->findings) {
      plan.findings.push_back(
          {f, AttributeOfModel(f.attribute, in.has_workload), sz::rules::IsUnderSizing(f.rule)});
    }
  }

  for (auto& [name, value] : PlannedValues(*shape, in.workload)) {
    auto given = input.settings.find(name);
    const bool set = (given != input.settings.end() && !given->is_null()) ||
                     input.opaque_settings.count(name) > 0;
    if (!set) plan.recommended.emplace(name, std::move(value));
  }
  plan.summary = MakeSummary(
      *shape, plan.findings,
      PlannedServiceUnits(*shape, in.settings.max_se, input.opaque_settings.count("max_se") > 0));
  plan.loads = shape->loads;
  plan.workload = in.workload;
  if (v.recommendation) plan.recommendation = *v.recommendation;
  plan.planned_shape = *std::move(shape);
  return plan;
}

}  // namespace nsxalb::segroup
