// nsxalb_se_group_usage (data source).
#include "plugin/provider/se_group_usage_data_source.h"

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "plugin/framework/attr.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/provider/controller_errors.h"
#include "plugin/provider/provider.h"
#include "plugin/provider/usage_attributes.h"
#include "plugin/segroup/fields.h"
#include "plugin/segroup/usage/group_reader.h"

namespace nsxalb::provider {

using framework::StringAttr;

framework::Schema SeGroupUsageDataSource::GetSchema() const {
  return EmbeddedDataSourceSchema(kSeGroupUsageDataSourceType);
}

void SeGroupUsageDataSource::ValidateConfig(
    const framework::ValidateDataSourceConfigRequest& request,
    framework::ValidateDataSourceConfigResponse& response) {
  const cty::Value& config = request.config;
  UsageQueryOf(config, cty::AttributePath(), response.diagnostics);
  if (StringAttr(config, "name").IsNull() && StringAttr(config, "id").IsNull()) {
    response.diagnostics.AddAttributeError(cty::AttributePath::Of("name"), "Missing SE group",
                                           "Set name (with cloud when the name is in several "
                                           "clouds) or id: the group whose usage to read.");
  }
  WrittenPlatform(config, response.diagnostics);
}

void SeGroupUsageDataSource::Read(const framework::ReadDataSourceRequest& request,
                                  framework::ReadDataSourceResponse& response) {
  const cty::Value& config = request.config;
  const segroup::UsageQuery query =
      UsageQueryOf(config, cty::AttributePath(), response.diagnostics);
  if (response.diagnostics.HasError()) return;
  const std::string name = StringAttr(config, "name").value_or("");
  const std::string cloud = StringAttr(config, "cloud").value_or("");
  const std::string tenant = StringAttr(config, "tenant").value_or("");
  const std::optional<std::string> id = StringAttr(config, "id").value();
  const std::string action = absl::StrCat("reading the usage of SE group \"",
                                          id.has_value() && name.empty() ? *id : name, "\"");
  absl::StatusOr<std::shared_ptr<controller::Client>> client = provider_->Client();
  if (!client.ok()) {
    response.diagnostics.AddError(
        "No Controller configured",
        framework::ErrorDetail(action, std::string(client.status().message()), ""));
    return;
  }
  absl::StatusOr<controller::SeGroup> group =
      id.has_value() ? (*client)->GetSeGroup(*id, tenant)
                     : segroup::FindSeGroupByName(**client, name, tenant, cloud);
  if (!group.ok()) {
    AddControllerError(
        response.diagnostics,
        group.status().code() == absl::StatusCode::kNotFound ? "SE group not found"
                                                             : "Cannot read SE group",
        action, "", group.status(), cty::AttributePath::Of(id.has_value() ? "id" : "name"));
    return;
  }

  segroup::GroupUsageRequest usage;
  usage.query = query;
  usage.now = absl::Now();
  const std::optional<sizing::Platform> written = WrittenPlatform(config, response.diagnostics);
  if (response.diagnostics.HasError()) return;
  if (written.has_value()) {
    usage.platform = *written;
  } else {
    absl::StatusOr<controller::CloudInfo> cloud_info = (*client)->ResolveCloud(group->cloud_ref);
    if (!cloud_info.ok()) {
      AddControllerError(response.diagnostics, "Cannot read the group's cloud", action, "",
                         cloud_info.status());
      return;
    }
    absl::StatusOr<sizing::Platform> derived = segroup::PlatformOfCloud(*cloud_info);
    if (!derived.ok()) {
      response.diagnostics.AddAttributeError(cty::AttributePath::Of("platform"),
                                             "Platform not derivable",
                                             std::string(derived.status().message()));
      return;
    }
    usage.platform = *derived;
  }

  absl::StatusOr<segroup::UsageReport> report =
      segroup::ReadGroupUsage(**client, group->uuid, group->tenant_ref, group->body, usage);
  if (!report.ok()) {
    AddControllerError(response.diagnostics, "Cannot read the group's usage", action, "",
                       report.status());
    return;
  }
  absl::StatusOr<cty::Value> report_value = UsageReportValue(*report);
  if (!report_value.ok()) {
    response.diagnostics.AddError(
        "Cannot record the usage report",
        framework::ErrorDetail(action, std::string(report_value.status().message()), ""));
    return;
  }
  // The optional and computed attributes besides the report's.
  const std::map<std::string, cty::Value> chosen = {
      {"id", cty::Value::String(group->uuid)},
      {"platform", cty::Value::String(sizing::PlatformName(usage.platform))},
      {"window", cty::Value::String(segroup::UsageWindowText(report->window))},
      {"statistic", cty::Value::String(segroup::UsageStatisticName(report->statistic))}};
  for (const segroup::Finding& f : report->findings) {
    response.diagnostics.AddWarning(absl::StrCat("SE group usage: ", f.finding.summary),
                                    segroup::FindingText(f));
  }

  const framework::Block& block = GetSchema().block;
  cty::Value state = response.state;
  for (const auto& [attribute, schema] : block.attributes) {
    if (const cty::Value* value = report_value->GetAttribute(attribute)) {
      state = state.WithAttribute(attribute, *value);
      continue;
    }
    auto value = chosen.find(attribute);
    if (value == chosen.end()) continue;
    // What the configuration sets stays as written ("24h" is not rewritten to "1d").
    if (schema.optional && !config.GetAttribute(attribute)->IsNull()) continue;
    state = state.WithAttribute(attribute, value->second);
  }
  response.state = std::move(state);
}

}  // namespace nsxalb::provider
