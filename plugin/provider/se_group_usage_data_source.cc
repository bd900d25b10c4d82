// nsxalb_se_group_usage (data source).
#include "plugin/provider/se_group_usage_data_source.h"

#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "plugin/cty/json.h"
#include "plugin/framework/attr.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/provider/controller_errors.h"
#include "plugin/provider/provider.h"
#include "plugin/segroup/fields.h"
#include "plugin/segroup/usage/group_reader.h"

namespace nsxalb::provider {
namespace {

using framework::StringAttr;
using Json = nlohmann::json;

// The state's value for one attribute of the report: the report JSON member decoded as `type`.
absl::StatusOr<cty::Value> ReportAttribute(const Json& member, const cty::Type& type) {
  return cty::DecodeJson(member.dump(), type);
}

// The configuration's platform, parsed; unset when it is null or unknown. An invalid one is an
// error at `platform` (and unset).
std::optional<sizing::Platform> WrittenPlatform(const cty::Value& config,
                                                framework::Diagnostics& diagnostics) {
  const std::optional<std::string> platform = StringAttr(config, "platform").value();
  if (!platform.has_value()) return std::nullopt;
  absl::StatusOr<sizing::Platform> parsed = sizing::ParsePlatform(*platform);
  if (parsed.ok()) return *parsed;
  diagnostics.AddAttributeError(cty::AttributePath().Attribute("platform"), "Invalid platform",
                                std::string(parsed.status().message()));
  return std::nullopt;
}

}  // namespace

segroup::UsageQuery UsageQueryOf(const cty::Value& object, const cty::AttributePath& base,
                                 framework::Diagnostics& diagnostics) {
  segroup::UsageQuery query;
  if (const std::optional<std::string> window = StringAttr(object, "window").value()) {
    absl::StatusOr<absl::Duration> parsed = segroup::ParseUsageWindow(*window);
    if (parsed.ok()) {
      query.window = *parsed;
    } else {
      diagnostics.AddAttributeError(base.Attribute("window"), "Invalid window",
                                    std::string(parsed.status().message()));
    }
  }
  if (const std::optional<std::string> statistic = StringAttr(object, "statistic").value()) {
    absl::StatusOr<segroup::UsageStatistic> parsed = segroup::ParseUsageStatistic(*statistic);
    if (parsed.ok()) {
      query.statistic = *parsed;
    } else {
      diagnostics.AddAttributeError(base.Attribute("statistic"), "Invalid statistic",
                                    std::string(parsed.status().message()));
    }
  }
  return query;
}

framework::Schema SeGroupUsageDataSource::GetSchema() const {
  return EmbeddedDataSourceSchema(kSeGroupUsageDataSourceType);
}

void SeGroupUsageDataSource::ValidateConfig(
    const framework::ValidateDataSourceConfigRequest& request,
    framework::ValidateDataSourceConfigResponse& response) {
  const cty::Value& config = request.config;
  UsageQueryOf(config, cty::AttributePath(), response.diagnostics);
  if (StringAttr(config, "name").IsNull() && StringAttr(config, "id").IsNull()) {
    response.diagnostics.AddAttributeError(cty::AttributePath().Attribute("name"),
                                           "Missing SE group",
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
        action, "", group.status(), cty::AttributePath().Attribute(id.has_value() ? "id" : "name"));
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
      response.diagnostics.AddAttributeError(cty::AttributePath().Attribute("platform"),
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
  Json values = segroup::UsageReportJson(*report);
  if (values["recommendation"].is_object()) {
    // Only the attributes the schema has; workload keys with a null value are left out.
    Json& workload = values["recommendation"]["workload"];
    if (workload.is_object()) {
      for (auto it = workload.begin(); it != workload.end();) {
        it = it.value().is_number() ? std::next(it) : workload.erase(it);
      }
    }
  }
  values["id"] = group->uuid;
  values["name"] = group->name;
  values["platform"] = sizing::PlatformName(usage.platform);
  for (const segroup::Finding& f : report->findings) {
    response.diagnostics.AddWarning(absl::StrCat("SE group usage: ", f.finding.summary),
                                    segroup::FindingText(f));
  }

  const framework::Block& block = GetSchema().block;
  cty::Value state = response.state;
  for (const auto& [attribute, schema] : block.attributes) {
    auto member = values.find(attribute);
    if (member == values.end()) continue;
    // What the configuration sets stays as written ("24h" is not rewritten to "1d").
    if (schema.optional && !config.GetAttribute(attribute)->IsNull()) continue;
    absl::StatusOr<cty::Value> value = ReportAttribute(*member, schema.type);
    if (!value.ok()) {
      response.diagnostics.AddError(
          "Cannot record the usage report",
          framework::ErrorDetail(action,
                                 absl::StrCat("attribute ", attribute, ": ",
                                              value.status().message(), ". This is a bug."),
                                 ""));
      return;
    }
    state = state.WithAttribute(attribute, *std::move(value));
  }
  response.state = std::move(state);
}

}  // namespace nsxalb::provider
