// The provider-defined functions: argument checks, then the data source, PlanSizing or
// sizing::CapacityOf, then the result object.
#include "plugin/provider/sizing_functions.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/framework/value_util.h"
#include "plugin/provider/provider.h"
#include "plugin/provider/se_group_sizing.h"
#include "plugin/provider/se_sizing_data_source.h"
#include "plugin/sizing/capacity.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/profiles.h"

namespace nsxalb::provider {
namespace {

namespace sz = ::nsxalb::sizing;
using framework::FunctionError;

constexpr char kSettings[] = "settings";
constexpr char kPlatformDescription[] =
    "Performance profile to size with: \"vcenter\" or \"nsxt\" (as nsxalb_se_group's platform).";
constexpr char kWorkloadDescription[] =
    "The workload, as an object with any subset of the attributes of nsxalb_se_group's workload "
    "block, for example { l7_rps = 150000, ssl_tps_ecc = 8000 }. Throughput is in Gbps.";
constexpr char kRecommendWorkloadDescription[] =
    "The workload, as an object with any subset of the attributes of nsxalb_se_group's workload "
    "block, for example { l7_rps = 150000, ssl_tps_ecc = 8000 } (throughput in Gbps), and "
    "optionally the group's HA policy, which the model sizes for: ha_mode, buffer_se, "
    "max_vs_per_se and max_scaleout_per_vs, as nsxalb_se_group's attributes of those names.";

// The nsxalb_se_sizing schema: its attributes name the settings and outputs, its workload block
// the workload keys.
const framework::Block& SizingBlock() {
  return EmbeddedDataSourceSchema(kSeSizingDataSource).block;
}

const framework::Block& WorkloadBlock() {
  static const framework::Block* const kEmpty = new framework::Block();
  auto it = SizingBlock().block_types.find(kWorkloadAttribute);
  return it == SizingBlock().block_types.end() ? *kEmpty : it->second.block;
}

// The settings check takes: the data source's optional attributes, platform and sizing_policy
// aside.
bool IsSettingName(const std::string& name) {
  auto it = SizingBlock().attributes.find(name);
  return it != SizingBlock().attributes.end() && it->second.optional &&
         name != kPlatformAttribute && name != "sizing_policy";
}

// The data source's outputs and settings: what recommend returns.
bool IsRecommendOutput(const std::string& name) {
  return name != kPlatformAttribute && name != "sizing_policy";
}

cty::Type RecommendType() {
  std::map<std::string, cty::Type> attrs;
  for (const auto& [name, attr] : SizingBlock().attributes) {
    if (IsRecommendOutput(name)) attrs.emplace(name, attr.type);
  }
  return cty::Type::Object(std::move(attrs));
}

cty::Type CheckType() {
  return cty::Type::Object({{"ok", cty::Type::Bool()},
                            {"findings", cty::Type::List(cty::Type::String())},
                            {"se_count", cty::Type::Number()},
                            {"binding_metric", cty::Type::String()},
                            {"basis", cty::Type::String()},
                            {"service_units", cty::Type::Number()},
                            {"summary", cty::Type::String()}});
}

cty::Type FigureType() {
  return cty::Type::Object({{"value", cty::Type::Number()},
                            {"unit", cty::Type::String()},
                            {"text", cty::Type::String()},
                            {"basis", cty::Type::String()}});
}

cty::Type CapacityType() {
  std::map<std::string, cty::Type> attrs{{"vcpus_per_se", cty::Type::Number()},
                                         {"memory_per_se", cty::Type::Number()}};
  for (sz::Metric m : sz::kAllMetrics) attrs.emplace(sz::InfoOf(m).key, FigureType());
  return cty::Type::Object(std::move(attrs));
}

std::string SortedKeys(const std::map<std::string, framework::Attribute>& attrs,
                       bool (*keep)(const std::string&)) {
  std::vector<std::string> names;
  for (const auto& [name, attr] : attrs) {
    if (keep == nullptr || keep(name)) names.push_back(name);
  }
  return absl::StrJoin(names, ", ");
}

const char* KindName(const cty::Type& type) {
  switch (type.kind()) {
    case cty::Type::Kind::kString:
      return "a string";
    case cty::Type::Kind::kNumber:
      return "a number";
    case cty::Type::Kind::kBool:
      return "a bool";
    default:
      return "a collection";
  }
}

// The platform argument, or an error at it.
std::optional<sz::Platform> ReadPlatform(const cty::Value& arg,
                                         std::optional<FunctionError>& error) {
  absl::StatusOr<sz::Platform> platform = sz::ParsePlatform(arg.AsString());
  if (platform.ok()) return *platform;
  error = FunctionError{absl::StrCat("Unknown platform \"", arg.AsString(),
                                     "\": the accepted values are \"vcenter\" and \"nsxt\""),
                        0};
  return std::nullopt;
}

// An object argument (an object or map literal) as an object of `block` whose attributes are
// `keep` ones; an error at `index` for anything else, with the accepted keys.
std::optional<cty::Value> ReadObject(const cty::Value& arg, const framework::Block& block,
                                     bool (*keep)(const std::string&), const char* what,
                                     const char* example, int64_t index,
                                     std::optional<FunctionError>& error) {
  const cty::Type::Kind kind = arg.type().kind();
  if (kind != cty::Type::Kind::kObject && kind != cty::Type::Kind::kMap) {
    error = FunctionError{absl::StrCat(what, " must be an object such as ", example), index};
    return std::nullopt;
  }
  cty::Value out = framework::EmptyObject(block);
  for (const auto& [key, value] : arg.entries()) {
    auto attr = block.attributes.find(key);
    if (attr == block.attributes.end() || (keep != nullptr && !keep(key))) {
      error = FunctionError{absl::StrCat(what, " has no key \"", key, "\". The accepted keys are: ",
                                         SortedKeys(block.attributes, keep)),
                            index};
      return std::nullopt;
    }
    if (value.IsNull()) continue;
    if (value.type().kind() != attr->second.type.kind()) {
      error = FunctionError{absl::StrCat(what, ".", key, " must be ", KindName(attr->second.type),
                                         ", not ", KindName(value.type())),
                            index};
      return std::nullopt;
    }
    out = std::move(out).WithAttribute(key, value);
  }
  return out;
}

// The argument a diagnostic of the model is about: the workload block's, or else the settings'
// (the workload's when there is no settings argument).
int64_t ArgumentOf(const std::optional<cty::AttributePath>& path, int64_t workload_index,
                   int64_t settings_index) {
  if (!path.has_value() || path->empty()) return workload_index;
  const std::string& first = path->steps().front().name;
  if (first == kPlatformAttribute) return 0;
  if (first == kWorkloadAttribute) return workload_index;
  return settings_index;
}

// The first error diagnostic as a function error, at the argument its path names, the attribute
// named as the call writes it.
FunctionError ErrorOf(const framework::Diagnostics& diagnostics, int64_t workload_index,
                      int64_t settings_index) {
  for (const framework::Diagnostic& d : diagnostics) {
    if (d.severity != framework::Severity::kError) continue;
    // Terraform ends the message with its own period.
    std::string text = absl::StrCat(d.summary, ". ", d.detail);
    while (!text.empty() && (text.back() == '.' || text.back() == '\n')) text.pop_back();
    return FunctionError{std::move(text), ArgumentOf(d.path, workload_index, settings_index)};
  }
  return FunctionError{"The sizing model failed", workload_index};
}

// A nsxalb_se_sizing configuration: platform, the workload block and the given settings.
cty::Value SizingConfig(const std::string& platform, const cty::Value& workload,
                        const std::optional<cty::Value>& settings) {
  cty::Value config = framework::EmptyObject(SizingBlock());
  if (settings.has_value()) {
    for (const auto& [name, value] : settings->entries()) {
      if (!value.IsNull()) config = std::move(config).WithAttribute(name, value);
    }
  }
  config = std::move(config).WithAttribute(kPlatformAttribute, cty::Value::String(platform));
  return std::move(config).WithAttribute(kWorkloadAttribute, workload);
}

framework::FunctionParameter PlatformParameter() {
  return {kPlatformAttribute, cty::Type::String(), kPlatformDescription};
}

framework::FunctionParameter WorkloadParameter() {
  return {kWorkloadAttribute, cty::Type::Dynamic(), kWorkloadDescription};
}

bool IsWorkloadKey(const std::string&) { return true; }

// The settings recommend takes in its workload argument: the HA policy the model sizes for.
bool IsPolicyKey(const std::string& name) {
  return name == "ha_mode" || name == "buffer_se" || name == "max_vs_per_se" ||
         name == "max_scaleout_per_vs";
}

// recommend's workload argument: the workload block's keys and the policy keys.
std::optional<std::pair<cty::Value, cty::Value>> ReadRecommendWorkload(
    const cty::Value& arg, std::optional<FunctionError>& error) {
  const cty::Type::Kind kind = arg.type().kind();
  if (kind != cty::Type::Kind::kObject && kind != cty::Type::Kind::kMap) {
    error = FunctionError{"workload must be an object such as { l7_rps = 150000 }", 1};
    return std::nullopt;
  }
  std::map<std::string, cty::Value> workload, policy;
  for (const auto& [key, value] : arg.entries()) {
    (IsPolicyKey(key) ? policy : workload).emplace(key, value);
  }
  std::optional<cty::Value> w =
      ReadObject(cty::Value::Object(std::move(workload)), WorkloadBlock(), IsWorkloadKey,
                 kWorkloadAttribute, "{ l7_rps = 150000 }", 1, error);
  if (!w.has_value()) {
    if (error.has_value()) {
      absl::StrAppend(&error->text, ", ha_mode, buffer_se, max_vs_per_se, max_scaleout_per_vs");
    }
    return std::nullopt;
  }
  std::optional<cty::Value> p =
      ReadObject(cty::Value::Object(std::move(policy)), SizingBlock(), IsPolicyKey,
                 kWorkloadAttribute, "{ ha_mode = \"...\" }", 1, error);
  if (!p.has_value()) return std::nullopt;
  return std::make_pair(*std::move(w), *std::move(p));
}

class RecommendFunction : public framework::Function {
 public:
  framework::FunctionDefinition Definition() const override {
    framework::FunctionDefinition d;
    d.parameters = {PlatformParameter(),
                    {kWorkloadAttribute, cty::Type::Dynamic(), kRecommendWorkloadDescription}};
    d.return_type = RecommendType();
    d.summary = "The recommended SE group settings for a workload";
    d.description =
        "Sizes a Service Engine group for a workload with the embedded performance model, as the "
        "nsxalb_se_sizing data source does, and needs no Controller. Returns every recommended "
        "setting under nsxalb_se_group's attribute names (vcpus_per_se, memory_per_se, "
        "disk_per_se, num_dispatcher_cores, dedicated_dispatcher_core, max_queues_per_vnic, "
        "hybrid_rss_mode, cpu_reserve, mem_reserve, min_scaleout_per_vs, max_scaleout_per_vs, "
        "max_se, min_se, buffer_se, ha_mode, max_vs_per_se, se_name_prefix), plus se_count, "
        "binding_metric, basis, summary, findings and metrics. The settings fit any provider's "
        "SE group resource, such as vmware/avi's avi_serviceenginegroup.";
    return d;
  }

  void Call(const framework::CallFunctionRequest& request,
            framework::CallFunctionResponse& response) override {
    std::optional<sz::Platform> platform = ReadPlatform(request.arguments[0], response.error);
    if (!platform.has_value()) return;
    std::optional<std::pair<cty::Value, cty::Value>> workload =
        ReadRecommendWorkload(request.arguments[1], response.error);
    if (!workload.has_value()) return;
    framework::ReadDataSourceRequest read{
        request.context,
        SizingConfig(request.arguments[0].AsString(), workload->first, workload->second)};
    framework::ReadDataSourceResponse answer;
    answer.state = read.config;
    SeSizingDataSource().Read(read, answer);
    if (answer.diagnostics.HasError()) {
      response.error = ErrorOf(answer.diagnostics, 1, 1);
      return;
    }
    std::map<std::string, cty::Value> out;
    for (const auto& [name, value] : answer.state.entries()) {
      if (IsRecommendOutput(name) && name != kWorkloadAttribute) out.emplace(name, value);
    }
    response.result = cty::Value::ObjectOf(RecommendType(), std::move(out));
  }
};

class CheckFunction : public framework::Function {
 public:
  framework::FunctionDefinition Definition() const override {
    framework::FunctionDefinition d;
    d.parameters = {
        PlatformParameter(),
        {kSettings, cty::Type::Dynamic(),
         "The hand-set settings, as an object with any subset of nsxalb_se_group's sizing "
         "attributes, for example { vcpus_per_se = 2, max_se = 3 }."},
        WorkloadParameter()};
    d.return_type = CheckType();
    d.summary = "The sizing findings for hand-set SE group settings";
    d.description =
        "Checks SE group settings against a workload as nsxalb_se_group's plan does, without a "
        "Controller. Returns ok (true when no finding is an error and the settings carry the "
        "workload), findings (one line each, as the resource's sizing.findings), and se_count, "
        "binding_metric, basis, service_units and summary for the planned SEs (null when a finding "
        "is an "
        "error). Unset settings are filled as the resource plans them.";
    return d;
  }

  void Call(const framework::CallFunctionRequest& request,
            framework::CallFunctionResponse& response) override {
    std::optional<sz::Platform> platform = ReadPlatform(request.arguments[0], response.error);
    if (!platform.has_value()) return;
    std::optional<cty::Value> settings =
        ReadObject(request.arguments[1], SizingBlock(), IsSettingName, kSettings,
                   "{ vcpus_per_se = 2 }", 1, response.error);
    if (!settings.has_value()) return;
    std::optional<cty::Value> workload =
        ReadObject(request.arguments[2], WorkloadBlock(), IsWorkloadKey, kWorkloadAttribute,
                   "{ l7_rps = 150000 }", 2, response.error);
    if (!workload.has_value()) return;
    const SizingPlan plan =
        PlanSizing(SizingConfig(request.arguments[0].AsString(), *workload, settings), *platform);
    if (plan.input_errors.HasError()) {
      response.error = ErrorOf(plan.input_errors, 2, 1);
      return;
    }
    bool ok = true;
    std::vector<cty::Value> findings;
    for (const PlacedFinding& f : plan.findings) {
      if (f.finding.severity == sz::Severity::kError || f.policy_dependent) ok = false;
      findings.push_back(cty::Value::String(FindingText(f)));
    }
    const cty::Value& sizing = plan.sizing_object;
    response.result = cty::Value::ObjectOf(
        CheckType(),
        {{"ok", cty::Value::Bool(ok)},
         {"findings", cty::Value::List(cty::Type::String(), std::move(findings))},
         {"se_count", framework::GetAttr(sizing, "se_count", cty::Type::Number())},
         {"binding_metric", framework::GetAttr(sizing, "binding_metric", cty::Type::String())},
         {"basis", framework::GetAttr(sizing, "basis", cty::Type::String())},
         {"service_units", framework::GetAttr(sizing, "service_units", cty::Type::Number())},
         {"summary", framework::GetAttr(sizing, "summary", cty::Type::String())}});
  }
};

class CapacityFunction : public framework::Function {
 public:
  framework::FunctionDefinition Definition() const override {
    framework::FunctionDefinition d;
    d.parameters = {PlatformParameter(),
                    {"vcpus", cty::Type::Number(),
                     "vCPUs of the Service Engine: a whole number from 1 to 64. Its memory is the "
                     "table memory for that size."}};
    d.return_type = CapacityType();
    d.summary = "The capacity of one Service Engine per metric";
    d.description =
        "What one SE of the given vCPUs carries on the platform, per metric of the sizing model "
        "(ssl_tps_ecc, ssl_tps_rsa, l7_rps, l4_cps, l4_open_conns, l4_gbps, l7_gbps, "
        "l7_ssl_gbps), each as { value, unit, text, basis }, with the SE's vcpus_per_se and "
        "memory_per_se (the table memory, in MB). The figures are those of `terraform-provider-"
        "nsxalb size --json`; basis says whether a figure is measured, interpolated, "
        "extrapolated, cross-profile or derived by a rule.";
    return d;
  }

  void Call(const framework::CallFunctionRequest& request,
            framework::CallFunctionResponse& response) override {
    std::optional<sz::Platform> platform = ReadPlatform(request.arguments[0], response.error);
    if (!platform.has_value()) return;
    const cty::Number& number = request.arguments[1].AsNumber();
    absl::StatusOr<int64_t> vcpus = number.AsInt64();
    if (!vcpus.ok() || *vcpus < 1 || *vcpus > 64) {
      response.error = FunctionError{
          absl::StrCat("vcpus must be a whole number from 1 to 64, not ", number.ToString()), 1};
      return;
    }
    absl::StatusOr<sz::SeCapacity> capacity = sz::CapacityOf(*platform, static_cast<int>(*vcpus));
    if (!capacity.ok()) {
      response.error = FunctionError{std::string(capacity.status().message()), 1};
      return;
    }
    std::map<std::string, cty::Value> out{{"vcpus_per_se", cty::Value::Int(capacity->vcpus)},
                                          {"memory_per_se", cty::Value::Int(capacity->memory_mb)}};
    for (sz::Metric m : sz::kAllMetrics) {
      const sz::Figure& f = capacity->Of(m);
      out.emplace(
          sz::InfoOf(m).key,
          cty::Value::ObjectOf(
              FigureType(),
              {{"value", cty::Value::Float(sz::DisplayFromBase(m, f.value))},
               {"unit", cty::Value::String(sz::InfoOf(m).unit)},
               {"text", cty::Value::String(sz::FormatValue(m, f.value, sz::Rounding::kDown))},
               {"basis", cty::Value::String(sz::BasisName(f.basis))}}));
    }
    response.result = cty::Value::ObjectOf(CapacityType(), std::move(out));
  }
};

}  // namespace

std::map<std::string, framework::FunctionFactory> SizingFunctions() {
  return {
      {"recommend", [] { return std::make_unique<RecommendFunction>(); }},
      {"capacity", [] { return std::make_unique<CapacityFunction>(); }},
      {"check", [] { return std::make_unique<CheckFunction>(); }},
  };
}

}  // namespace nsxalb::provider
