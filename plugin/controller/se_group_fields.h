// The catalog of Service Engine group fields the provider manages: JSON kind, the Controller
// version each field was introduced in, and allowed values or ranges where the swagger gives
// them (facts from docs/reference avi-se-group-fields.md, swagger 30.2.1).
//
// The client uses it for the version gate (a field set by the caller but introduced after the API
// version in use is a FailedPrecondition error instead of a 400 from the Controller) and to
// check values before sending them. Fields outside the catalog pass through unchecked.
#ifndef NSXALB_PLUGIN_CONTROLLER_SE_GROUP_FIELDS_H_
#define NSXALB_PLUGIN_CONTROLLER_SE_GROUP_FIELDS_H_

#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/version.h"

namespace nsxalb::controller {

// JSON kind of a field's value.
enum class FieldKind { kString, kInteger, kNumber, kBoolean, kObject, kArray };

// One managed SE group field.
struct SeGroupField {
  std::string_view name;  // Avi field name, e.g. "vcpus_per_se"
  FieldKind kind;
  std::string_view introduced;   // "" (always), "21.1.3", or backports "17.2.12,18.1.3,18.2.1"
  std::string_view allowed;      // integers: "1-64" or "0,1,2,4,8,16"; "" when unconstrained
  std::string_view enum_values;  // strings: comma-separated allowed values; "" when free text
  std::string_view unit;         // "MB", "GB", "PERCENT", "MIN", "SEC", or ""
  bool requires_reboot;          // changes apply to existing SEs only after a reboot
};

// Every managed field, sorted by name.
const std::vector<SeGroupField>& SeGroupFields();

// The catalog entry for `name`, or nullptr when the provider does not manage it.
const SeGroupField* FindSeGroupField(std::string_view name);

// Checks that every catalog field set in `fields` (a JSON object; null values mean "unset" and
// are skipped) exists in API version `in_use`. The error is FailedPrecondition naming the field,
// the version it needs and the version in use, e.g. "controller: hybrid_rss_mode needs Controller
// API version 21.1.3 or later; the API version in use is 20.1.6".
absl::Status CheckFieldsAvailable(const nlohmann::json& fields, const ApiVersion& in_use);

// Checks the kind, range and allowed values of every catalog field set in `fields`. Errors are
// InvalidArgument naming the field and what is allowed.
absl::Status ValidateFieldValues(const nlohmann::json& fields);

}  // namespace nsxalb::controller

#endif  // NSXALB_PLUGIN_CONTROLLER_SE_GROUP_FIELDS_H_
