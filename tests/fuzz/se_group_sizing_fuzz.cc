// libFuzzer entry point for the sizing inputs, through the parser the resource uses: the bytes
// are decoded as Terraform sends a configuration (msgpack of the schema's implied type, and JSON
// as state is stored), then
// - nsxalb_se_group's configuration goes through the engine's ValidateResourceTypeConfig (the
//   workload, the typed sizing attributes, sizing_policy, extra_fields, platform) and through
//   provider::PlanSizing on both platforms;
// - nsxalb_se_sizing's goes through ValidateDataSourceConfig and ReadDataSource, which plan
//   without a Controller.
// Contract: no crash and no exception; a plan with a workload has a `sizing` object of its type
// and recommends only sizing attributes, each a known value of the attribute's type; every
// diagnostic has a summary; a data source read without errors returns a value of its schema's
// type. A violation aborts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "plugin/cty/json.h"
#include "plugin/cty/msgpack.h"
#include "plugin/cty/type.h"
#include "plugin/cty/value.h"
#include "plugin/framework/provider_server.h"
#include "plugin/framework/schema.h"
#include "plugin/provider/provider.h"
#include "plugin/provider/se_group_resource.h"
#include "plugin/provider/se_group_sizing.h"
#include "plugin/provider/se_sizing_data_source.h"
#include "plugin/sizing/profiles.h"

namespace {

using nsxalb::cty::Type;
using nsxalb::cty::Value;

void Check(bool ok) {
  if (!ok) std::abort();
}

nsxalb::framework::ProviderServer& Server() {
  static auto* server = new nsxalb::framework::ProviderServer(nsxalb::provider::NewProvider());
  return *server;
}

const Type& ResourceType() {
  static const auto* type = new Type(nsxalb::framework::ImpliedType(
      nsxalb::provider::EmbeddedResourceSchema(nsxalb::provider::kSeGroupResourceType).block));
  return *type;
}

const Type& DataSourceType() {
  static const auto* type = new Type(nsxalb::framework::ImpliedType(
      nsxalb::provider::EmbeddedDataSourceSchema(nsxalb::provider::kSeSizingDataSource).block));
  return *type;
}

void CheckDiagnostics(const nsxalb::framework::Diagnostics& diagnostics) {
  for (const auto& d : diagnostics) Check(!d.summary.empty());
}

void CheckPlan(const Value& config) {
  for (nsxalb::sizing::Platform platform : nsxalb::sizing::kAllPlatforms) {
    nsxalb::provider::SizingPlan plan = nsxalb::provider::PlanSizing(config, platform);
    if (!plan.known) continue;
    if (plan.has_workload) {
      Check(nsxalb::cty::CheckConformance(plan.sizing_object, nsxalb::provider::SizingObjectType())
                .ok());
    }
    const Type& type = ResourceType();
    for (const auto& [name, value] : plan.recommended) {
      bool sizing_attribute = false;
      for (const std::string& n : nsxalb::segroup::SizingAttributeNames()) {
        sizing_attribute = sizing_attribute || n == name;
      }
      Check(sizing_attribute);
      Check(value.IsKnown() && !value.IsNull());
      auto attribute = type.attributes().find(name);
      Check(attribute != type.attributes().end());
      Check(nsxalb::cty::CheckConformance(value, attribute->second).ok());
    }
    for (const auto& finding : plan.findings) Check(!finding.finding.summary.empty());
    CheckDiagnostics(plan.input_errors);
  }
}

void ResourceConfig(const Value& config) {
  CheckDiagnostics(Server().ValidateResourceConfig(nsxalb::provider::kSeGroupResourceType, config));
  CheckPlan(config);
}

void DataSourceConfig(const Value& config) {
  const std::string type_name = nsxalb::provider::kSeSizingDataSource;
  CheckDiagnostics(Server().ValidateDataSourceConfig(type_name, config));
  nsxalb::framework::ReadDataSourceResult read = Server().ReadDataSource(type_name, config);
  CheckDiagnostics(read.diagnostics);
  if (!read.diagnostics.HasError()) {
    Check(nsxalb::cty::CheckConformance(read.state, DataSourceType()).ok());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (auto v = nsxalb::cty::DecodeMsgpack(input, ResourceType()); v.ok()) ResourceConfig(*v);
  if (auto v = nsxalb::cty::DecodeJson(input, ResourceType()); v.ok()) ResourceConfig(*v);
  if (auto v = nsxalb::cty::DecodeMsgpack(input, DataSourceType()); v.ok()) DataSourceConfig(*v);
  return 0;
}
