// nsxalb_cloud.
#include "plugin/provider/cloud_data_source.h"

#include "absl/strings/str_cat.h"
#include "plugin/framework/attr.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/provider/controller_errors.h"
#include "plugin/provider/provider.h"

namespace nsxalb::provider {

framework::Schema CloudDataSource::GetSchema() const {
  return EmbeddedDataSourceSchema(kCloudDataSourceType);
}

void CloudDataSource::Read(const framework::ReadDataSourceRequest& request,
                           framework::ReadDataSourceResponse& response) {
  const std::string name = framework::StringAttr(request.config, "name").value_or("");
  const std::string action = absl::StrCat("reading cloud \"", name, "\"");
  absl::StatusOr<std::shared_ptr<controller::Client>> client = provider_->Client();
  if (!client.ok()) {
    response.diagnostics.AddError(
        "No Controller configured",
        framework::ErrorDetail(action, std::string(client.status().message()), ""));
    return;
  }
  absl::StatusOr<controller::CloudInfo> cloud = (*client)->ResolveCloud(name);
  if (!cloud.ok()) {
    AddControllerError(response.diagnostics,
                       cloud.status().code() == absl::StatusCode::kNotFound ? "Cloud not found"
                                                                            : "Cannot read cloud",
                       action, "", cloud.status(), cty::AttributePath::Of("name"));
    return;
  }
  absl::StatusOr<sizing::Platform> platform = segroup::PlatformOfCloud(*cloud);
  response.state =
      response.state.WithAttribute("id", cty::Value::String(cloud->uuid))
          .WithAttribute("url", cty::Value::String(cloud->ref))
          .WithAttribute("vtype", cty::Value::String(cloud->vtype))
          .WithAttribute("platform", platform.ok()
                                         ? cty::Value::String(sizing::PlatformName(*platform))
                                         : cty::Value::Null(cty::Type::String()));
}

}  // namespace nsxalb::provider
