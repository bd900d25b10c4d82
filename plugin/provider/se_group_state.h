// Conversion between the Controller's ServiceEngineGroup objects and the Terraform values of
// nsxalb_se_group (the resource and the data source): the typed Avi fields, the identity
// attributes, and `extra_fields`, whose drift is judged on the keys the user gave only.
#ifndef NSXALB_PLUGIN_PROVIDER_SE_GROUP_STATE_H_
#define NSXALB_PLUGIN_PROVIDER_SE_GROUP_STATE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "plugin/cty/value.h"
#include "plugin/framework/schema.h"

namespace nsxalb::provider {

// The Avi fields nsxalb_se_group types one-to-one, besides `name`: `description` and the sizing
// attributes (SizingAttributeNames()).
const std::vector<std::string>& TypedFieldNames();

// Fields `extra_fields` may not set, because an attribute of the resource manages them: the
// typed fields, name, uuid, url, cloud_ref and tenant_ref.
bool IsManagedField(const std::string& name);

// The Avi field `name` of `body` as a value of `type` (string, number or bool); null when the
// body lacks it or holds another kind.
cty::Value FieldValue(const nlohmann::json& body, const std::string& name, const cty::Type& type);

// The JSON form of a known primitive value (string, number or bool); JSON null for a null.
nlohmann::json JsonOf(const cty::Value& value);

// `state` (an object of `block`) with id, url, name and every typed field taken from `group`.
// With `only_unknown`, attributes already known in `state` are kept (after apply, where known
// planned values must stay as planned); otherwise every one is replaced (refresh, import).
cty::Value WithGroup(const framework::Block& block, const cty::Value& state,
                     const controller::SeGroup& group, bool only_unknown);

// The managed fields to send for a planned state: every typed attribute known and non-null in
// `planned`, and `description` as JSON null when it is null (so an update removes it).
nlohmann::json TypedFieldsToSend(const cty::Value& planned);

// Parses `extra_fields` text: a JSON object whose keys are catalog fields, none managed by a
// typed attribute, with values the catalog accepts. Errors are InvalidArgument naming the key.
absl::StatusOr<nlohmann::json> ParseExtraFields(const std::string& text);

// The `extra_fields` value after a refresh: `prior_text` itself when `body` still holds every
// given key with the given value (numbers compared by value, objects on the given keys only),
// otherwise a compact JSON object of the given keys with the Controller's values (null for a
// key the Controller no longer has), so that the next plan shows the drift.
std::string RefreshedExtraFields(const std::string& prior_text, const nlohmann::json& body);

// Finds the group called `name` in `tenant` (empty: the provider's) and `cloud` (empty: any
// cloud). NotFound names what was searched; when several clouds hold that name,
// FailedPrecondition lists them and says to write "<cloud>/<name>".
absl::StatusOr<controller::SeGroup> FindSeGroupByName(controller::Client& client,
                                                      const std::string& name,
                                                      const std::string& tenant,
                                                      const std::string& cloud);

// `state` with `cloud`, `tenant` and `platform` filled from `group`'s refs where they are null
// (after import, and in the data source): names from the refs (one cached lookup per cloud or
// tenant), platform from the cloud's type (left null for a type without a profile).
absl::StatusOr<cty::Value> WithPlacement(controller::Client& client, const cty::Value& state,
                                         const controller::SeGroup& group);

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_SE_GROUP_STATE_H_
