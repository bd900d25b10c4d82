// Conversion between the Controller's ServiceEngineGroup objects and the Terraform values of
// nsxalb_se_group (the resource and the data source): the typed Avi fields and the identity
// attributes. What the fields are and how extra_fields is checked is the domain's
// (plugin/segroup/fields.h).
#ifndef NSXALB_PLUGIN_PROVIDER_SE_GROUP_STATE_H_
#define NSXALB_PLUGIN_PROVIDER_SE_GROUP_STATE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "plugin/cty/value.h"
#include "plugin/framework/schema.h"
#include "plugin/segroup/fields.h"

namespace nsxalb::provider {

// The Avi field `name` of `body` as a value of `type` (string, number or bool); null when the
// body lacks it or holds another kind.
cty::Value FieldValue(const nlohmann::json& body, const std::string& name, const cty::Type& type);

// `state` (an object of `block`) with id, url, name and every typed field taken from `group`.
// With `only_unknown`, attributes already known in `state` are kept (after apply, where known
// planned values must stay as planned); otherwise every one is replaced (refresh, import).
cty::Value WithGroup(const framework::Block& block, const cty::Value& state,
                     const controller::SeGroup& group, bool only_unknown);

// The managed fields to send for a planned state: every typed attribute known and non-null in
// `planned`, and `description` as JSON null when it is null (so an update removes it).
nlohmann::json TypedFieldsToSend(const cty::Value& planned);

// The private data an import or a move leaves for the Read that follows it, asking that Read to
// record the group's non-default untyped fields in extra_fields (CapturedExtraFields). Read
// clears it, so only the first refresh after an import or a move captures.
inline constexpr char kCaptureExtraFieldsPrivate[] = "{\"capture_extra_fields\":true}";

// True when `private_data` is kCaptureExtraFieldsPrivate's request.
bool CapturesExtraFields(const std::string& private_data);

// The extra_fields value that records `fields` (a JSON object): null when it is empty, else its
// text as Terraform's jsonencode() writes it (segroup::ExtraFieldsText).
cty::Value CapturedExtraFields(const nlohmann::json& fields);

// `state` with `cloud`, `tenant` and `platform` filled from `group`'s refs where they are null
// (after import, and in the data source): names from the refs (one cached lookup per cloud or
// tenant), platform from the cloud's type (left null for a type without a profile).
absl::StatusOr<cty::Value> WithPlacement(controller::Client& client, const cty::Value& state,
                                         const controller::SeGroup& group);

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_SE_GROUP_STATE_H_
