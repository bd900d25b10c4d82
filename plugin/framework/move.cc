// The engine's MoveResourceState: a move between versions of one of this provider's types goes
// through UpgradeResourceState; any other source goes to the target resource's MoveState.
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "plugin/framework/provider_server.h"
#include "plugin/framework/resource_with_move_state.h"
#include "plugin/framework/value_util.h"

namespace nsxalb::framework {
namespace {

// True when `address` names the provider Terraform implies for `type_name`: its last segment is
// the type name's prefix ("registry.terraform.io/nsxalb/nsxalb" for "nsxalb_se_group").
bool IsImpliedProvider(const std::string& address, const std::string& type_name) {
  const size_t underscore = type_name.find('_');
  if (underscore == std::string::npos) return false;
  return absl::EndsWith(address, absl::StrCat("/", type_name.substr(0, underscore)));
}

}  // namespace

MoveResourceStateResult ProviderServer::MoveResourceState(const MoveStateRequest& request,
                                                          const std::string& target_type_name) {
  MoveResourceStateResult result;
  const Schema* schema = nullptr;
  std::unique_ptr<Resource> resource = NewResource(target_type_name, &schema, result.diagnostics);
  if (resource == nullptr) return result;
  const cty::Type type = ImpliedType(schema->block);
  result.target_state = cty::Value::Null(type);

  if (request.source_type_name == target_type_name &&
      IsImpliedProvider(request.source_provider_address, target_type_name)) {
    UpgradeResourceStateResult upgraded = UpgradeResourceState(
        target_type_name, request.source_schema_version, request.source_state_json);
    result.diagnostics.Append(upgraded.diagnostics);
    if (!result.diagnostics.HasError()) {
      result.target_state = std::move(upgraded.upgraded_state);
      result.target_private = request.source_private;
    }
    return result;
  }

  auto* mover = dynamic_cast<ResourceWithMoveState*>(resource.get());
  if (mover == nullptr) {
    result.diagnostics.AddError(
        "Unable to move resource state",
        absl::StrCat("The resource type ", target_type_name, " cannot take over ",
                     request.source_type_name, " of ", request.source_provider_address,
                     ": it accepts moves only from ", target_type_name, " itself."));
    return result;
  }
  MoveStateResponse response;
  response.target_state = EmptyObject(schema->block);
  mover->MoveState(request, response);
  result.diagnostics.Append(response.diagnostics);
  if (result.diagnostics.HasError()) return result;
  if (response.target_state.IsNull()) {
    result.diagnostics.AddError("Unable to move resource state",
                                absl::StrCat("The resource returned no state for ",
                                             target_type_name, ". This is a bug in the provider."));
    return result;
  }
  if (absl::Status s = cty::CheckConformance(response.target_state, type); !s.ok()) {
    result.diagnostics.AddStatusError(
        "Provider produced invalid object",
        absl::StrCat("The moved state does not conform to the schema of ", target_type_name, ": ",
                     s.message(), ". This is a bug in the provider."),
        s);
    return result;
  }
  if (auto unknown = FirstUnknown(response.target_state)) {
    result.diagnostics.AddAttributeError(
        *unknown, "Provider produced invalid object",
        absl::StrCat("The moved state of ", target_type_name, " has an unknown value at ",
                     unknown->ToString(), ". This is a bug in the provider."));
    return result;
  }
  result.target_state = NormalizeBlocks(schema->block, response.target_state);
  result.target_private = std::move(response.target_private);
  return result;
}

}  // namespace nsxalb::framework
