// nsxalb_license_usage.
#include "plugin/provider/license_usage_data_source.h"

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "plugin/cty/json.h"
#include "plugin/framework/attr.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/provider/controller_errors.h"
#include "plugin/provider/provider.h"
#include "plugin/segroup/license_check.h"

namespace nsxalb::provider {

framework::Schema LicenseUsageDataSource::GetSchema() const {
  return EmbeddedDataSourceSchema(kLicenseUsageDataSourceType);
}

void LicenseUsageDataSource::Read(const framework::ReadDataSourceRequest& request,
                                  framework::ReadDataSourceResponse& response) {
  const std::string tenant = framework::StringAttr(request.config, "tenant").value_or("");
  const std::string action =
      tenant.empty() ? std::string("reading the licence usage")
                     : absl::StrCat("reading the licence usage of tenant \"", tenant, "\"");
  absl::StatusOr<std::shared_ptr<controller::Client>> client = provider_->Client();
  if (!client.ok()) {
    response.diagnostics.AddError(
        "No Controller configured",
        framework::ErrorDetail(action, std::string(client.status().message()), ""));
    return;
  }
  absl::StatusOr<segroup::LicenseUsage> usage =
      segroup::ReadLicenseUsage(**client, provider_->license_ledger(), tenant);
  if (!usage.ok()) {
    AddControllerError(response.diagnostics, "Cannot read the licence usage", action, "",
                       usage.status());
    return;
  }
  const framework::Block& block = GetSchema().block;
  const nlohmann::json json = segroup::LicenseUsageJson(*usage);
  cty::Value state = response.state;
  for (const char* name : {"tiers", "se_groups"}) {
    absl::StatusOr<cty::Value> value =
        cty::DecodeJson(json[name].dump(), block.attributes.at(name).type);
    if (!value.ok()) {
      response.diagnostics.AddError(
          "Cannot record the licence usage",
          absl::StrCat(name, ": ", value.status().message(), " (a provider bug)"));
      return;
    }
    state = std::move(state).WithAttribute(name, *std::move(value));
  }
  response.state = std::move(state);
}

}  // namespace nsxalb::provider
