// nsxalb_se_group (data source).
#include "plugin/provider/se_group_data_source.h"

#include "absl/strings/str_cat.h"
#include "plugin/framework/attr.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/provider/controller_errors.h"
#include "plugin/provider/provider.h"
#include "plugin/provider/se_group_state.h"

namespace nsxalb::provider {
framework::Schema SeGroupDataSource::GetSchema() const {
  return EmbeddedDataSourceSchema(kSeGroupDataSourceType);
}

void SeGroupDataSource::Read(const framework::ReadDataSourceRequest& request,
                             framework::ReadDataSourceResponse& response) {
  const std::string name = framework::StringAttr(request.config, "name").value_or("");
  const std::string cloud = framework::StringAttr(request.config, "cloud").value_or("");
  const std::string tenant = framework::StringAttr(request.config, "tenant").value_or("");
  const std::string action = absl::StrCat("reading SE group \"", name, "\"");
  absl::StatusOr<std::shared_ptr<controller::Client>> client = provider_->Client();
  if (!client.ok()) {
    response.diagnostics.AddError(
        "No Controller configured",
        framework::ErrorDetail(action, std::string(client.status().message()), ""));
    return;
  }
  absl::StatusOr<controller::SeGroup> group =
      segroup::FindSeGroupByName(**client, name, tenant, cloud);
  if (!group.ok()) {
    AddControllerError(response.diagnostics,
                       group.status().code() == absl::StatusCode::kNotFound
                           ? "SE group not found"
                           : "Cannot read SE group",
                       action, "", group.status(), cty::AttributePath().Attribute("name"));
    return;
  }
  cty::Value state = WithGroup(GetSchema().block, response.state, *group, /*only_unknown=*/false);
  absl::StatusOr<cty::Value> placed = WithPlacement(**client, state, *group);
  if (!placed.ok()) {
    AddControllerError(response.diagnostics, "Cannot read SE group", action, "", placed.status());
    return;
  }
  response.state = *std::move(placed);
}

}  // namespace nsxalb::provider
