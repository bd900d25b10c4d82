#include "plugin/provider/se_group_sizing.h"

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
#include "absl/types/optional.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/se_group_fields.h"
#include "plugin/sizing/capacity.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/rules.h"

namespace nsxalb::provider {
namespace {

namespace sz = ::nsxalb::sizing;

constexpr char kWorkload[] = "workload";
constexpr char kTargetUtilization[] = "target_utilization";
constexpr char kMaxVcpusPerSe[] = "max_vcpus_per_se";
constexpr char kMinScaleoutPerVs[] = "min_scaleout_per_vs";
constexpr char kMaxScaleoutPerVs[] = "max_scaleout_per_vs";
constexpr char kBufferSe[] = "buffer_se";
constexpr char kVirtualServices[] = "virtual_services";
constexpr char kMaxVsPerSe[] = "max_vs_per_se";
constexpr char kHaMode[] = "ha_mode";
// Bound of the MB and GB sizes handed to the model, so that its arithmetic cannot overflow (its
// ranges are far inside).
constexpr int64_t kMaxSize = int64_t{1} << 40;

cty::AttributePath Root() { return cty::AttributePath(); }

// Whether `name` is an attribute of the workload block.
bool IsWorkloadAttribute(std::string_view name) {
  if (name == kTargetUtilization || name == kMaxVcpusPerSe || name == kVirtualServices) {
    return true;
  }
  return sz::MetricFromKey(absl::string_view(name.data(), name.size())).has_value();
}

bool IsSizingAttribute(std::string_view name) {
  const std::vector<std::string>& names = SizingAttributeNames();
  return std::find(names.begin(), names.end(), name) != names.end();
}

// What a configuration says, for the model.
struct Inputs {
  bool unknown = false;  // some input the model needs is unknown
  bool has_workload = false;
  sz::Workload workload;
  sz::Settings settings;
  framework::Diagnostics errors;
};

// Reads the attributes of one object (the configuration or its workload block) into Inputs.
class Reader {
 public:
  Reader(const cty::Value& object, cty::AttributePath base, Inputs& in)
      : object_(object), base_(std::move(base)), in_(in) {}

  // The attribute's value when it is known and not null; records unknowns.
  const cty::Value* Get(const std::string& name) {
    const cty::Value* v = object_.GetAttribute(name);
    if (v == nullptr || v->IsNull()) return nullptr;
    if (!v->IsKnown()) {
      in_.unknown = true;
      return nullptr;
    }
    return v;
  }

  // A whole number within [lo, hi] (the bounds of the model's integer type, not its ranges).
  std::optional<int64_t> Int(const std::string& name, int64_t lo, int64_t hi) {
    const cty::Value* v = Get(name);
    if (v == nullptr) return std::nullopt;
    const cty::Number& n = v->AsNumber();
    const absl::StatusOr<int64_t> i = n.AsInt64();
    if (!i.ok() || *i < lo || *i > hi) {
      // Integral but too large for int64 counts as out of range, not as a fraction.
      const bool whole = i.ok() || (!n.IsInfinity() && std::trunc(n.AsDouble()) == n.AsDouble());
      in_.errors.AddAttributeError(
          base_.Attribute(name), absl::StrCat("Invalid ", Display(name)),
          whole ? absl::StrCat(Display(name), " = ", n.ToString(), " is out of range.")
                : absl::StrCat(Display(name), " must be a whole number, got ", n.ToString(), "."));
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
    const cty::Value* v = Get(name);
    if (v == nullptr) return std::nullopt;
    return v->AsNumber().AsDouble();
  }

  std::optional<std::string> String(const std::string& name) {
    const cty::Value* v = Get(name);
    if (v == nullptr) return std::nullopt;
    return v->AsString();
  }

  // Records an error at the attribute.
  void Error(const std::string& name, const std::string& summary, const std::string& detail) {
    in_.errors.AddAttributeError(base_.Attribute(name), summary, detail);
  }

  std::optional<bool> Bool(const std::string& name) {
    const cty::Value* v = Get(name);
    if (v == nullptr) return std::nullopt;
    return v->AsBool();
  }

 private:
  // "vcpus_per_se", or "workload.target_utilization" inside the workload block.
  std::string Display(const std::string& name) const {
    return base_.empty() ? name : absl::StrCat(kWorkload, ".", name);
  }

  const cty::Value& object_;
  cty::AttributePath base_;
  Inputs& in_;
};

template <typename T>
absl::optional<T> Opt(const std::optional<T>& v) {
  return v.has_value() ? absl::optional<T>(*v) : absl::nullopt;
}

Inputs ReadSizing(const cty::Value& config, sz::Platform platform) {
  Inputs in;
  in.workload.platform = platform;
  if (!config.IsKnown()) {
    in.unknown = true;
    return in;
  }
  if (config.IsNull()) return in;

  const cty::Value* workload = config.GetAttribute(kWorkload);
  if (workload != nullptr && !workload->IsNull()) {
    in.has_workload = true;
    if (!workload->IsKnown()) {
      in.unknown = true;
      return in;
    }
    Reader w(*workload, Root().Attribute(kWorkload), in);
    for (sz::Metric m : sz::kAllMetrics) {
      if (std::optional<double> d = w.Number(sz::InfoOf(m).key)) {
        in.workload.demand.Set(m, sz::BaseFromDisplay(m, *d));
      }
    }
    if (auto t = w.Int32(kTargetUtilization)) in.workload.target_utilization_pct = *t;
    if (auto t = w.Int32(kMaxVcpusPerSe)) in.workload.max_vcpus_per_se = *t;
    if (auto t = w.Int32(kVirtualServices)) in.workload.virtual_services = *t;
  }

  Reader r(config, Root(), in);
  sz::Settings& s = in.settings;
  s.vcpus_per_se = Opt(r.Int32("vcpus_per_se"));
  s.memory_per_se = Opt(r.Int("memory_per_se", -kMaxSize, kMaxSize));
  s.disk_per_se = Opt(r.Int("disk_per_se", -kMaxSize, kMaxSize));
  s.cpu_reserve = Opt(r.Bool("cpu_reserve"));
  s.mem_reserve = Opt(r.Bool("mem_reserve"));
  s.dedicated_dispatcher_core = Opt(r.Bool("dedicated_dispatcher_core"));
  s.num_dispatcher_cores = Opt(r.Int32("num_dispatcher_cores"));
  s.max_queues_per_vnic = Opt(r.Int32("max_queues_per_vnic"));
  s.hybrid_rss_mode = Opt(r.Bool("hybrid_rss_mode"));
  // One virtual service is placed on min_scaleout_per_vs SEs: they are the SEs its workload is
  // spread over. Several are spread by placement, so the model chooses the active SEs then.
  const std::optional<int> min_scaleout = r.Int32(kMinScaleoutPerVs);
  if (!in.workload.virtual_services.has_value() || *in.workload.virtual_services <= 1) {
    s.se_count = Opt(min_scaleout);
  }
  in.workload.buffer_se = r.Int32(kBufferSe).value_or(sz::kDefaultBufferSe);
  in.workload.max_scaleout_per_vs = r.Int32(kMaxScaleoutPerVs).value_or(sz::kMaxScaleoutPerVs);
  in.workload.max_vs_per_se = r.Int32(kMaxVsPerSe).value_or(sz::kDefaultMaxVsPerSe);
  if (std::optional<std::string> mode = r.String(kHaMode)) {
    absl::StatusOr<sz::HaMode> parsed = sz::ParseHaMode(*mode);
    if (parsed.ok()) {
      in.workload.ha_mode = *parsed;
    } else {
      r.Error(kHaMode, "Invalid ha_mode", absl::StrCat(parsed.status().message(), "."));
    }
  }
  // Checked when known; an unknown one does not stop the model (it only checks max_se against
  // the HA mode and the slots). min_se is not a model input: only a whole number is checked.
  Inputs ignored;
  Reader pass_through(config, Root(), ignored);
  if (std::optional<int64_t> max_se = pass_through.Int("max_se", std::numeric_limits<int>::min(),
                                                       std::numeric_limits<int>::max())) {
    s.max_se = static_cast<int>(*max_se);
  }
  pass_through.Int("min_se", std::numeric_limits<int64_t>::min(),
                   std::numeric_limits<int64_t>::max());
  in.errors.Append(ignored.errors);
  return in;
}

// The Controller's default for a catalog field, as a cty value; nullopt when the catalog has
// none.
std::optional<cty::Value> ControllerDefault(std::string_view field) {
  const controller::SeGroupField* f = controller::FindSeGroupField(field);
  if (f == nullptr || f->default_json.empty()) return std::nullopt;
  const nlohmann::json j = nlohmann::json::parse(f->default_json, nullptr, false);
  if (j.is_string()) return cty::Value::String(j.get<std::string>());
  if (j.is_number_integer()) return cty::Value::Int(j.get<int64_t>());
  if (j.is_boolean()) return cty::Value::Bool(j.get<bool>());
  return std::nullopt;
}

double RoundToTenth(double x) { return std::round(x * 10) / 10; }

std::string Shape(int se_count, int vcpus) {
  return absl::StrCat(se_count, se_count == 1 ? " SE of " : " SEs of ", vcpus,
                      vcpus == 1 ? " vCPU" : " vCPUs");
}

// "1 SE of 6 vCPUs carries 150,000 L7 RPS at 73.2% (measured)", or with a CPU budget of several
// metrics "2 SEs of 6 vCPUs carry 150,000 L7 RPS + 8,000 ECC SSL TPS at 71.4% CPU (measured)".
std::string Summary(const sz::Recommendation& shape, sz::Basis basis) {
  const int count = shape.se_count.value;
  const std::string who = Shape(count, shape.vcpus_per_se.value);
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
      return absl::StrCat(who, count == 1 ? " carries " : " carry ", amount, " at ", at, " CPU (",
                          sz::BasisName(basis), ")");
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
      return absl::StrCat(who, count == 1 ? " carries " : " carry ", amount, " at ", at, " (",
                          sz::BasisName(basis), ")");
    }
    return absl::StrCat(who, " would run ", amount, " at ", at, ", over the ",
                        shape.target_utilization_pct, "% target (", sz::BasisName(basis), ")");
  }
  return absl::StrCat(who, ": the workload declares no demand");
}

cty::Value SizingObject(const sz::Recommendation& shape, const std::vector<PlacedFinding>& found) {
  // The figures used: the capacity of each demanded metric and the table memory of the size.
  std::vector<sz::Basis> bases = {shape.capacity.table_memory_mb.basis};
  for (const sz::MetricLoad& load : shape.loads) bases.push_back(load.per_se.basis);
  const sz::Basis basis = sz::WeakestBasis(bases);
  cty::Value binding = cty::Value::Null(cty::Type::String());
  cty::Value utilization = cty::Value::Null(cty::Type::Number());
  if (const std::string key = sz::BindingKey(shape); !key.empty()) {
    binding = cty::Value::String(key);
    utilization = cty::Value::Float(RoundToTenth(sz::BindingUtilizationPct(shape)));
  }
  std::vector<cty::Value> findings;
  for (const PlacedFinding& f : found) findings.push_back(cty::Value::String(FindingText(f)));
  return cty::Value::ObjectOf(
      SizingObjectType(),
      {{"profile", cty::Value::String(sz::PlatformName(shape.platform))},
       {"se_count", cty::Value::Int(shape.se_count.value)},
       {"binding_metric", binding},
       {"utilization_pct", utilization},
       {"basis", cty::Value::String(sz::BasisName(basis))},
       {"summary", cty::Value::String(Summary(shape, basis))},
       {"findings", cty::Value::List(cty::Type::String(), std::move(findings))}});
}

// The planned value of every sizing attribute, for `shape` (see the header).
std::map<std::string, cty::Value> PlannedValues(const sz::Recommendation& shape,
                                                const sz::Workload& workload) {
  const int per_vs = shape.min_scaleout_per_vs.value;
  std::map<std::string, cty::Value> out = {
      {"vcpus_per_se", cty::Value::Int(shape.vcpus_per_se.value)},
      {"memory_per_se", cty::Value::Int(shape.memory_per_se.value)},
      {"disk_per_se", cty::Value::Int(shape.disk_per_se.value)},
      {"cpu_reserve", cty::Value::Bool(shape.cpu_reserve.value)},
      {"mem_reserve", cty::Value::Bool(shape.mem_reserve.value)},
      {"dedicated_dispatcher_core", cty::Value::Bool(shape.dedicated_dispatcher_core.value)},
      {"num_dispatcher_cores", cty::Value::Int(shape.num_dispatcher_cores.value)},
      {"max_queues_per_vnic", cty::Value::Int(shape.max_queues_per_vnic.value)},
      {"hybrid_rss_mode", cty::Value::Bool(shape.hybrid_rss_mode.value)},
      {kMinScaleoutPerVs, cty::Value::Int(std::min(per_vs, sz::kMaxScaleoutPerVs))},
      {kMaxScaleoutPerVs, cty::Value::Int(std::min(std::max(sz::kDefaultMaxScaleoutPerVs, per_vs),
                                                   sz::kMaxScaleoutPerVs))},
      {"max_se", cty::Value::Int(shape.max_se.value)},
      {kBufferSe, cty::Value::Int(shape.buffer_se)},
      {kHaMode, cty::Value::String(sz::HaModeName(shape.ha_mode))},
      {kMaxVsPerSe, cty::Value::Int(workload.max_vs_per_se)},
  };
  for (const char* field : {"min_se", "se_name_prefix"}) {
    if (std::optional<cty::Value> v = ControllerDefault(field)) out[field] = *v;
  }
  return out;
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
                                   "se_name_prefix"};
  return *kNames;
}

cty::Type SizingObjectType() {
  return cty::Type::Object({{"profile", cty::Type::String()},
                            {"se_count", cty::Type::Number()},
                            {"binding_metric", cty::Type::String()},
                            {"utilization_pct", cty::Type::Number()},
                            {"basis", cty::Type::String()},
                            {"summary", cty::Type::String()},
                            {"findings", cty::Type::List(cty::Type::String())}});
}

cty::AttributePath PathOfModelAttribute(std::string_view attribute, bool has_workload) {
  if (attribute == "se_count") return Root().Attribute(kMinScaleoutPerVs);
  if (IsSizingAttribute(attribute)) return Root().Attribute(std::string(attribute));
  if (!has_workload) return Root();
  const std::string_view prefix = "workload.";
  if (attribute.substr(0, prefix.size()) == prefix &&
      IsWorkloadAttribute(attribute.substr(prefix.size()))) {
    return Root().Attribute(kWorkload).Attribute(std::string(attribute.substr(prefix.size())));
  }
  return Root().Attribute(kWorkload);
}

std::string FindingText(const PlacedFinding& placed) {
  const sz::Finding& f = placed.finding;
  std::string attribute = placed.path.empty() ? f.attribute : placed.path.ToString();
  if (!attribute.empty() && attribute[0] == '.') attribute.erase(0, 1);
  return absl::StrCat(sz::SeverityName(f.severity), " [", attribute, "] ", f.rule, ": ", f.summary,
                      ". ", f.detail);
}

namespace {

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

SizingPlan PlanSizing(const cty::Value& config, sz::Platform platform) {
  SizingPlan plan;
  Inputs in = ReadSizing(config, platform);
  plan.has_workload = in.has_workload;
  plan.sizing_object = cty::Value::Null(SizingObjectType());
  if (in.unknown) {
    if (in.has_workload) plan.sizing_object = cty::Value::Unknown(SizingObjectType());
    return plan;
  }
  plan.known = true;
  if (in.errors.HasError()) {
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
        {f, PathOfModelAttribute(f.attribute, in.has_workload), sz::rules::IsUnderSizing(f.rule)});
  }
  if (!in.has_workload || v.HasErrors() || !v.capacity.has_value()) return plan;

  absl::StatusOr<sz::Recommendation> shape =
      sz::RecommendForShape(in.workload, v.vcpus, v.memory_mb, v.se_count);
  if (!shape.ok()) {
    // Validate accepted this shape, so this is a bug in the model; say so rather than plan.
    plan.input_errors.AddError("Sizing failed",
                               absl::StrCat("The sizing model could not complete the plan: ",
                                            shape.status().message(), ". This is a bug."));
    return plan;
  }
  // The recommendation's own warnings (160k RPS per SE, scale-out) when its shape is the one
  // planned; for a shape that is set, Validate reports the same checks about it.
  const bool shape_set = in.settings.vcpus_per_se || in.settings.se_count;
  if (!shape_set) {
    for (const sz::Finding& f : shape->findings) {
      plan.findings.push_back({f, PathOfModelAttribute(f.attribute, in.has_workload),
                               sz::rules::IsUnderSizing(f.rule)});
    }
  }

  for (auto& [name, value] : PlannedValues(*shape, in.workload)) {
    const cty::Value* given = config.GetAttribute(name);
    if (given == nullptr || given->IsNull()) plan.recommended.emplace(name, std::move(value));
  }
  plan.sizing_object = SizingObject(*shape, plan.findings);
  plan.loads = shape->loads;
  plan.workload = in.workload;
  if (v.recommendation) plan.recommendation = *v.recommendation;
  plan.planned_shape = *std::move(shape);
  return plan;
}

void AddFindingDiagnostic(const PlacedFinding& placed, SizingPolicy policy,
                          framework::Diagnostics& diagnostics, std::string_view enforce_waived) {
  const sz::Finding& f = placed.finding;
  const bool under_enforce = placed.policy_dependent && policy == SizingPolicy::kEnforce;
  const bool enforced = under_enforce && enforce_waived.empty();
  std::string detail = absl::StrCat(f.detail, " (rule ", f.rule, ")");
  if (enforced) {
    absl::StrAppend(&detail,
                    "\n\nsizing_policy = \"enforce\" makes an under-sized group an error in a "
                    "plan that creates or changes it; sizing_policy = \"warn\" makes it a "
                    "warning.");
  } else if (under_enforce) {
    absl::StrAppend(&detail, "\n\n",
                    absl::string_view(enforce_waived.data(), enforce_waived.size()));
  }
  framework::Diagnostic d;
  d.severity = f.severity == sz::Severity::kError || enforced ? framework::Severity::kError
                                                              : framework::Severity::kWarning;
  d.summary = f.summary;
  d.detail = std::move(detail);
  if (!placed.path.empty()) d.path = placed.path;
  diagnostics.Add(std::move(d));
}

}  // namespace nsxalb::provider
