// An SE group's fields as every front end manages them: the typed fields (Avi names), the
// `extra_fields` escape hatch and its checks, what a create or a read-modify-write update sends,
// which recommended fields the Controller's API version lacks, and how a group is found by name.
// In Avi's JSON terms; the provider converts its cty values, the desired-state command its input.
#ifndef NSXALB_PLUGIN_SEGROUP_FIELDS_H_
#define NSXALB_PLUGIN_SEGROUP_FIELDS_H_

#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "plugin/sizing/profiles.h"

namespace nsxalb::segroup {

// The Avi fields an SE group's typed settings name one-to-one, besides `name`: `description`, the
// sizing settings (SizingAttributeNames()) and the licence settings (LicenceAttributeNames()).
const std::vector<std::string>& TypedFieldNames();

// Fields `extra_fields` may not set, because a typed setting manages them: the typed fields,
// name, uuid, url, cloud_ref and tenant_ref.
bool IsManagedField(const std::string& name);

// Checks an `extra_fields` object: keys are catalog fields, none managed by a typed setting, with
// values the catalog accepts. Errors are InvalidArgument naming the key.
absl::Status CheckExtraFields(const nlohmann::json& extra_fields);

// Parses `extra_fields` text (a JSON object) and checks it as CheckExtraFields does.
absl::StatusOr<nlohmann::json> ParseExtraFields(const std::string& text);

// True when `actual` holds everything `given` says: equal scalars (numbers by value), objects
// with every given key covered (a null given key: absent or null), arrays of the same length
// covered element by element.
bool Covers(const nlohmann::json& given, const nlohmann::json& actual);

// The `extra_fields` value after a refresh: `prior_text` itself when `body` still holds every
// given key with the given value (Covers), otherwise a compact JSON object of the given keys
// with the Controller's values (null for a key the Controller no longer has), so that the next
// plan shows the drift.
std::string RefreshedExtraFields(const std::string& prior_text, const nlohmann::json& body);

// `fields` (a JSON document) as the text Terraform's jsonencode() writes for the same value:
// compact, object keys in byte order, numbers in plain decimal (30, 0.5, never 3e1), strings
// escaped as Go's encoding/json escapes them (<, > and & as \u003c, \u003e, \u0026). Text the
// provider puts in extra_fields has this form, so that the jsonencode({...}) that
// -generate-config-out writes from the state gives back the same string and plans no change.
std::string ExtraFieldsText(const nlohmann::json& fields);

// The fields of a Controller object (`body`) that an import or a move records in extra_fields:
// every field of the catalog that no attribute manages (IsManagedField) and that the Controller
// does not own (_last_modified), whose value differs from the catalog's default. A field with no
// default counts when it holds something other than its kind's zero value (null, false, 0, "",
// [] or {}: what an unset field of Avi's protobuf-defined objects reads as). A value the catalog
// would refuse in extra_fields (ValidateFieldValues) is left out, so that the configuration
// written from it validates. Fields the catalog does not know are left out too.
nlohmann::json NonDefaultUntypedFields(const nlohmann::json& body);

// The catalog's default of field `name` as JSON text ("120", "\"PLACEMENT_ALGO_PACKED\""), or
// "none" for a field without one: what a field removed from extra_fields returns to.
std::string CatalogDefaultText(const std::string& name);

// What a POST or PUT sends: the typed fields, then `extra` over them; on update, the keys of
// `prior_extra` (the extra_fields last applied) that `extra` no longer has are sent as null, so
// the Controller reverts them to their defaults.
nlohmann::json FieldsToSend(const nlohmann::json& typed, const nlohmann::json& extra,
                            const nlohmann::json& prior_extra = nlohmann::json::object());

// Of the `recommended` field names, those that are Avi fields newer than the API version the
// Controller speaks (hybrid_rss_mode needs 21.1.3), which it would refuse. On update
// (`present_before` set) a field is such a field when the group did not have it before; on
// create the version is `pinned_api_version` when set, else the Controller's (one login).
absl::StatusOr<std::set<std::string>> FieldsTheControllerLacks(
    controller::Client& client, const std::string& pinned_api_version,
    const std::set<std::string>& recommended, const std::set<std::string>* present_before);

// The sizing profile of a cloud: CLOUD_VCENTER is vcenter, CLOUD_NSXT is nsxt. Any other type is
// FailedPrecondition, naming the cloud and its type and asking for `platform` to be set.
absl::StatusOr<sizing::Platform> PlatformOfCloud(const controller::CloudInfo& cloud);

// Finds the group called `name` in `tenant` (empty: the client's) and `cloud` (empty: any
// cloud). NotFound names what was searched; when several clouds hold that name,
// FailedPrecondition lists them and says to write "<cloud>/<name>".
absl::StatusOr<controller::SeGroup> FindSeGroupByName(controller::Client& client,
                                                      const std::string& name,
                                                      const std::string& tenant,
                                                      const std::string& cloud);

}  // namespace nsxalb::segroup

#endif  // NSXALB_PLUGIN_SEGROUP_FIELDS_H_
