#include "plugin/provider/se_sizing_data_source.h"

#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "plugin/common/log.h"
#include "plugin/framework/attr.h"
#include "plugin/framework/schema_json.h"
#include "plugin/framework/value_util.h"
#include "plugin/provider/se_group_sizing.h"
#include "plugin/sizing/format.h"
#include "provider_schema/embedded.h"

namespace nsxalb::provider {
namespace {

namespace sz = ::nsxalb::sizing;

constexpr char kSizingPolicy[] = "sizing_policy";
// Why under-sizing is a warning here under sizing_policy = "enforce".
constexpr char kDataSourceWaiver[] =
    "This is a warning although sizing_policy = \"enforce\": Terraform reads nsxalb_se_sizing in "
    "every plan, including the refresh that begins terraform destroy, so the data source never "
    "fails on sizing. To stop plans on it, set sizing_policy = \"enforce\" on the nsxalb_se_group "
    "that uses these values, or add a lifecycle postcondition on this data source.";

const framework::Schema& EmbeddedSchema() {
  static const framework::Schema* const kSchema = [] {
    for (const provider_schema::EmbeddedSchema& e : provider_schema::DataSourceJson()) {
      if (e.name != kSeSizingDataSource) continue;
      absl::StatusOr<framework::Schema> parsed = framework::ParseSchemaJson(e.json);
      if (parsed.ok()) return new framework::Schema(*std::move(parsed));
      log::Error(absl::StrCat("provider_schema/data_sources/", kSeSizingDataSource,
                              ".json: ", parsed.status().message()));
      return new framework::Schema();
    }
    log::Error(absl::StrCat("provider_schema/data_sources/", kSeSizingDataSource,
                            ".json is not embedded"));
    return new framework::Schema();
  }();
  return *kSchema;
}

cty::Type MetricObjectType() {
  return cty::Type::Object({{"metric", cty::Type::String()},
                            {"demand", cty::Type::Number()},
                            {"capacity_per_se", cty::Type::Number()},
                            {"group_capacity", cty::Type::Number()},
                            {"utilization_pct", cty::Type::Number()},
                            {"basis", cty::Type::String()}});
}

// The platform and policy of a configuration; diagnostics at their paths for invalid ones.
struct Header {
  std::optional<sz::Platform> platform;
  segroup::SizingPolicy policy = segroup::SizingPolicy::kWarn;
};

Header ReadHeader(const cty::Value& config, framework::Diagnostics& diagnostics) {
  Header h;
  if (std::optional<std::string> text = framework::StringAttr(config, kSizingPolicy).value()) {
    absl::StatusOr<segroup::SizingPolicy> policy = segroup::ParseSizingPolicy(*text);
    if (policy.ok()) {
      h.policy = *policy;
    } else {
      diagnostics.AddAttributeError(cty::AttributePath::Of(kSizingPolicy), "Invalid sizing_policy",
                                    std::string(policy.status().message()));
    }
  }
  if (std::optional<std::string> text = framework::StringAttr(config, kPlatformAttribute).value()) {
    absl::StatusOr<sz::Platform> platform = sz::ParsePlatform(*text);
    if (platform.ok()) {
      h.platform = *platform;
    } else {
      diagnostics.AddAttributeError(cty::AttributePath::Of(kPlatformAttribute), "Invalid platform",
                                    std::string(platform.status().message()));
    }
  }
  return h;
}

double RoundToTenth(double x) { return std::round(x * 10) / 10; }

cty::Value MetricsList(const std::vector<sz::MetricLoad>& loads) {
  std::vector<cty::Value> out;
  out.reserve(loads.size());
  for (const sz::MetricLoad& l : loads) {
    out.push_back(cty::Value::ObjectOf(
        MetricObjectType(),
        {{"metric", cty::Value::String(sz::InfoOf(l.metric).key)},
         {"demand", cty::Value::Float(sz::DisplayFromBase(l.metric, l.demand))},
         {"capacity_per_se",
          cty::Value::Float(sz::RoundForDisplay(l.metric, l.per_se.value, sz::Rounding::kDown))},
         {"group_capacity",
          cty::Value::Float(sz::RoundForDisplay(l.metric, l.group_capacity, sz::Rounding::kDown))},
         {"utilization_pct", cty::Value::Float(RoundToTenth(l.utilization_pct))},
         {"basis", cty::Value::String(sz::BasisName(l.per_se.basis))}}));
  }
  return cty::Value::List(MetricObjectType(), std::move(out));
}

}  // namespace

framework::Schema SeSizingDataSource::GetSchema() const { return EmbeddedSchema(); }

void SeSizingDataSource::Read(const framework::ReadDataSourceRequest& request,
                              framework::ReadDataSourceResponse& response) {
  const cty::Value& config = request.config;
  const Header h = ReadHeader(config, response.diagnostics);
  if (!h.platform.has_value() && !response.diagnostics.HasError()) {
    response.diagnostics.AddAttributeError(cty::AttributePath::Of(kPlatformAttribute),
                                           "Missing platform",
                                           "platform is required: \"vcenter\" or \"nsxt\".");
  }
  if (response.diagnostics.HasError()) return;
  const SizingPlan plan = PlanSizing(config, *h.platform);
  if (!plan.known) {
    response.diagnostics.AddError("Invalid data source request",
                                  "The configuration of nsxalb_se_sizing is not wholly known.");
    return;
  }
  response.diagnostics.Append(plan.input_errors);
  for (const PlacedFinding& f : plan.findings) {
    AddFindingDiagnostic(f, h.policy, response.diagnostics, kDataSourceWaiver);
  }
  if (response.diagnostics.HasError()) return;

  cty::Value state = config;
  for (const auto& [name, value] : plan.recommended) state = state.WithAttribute(name, value);
  const cty::Value& sizing = plan.sizing_object;
  for (const char* name : {"se_count", "service_units"}) {
    state = state.WithAttribute(name, framework::GetAttr(sizing, name, cty::Type::Number()));
  }
  for (const char* name : {"binding_metric", "basis", "summary"}) {
    state = state.WithAttribute(name, framework::GetAttr(sizing, name, cty::Type::String()));
  }
  std::vector<cty::Value> findings;
  for (const PlacedFinding& f : plan.findings) {
    findings.push_back(cty::Value::String(FindingText(f)));
  }
  state = state.WithAttribute("findings", cty::Value::List(cty::Type::String(), findings));
  state = state.WithAttribute("metrics", MetricsList(plan.loads));
  response.state = std::move(state);
}

void SeSizingDataSource::ValidateConfig(const framework::ValidateDataSourceConfigRequest& request,
                                        framework::ValidateDataSourceConfigResponse& response) {
  const cty::Value& config = request.config;
  if (config.IsNull() || !config.IsKnown()) return;
  const Header h = ReadHeader(config, response.diagnostics);
  if (!h.platform.has_value()) return;
  const SizingPlan plan = PlanSizing(config, *h.platform);
  if (!plan.known) return;
  response.diagnostics.Append(plan.input_errors);
  framework::Diagnostics findings;
  for (const PlacedFinding& f : plan.findings) {
    AddFindingDiagnostic(f, h.policy, findings, kDataSourceWaiver);
  }
  for (const framework::Diagnostic& d : findings) {
    if (d.severity == framework::Severity::kError) response.diagnostics.Add(d);
  }
}

std::unique_ptr<framework::DataSource> NewSeSizingDataSource() {
  return std::make_unique<SeSizingDataSource>();
}

}  // namespace nsxalb::provider
