// Taking over SE groups from the vendor's provider: `moved { from = avi_serviceenginegroup.x
// to = nsxalb_se_group.x }` (MoveResourceState, Terraform 1.8 and later). The state of
// registry.terraform.io/vmware/avi's avi_serviceenginegroup (schema version 0, both release
// lines: the 20.1.x line stores numbers and bools natively, the current line stores every scalar
// as a string, "" for unset) becomes an nsxalb_se_group state without the Controller: id is the
// group's uuid (`uuid`, else the last segment of the `id` URL), url the `id` URL, name and every
// typed field (TypedFieldNames) from the same-named Avi attribute. cloud, tenant and platform are
// left null: the refresh that follows the move fills them from the group's refs (the uuids at the
// end of cloud_ref and tenant_ref), as after an import. The source's scalars that no typed
// attribute manages and that differ from the catalog's defaults go to extra_fields
// (segroup::NonDefaultUntypedFields), and the refresh after the move records them again from the
// Controller, nested objects included (kCaptureExtraFieldsPrivate). Docs:
// docs/migrating-from-avi.md.
#ifndef NSXALB_PLUGIN_PROVIDER_SE_GROUP_MOVE_H_
#define NSXALB_PLUGIN_PROVIDER_SE_GROUP_MOVE_H_

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "plugin/cty/value.h"
#include "plugin/framework/schema.h"

namespace nsxalb::provider {

// The source a move may come from, besides nsxalb_se_group itself.
inline constexpr char kAviProviderAddress[] = "registry.terraform.io/vmware/avi";
inline constexpr char kAviSeGroupType[] = "avi_serviceenginegroup";

// The nsxalb_se_group state (an object of `block`, wholly known) for the avi_serviceenginegroup
// state `json` written with schema version `version`. InvalidArgument naming the attribute for a
// state this code cannot read (no uuid, a value of neither accepted shape, a ref that does not
// end in a uuid); FailedPrecondition for a schema version other than 0.
absl::StatusOr<cty::Value> StateFromAviSeGroup(const framework::Block& block, int64_t version,
                                               std::string_view json);

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_SE_GROUP_MOVE_H_
