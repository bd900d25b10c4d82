// nsxalb_se_group (data source).
#include "plugin/provider/se_group_data_source.h"

#include "absl/strings/str_cat.h"
#include "plugin/cty/json.h"
#include "plugin/framework/attr.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/provider/controller_errors.h"
#include "plugin/provider/provider.h"
#include "plugin/provider/se_group_state.h"
#include "plugin/segroup/lifecycle/ses_view.h"

namespace nsxalb::provider {
namespace {

namespace lc = ::nsxalb::segroup::lifecycle;

// `state` with service_engines and ses_behind_settings: the group's SEs from the provider's shared
// listing of the tenant's SEs, matched against the group's settings as read. A failed listing
// leaves them null with a warning (an error when Terraform is stopping).
cty::Value WithRunningSes(NsxalbProvider& provider, const framework::Block& block,
                          controller::Client& client, const std::string& tenant,
                          const controller::SeGroup& group, cty::Value state,
                          framework::Diagnostics& diagnostics) {
  absl::StatusOr<std::vector<lc::RunningSe>> ses =
      provider.se_listing().GroupSes(client, tenant, group.uuid);
  if (!ses.ok()) {
    const std::string detail = framework::ErrorDetail(
        absl::StrCat("listing the Service Engines of SE group \"", group.name, "\""),
        std::string(ses.status().message()), "");
    const cty::AttributePath at = cty::AttributePath::Of("service_engines");
    if (ses.status().code() == absl::StatusCode::kCancelled) {
      diagnostics.AddAttributeError(at, "Running SEs not read", detail);
    } else {
      diagnostics.AddAttributeWarning(at, "Running SEs not read", detail);
    }
    return state;
  }
  const lc::GroupSes matched = lc::MatchSettings(*std::move(ses), group.body, lc::RebootWait{});
  absl::StatusOr<cty::Value> list = cty::DecodeJson(lc::RunningSesJson(matched).dump(),
                                                    block.attributes.at("service_engines").type);
  if (!list.ok()) {
    diagnostics.AddError("Cannot record the running SEs",
                         absl::StrCat(list.status().message(), ". This is a bug."));
    return state;
  }
  return std::move(state)
      .WithAttribute("service_engines", *std::move(list))
      .WithAttribute("ses_behind_settings",
                     cty::Value::Int(static_cast<int64_t>(matched.lagging.size())));
}

}  // namespace

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
                       action, "", group.status(), cty::AttributePath::Of("name"));
    return;
  }
  cty::Value state = WithGroup(GetSchema().block, response.state, *group, /*only_unknown=*/false);
  absl::StatusOr<cty::Value> placed = WithPlacement(**client, state, *group);
  if (!placed.ok()) {
    AddControllerError(response.diagnostics, "Cannot read SE group", action, "", placed.status());
    return;
  }
  response.state = WithRunningSes(*provider_, GetSchema().block, **client, tenant, *group,
                                  *std::move(placed), response.diagnostics);
}

}  // namespace nsxalb::provider
