#include "plugin/provider/se_group_sizing.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"
#include "plugin/cty/json.h"

namespace nsxalb::provider {
namespace {

using Json = nlohmann::json;

// The sizing attributes the model does not read: an unknown one does not make the plan unknown.
bool IsOpaqueWhenUnknown(const std::string& name) {
  return name == "max_se" || name == "min_se" || name == "se_name_prefix";
}

// The configuration as the domain's input; false when an input the model needs is unknown.
bool ToInput(const cty::Value& config, segroup::SizingInput& in, bool& has_workload) {
  has_workload = false;
  if (!config.IsKnown()) return false;
  if (config.IsNull()) return true;
  const cty::Value* workload = config.GetAttribute(kWorkloadAttribute);
  if (workload != nullptr && !workload->IsNull()) {
    has_workload = true;
    if (!workload->IsKnown()) return false;
    in.workload = Json::object();
    for (const auto& [name, type] : workload->type().attributes()) {
      const cty::Value* v = workload->GetAttribute(name);
      if (v == nullptr || v->IsNull()) continue;
      if (!v->IsKnown()) return false;
      in.workload[name] = cty::PrimitiveJson(*v);
    }
  }
  bool known = true;
  std::vector<std::string> names = segroup::SizingAttributeNames();
  for (const std::string& name : segroup::LicenceAttributeNames()) names.push_back(name);
  for (const std::string& name : names) {
    const cty::Value* v = config.GetAttribute(name);
    if (v == nullptr || v->IsNull()) continue;
    if (!v->IsKnown()) {
      if (IsOpaqueWhenUnknown(name)) {
        in.opaque_settings.insert(name);
      } else {
        known = false;
      }
      continue;
    }
    in.settings[name] = cty::PrimitiveJson(*v);
  }
  return known;
}

// A domain value as the cty value of a sizing attribute.
cty::Value ToValue(const Json& j) {
  if (j.is_string()) return cty::Value::String(j.get<std::string>());
  if (j.is_boolean()) return cty::Value::Bool(j.get<bool>());
  if (j.is_number_integer()) return cty::Value::Int(j.get<int64_t>());
  return cty::Value::Float(j.get<double>());
}

cty::Value SizingObject(const segroup::SizingSummary& s) {
  std::vector<cty::Value> findings;
  for (const std::string& f : s.findings) findings.push_back(cty::Value::String(f));
  return cty::Value::ObjectOf(
      SizingObjectType(),
      {{"profile", cty::Value::String(s.profile)},
       {"se_count", cty::Value::Int(s.se_count)},
       {"binding_metric", s.binding_metric.has_value() ? cty::Value::String(*s.binding_metric)
                                                       : cty::Value::Null(cty::Type::String())},
       {"utilization_pct", s.utilization_pct.has_value() ? cty::Value::Float(*s.utilization_pct)
                                                         : cty::Value::Null(cty::Type::Number())},
       {"basis", cty::Value::String(s.basis)},
       {"service_units", s.service_units.has_value() ? cty::Value::Float(*s.service_units)
                                                     : cty::Value::Null(cty::Type::Number())},
       {"summary", cty::Value::String(s.summary)},
       {"findings", cty::Value::List(cty::Type::String(), std::move(findings))}});
}

// The attribute path of a domain attribute name ("workload.l7_rps"); the root for "".
cty::AttributePath PathOf(const std::string& attribute) {
  cty::AttributePath path;
  if (attribute.empty()) return path;
  for (absl::string_view step : absl::StrSplit(attribute, '.')) {
    path = path.Attribute(std::string(step));
  }
  return path;
}

segroup::Finding ToDomain(const PlacedFinding& placed) {
  std::string attribute = placed.path.empty() ? "" : placed.path.ToString();
  if (!attribute.empty() && attribute[0] == '.') attribute.erase(0, 1);
  return {placed.finding, attribute, placed.policy_dependent};
}

}  // namespace

cty::Type SizingObjectType() {
  return cty::Type::Object({{"profile", cty::Type::String()},
                            {"se_count", cty::Type::Number()},
                            {"binding_metric", cty::Type::String()},
                            {"utilization_pct", cty::Type::Number()},
                            {"basis", cty::Type::String()},
                            {"service_units", cty::Type::Number()},
                            {"summary", cty::Type::String()},
                            {"findings", cty::Type::List(cty::Type::String())}});
}

const std::vector<std::string>& SizingFigureNames() {
  static const std::vector<std::string>* const kNames = new std::vector<std::string>{
      "profile", "se_count", "binding_metric", "utilization_pct", "basis", "service_units"};
  return *kNames;
}

bool SameSizingFigures(const cty::Value& a, const cty::Value& b) {
  const auto usable = [](const cty::Value& v) { return v.IsWhollyKnown() && !v.IsNull(); };
  if (!usable(a) || !usable(b)) return false;
  for (const std::string& name : SizingFigureNames()) {
    const cty::Value* left = a.GetAttribute(name);
    const cty::Value* right = b.GetAttribute(name);
    if (left == nullptr || right == nullptr || !left->Equals(*right)) return false;
  }
  return true;
}

PlacedFinding Placed(segroup::Finding finding) {
  return {std::move(finding.finding), PathOf(finding.attribute), finding.policy_dependent};
}

cty::AttributePath PathOfModelAttribute(std::string_view attribute, bool has_workload) {
  return PathOf(segroup::AttributeOfModel(attribute, has_workload));
}

std::string FindingText(const PlacedFinding& finding) {
  return segroup::FindingText(ToDomain(finding));
}

SizingPlan PlanSizing(const cty::Value& config, sizing::Platform platform) {
  SizingPlan plan;
  plan.sizing_object = cty::Value::Null(SizingObjectType());
  segroup::SizingInput input;
  bool has_workload = false;
  const bool known = ToInput(config, input, has_workload);
  plan.has_workload = has_workload;
  if (!known) {
    if (has_workload) plan.sizing_object = cty::Value::Unknown(SizingObjectType());
    return plan;
  }
  plan.known = true;
  segroup::SizingPlan domain = segroup::PlanSizing(input, platform);
  for (const segroup::InputError& e : domain.input_errors) {
    if (e.attribute.empty()) {
      plan.input_errors.AddError(e.summary, e.detail);
    } else {
      plan.input_errors.AddAttributeError(PathOf(e.attribute), e.summary, e.detail);
    }
  }
  for (segroup::Finding& f : domain.findings) plan.findings.push_back(Placed(std::move(f)));
  for (const auto& [name, value] : domain.recommended)
    plan.recommended.emplace(name, ToValue(value));
  if (domain.summary.has_value()) plan.sizing_object = SizingObject(*domain.summary);
  plan.loads = std::move(domain.loads);
  plan.workload = domain.workload;
  plan.workload_json = std::move(input.workload);
  plan.planned_shape = std::move(domain.planned_shape);
  plan.recommendation = std::move(domain.recommendation);
  return plan;
}

void AddFindingDiagnostic(const PlacedFinding& placed, segroup::SizingPolicy policy,
                          framework::Diagnostics& diagnostics, std::string_view enforce_waived) {
  const sizing::Finding& f = placed.finding;
  const bool under_enforce = placed.policy_dependent && policy == segroup::SizingPolicy::kEnforce;
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
  d.severity = segroup::FindingIsError(ToDomain(placed), policy, !enforce_waived.empty())
                   ? framework::Severity::kError
                   : framework::Severity::kWarning;
  d.summary = f.summary;
  d.detail = std::move(detail);
  if (!placed.path.empty()) d.path = placed.path;
  diagnostics.Add(std::move(d));
}

std::string WorkloadLine(const SizingPlan& plan) {
  const sizing::MetricLoad* most = nullptr;
  for (const sizing::MetricLoad& load : plan.loads) {
    if (most == nullptr || load.utilization_pct > most->utilization_pct) most = &load;
  }
  return most == nullptr ? "workload" : absl::StrCat("workload.", sizing::InfoOf(most->metric).key);
}

}  // namespace nsxalb::provider
