// The nsxalb_se_group resource: a Service Engine group on the Controller, sized for a declared
// workload.
//
// Validate (no Controller) reports the sizing model's findings at their attributes when
// `platform` is set, under-sizing aside; plan fills unset sizing attributes with the model's
// recommendation as known values, derives `platform` from the cloud's type when unset, and
// reports what validate could not, under-sizing always (see docs/design/se-group-resource.md:
// every finding is reported from one place only; the enforce gate).
// Apply is one POST (create), one read-modify-write PUT (update) or one DELETE; refresh is one
// GET by uuid. Refresh and update also read the group's running SEs (`service_engines`) from the
// provider's one shared listing of the tenant's SEs, and plan warns ses-behind-settings while an
// SE lags (se_group_running_ses.h). Import takes a uuid, a name, or cloud/name.
#ifndef NSXALB_PLUGIN_PROVIDER_SE_GROUP_RESOURCE_H_
#define NSXALB_PLUGIN_PROVIDER_SE_GROUP_RESOURCE_H_

#include "plugin/framework/resource.h"
#include "plugin/framework/resource_with_import_state.h"
#include "plugin/framework/resource_with_modify_plan.h"
#include "plugin/framework/resource_with_move_state.h"
#include "plugin/framework/resource_with_upgrade_state.h"
#include "plugin/framework/resource_with_validate_config.h"

namespace nsxalb::provider {

class NsxalbProvider;

// The resource type name.
inline constexpr char kSeGroupResourceType[] = "nsxalb_se_group";

// One instance per request; `provider` outlives it.
class SeGroupResource : public framework::Resource,
                        public framework::ResourceWithValidateConfig,
                        public framework::ResourceWithModifyPlan,
                        public framework::ResourceWithImportState,
                        public framework::ResourceWithMoveState,
                        public framework::ResourceWithUpgradeState {
 public:
  explicit SeGroupResource(NsxalbProvider* provider) : provider_(provider) {}

  // provider_schema/resources/nsxalb_se_group.json.
  framework::Schema GetSchema() const override;
  // Checks sizing_policy, platform and extra_fields, and the sizing model's findings when the
  // platform is set, but never under-sizing (demand-within-capacity), which is plan's: Terraform
  // validates before every plan, a destroy's included. Unknown values are skipped.
  void ValidateConfig(const framework::ValidateResourceConfigRequest& request,
                      framework::ValidateResourceConfigResponse& response) override;
  // Defaults cloud and tenant, derives platform, plans the recommendation and the `sizing`
  // object, and reports the findings validate left to plan. Under sizing_policy = "enforce",
  // under-sizing is an error only when the plan creates the group or changes it (planned state
  // differs from prior); a plan that leaves it unchanged (a change to another resource), and any
  // plan in a process a destroy started (the refresh plan that begins it, whatever the
  // configuration says; NsxalbProvider::destroy_run), gets a warning.
  void ModifyPlan(const framework::ModifyPlanRequest& request,
                  framework::ModifyPlanResponse& response) override;
  // One POST of the planned values.
  void Create(const framework::CreateRequest& request,
              framework::CreateResponse& response) override;
  // One GET by uuid; a 404 removes the resource from state.
  void Read(const framework::ReadRequest& request, framework::ReadResponse& response) override;
  // One read-modify-write PUT that keeps every field the resource does not manage.
  void Update(const framework::UpdateRequest& request,
              framework::UpdateResponse& response) override;
  // One DELETE; a group already gone is success; Default-Group is refused.
  void Delete(const framework::DeleteRequest& request,
              framework::DeleteResponse& response) override;
  // IDs: "<uuid>", "<name>" (in the provider's tenant, any cloud) or "<cloud>/<name>".
  void ImportState(const framework::ImportStateRequest& request,
                   framework::ImportStateResponse& response) override;
  // `moved` from vmware/avi's avi_serviceenginegroup (se_group_move.h; defined in
  // se_group_move.cc); no Controller. Any other source is an error naming what is accepted.
  void MoveState(const framework::MoveStateRequest& request,
                 framework::MoveStateResponse& response) override;
  // State written by an earlier schema version (se_group_upgrade.h; defined in
  // se_group_upgrade.cc); no Controller.
  void UpgradeState(const framework::UpgradeStateRequest& request,
                    framework::UpgradeStateResponse& response) override;

 private:
  NsxalbProvider* provider_;
};

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_SE_GROUP_RESOURCE_H_
