// The catalog of ServiceEngineGroup fields: for every field of the Controller's swagger (30.2.1),
// its JSON kind, the Controller version it was introduced in, the swagger default, allowed
// values or ranges, special values, enum values, unit and when a change takes effect on the
// group's running SEs.
// The rows are in se_group_fields_data.cc, generated from the vendor's swagger by
// scripts/gen-se-group-fields (docs/controller-fields.md says how); tests/controller checks them
// against facts transcribed separately from the vendor's model text.
//
// The one source of these facts for both sides of the API. The client uses it for the version
// gate (a field set by the caller but introduced after the API version in use is a
// FailedPrecondition error instead of a 400 from the Controller) and to check values before
// sending them. The Controller emulator uses it to reject fields newer than a request's
// X-Avi-Version, to check values and to fill defaults. Fields outside the catalog pass through
// unchecked.
#ifndef NSXALB_PLUGIN_CONTROLLER_SE_GROUP_FIELDS_H_
#define NSXALB_PLUGIN_CONTROLLER_SE_GROUP_FIELDS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/version.h"

namespace nsxalb::controller {

// JSON kind of a field's value.
enum class FieldKind { kString, kInteger, kNumber, kBoolean, kObject, kArray };

// When a change of a field reaches the SEs the group already runs (rule in
// scripts/gen-se-group-fields, from the vendor's descriptions; docs/controller-fields.md).
enum class TakesEffect {
  kImmediately,    // "immediately": the running SEs follow the change
  kNewSesOnly,     // "new-ses-only": only SEs created after the change have it
  kAfterSeReboot,  // "after-se-reboot": running SEs have it once they reboot
};

// "immediately", "new-ses-only" or "after-se-reboot".
const char* TakesEffectName(TakesEffect effect);

// One SE group field.
struct SeGroupField {
  std::string_view name;  // Avi field name, e.g. "vcpus_per_se"
  FieldKind kind;
  std::string_view introduced;     // "" (always), "21.1.3", or backports "17.2.12,18.1.3,18.2.1"
  std::string_view default_json;   // swagger default as JSON text ("2048", "\"Avi\""); "" if none
  std::string_view allowed;        // integers: "1-64" or "0,1,2,4,8,16"; "" when unconstrained
  std::string_view special;        // integers accepted outside `allowed` ("0" = disable, auto...)
  std::string_view allowed_since;  // Controller version that enforces `allowed`; "" (always)
  std::string_view enum_values;    // strings: comma-separated allowed values; "" when free text
  std::string_view unit;           // "MB", "GB", "PERCENT", "MIN", "SEC", ... or ""
  TakesEffect takes_effect;        // when a change reaches running SEs
};

// Every field, sorted by name.
const std::vector<SeGroupField>& SeGroupFields();

// The catalog entry for `name`, or nullptr for a field the catalog does not know.
const SeGroupField* FindSeGroupField(std::string_view name);

// The parsed "introduced in" versions of a catalog entry (parsed once).
const IntroducedIn& FieldIntroducedIn(const SeGroupField& field);

// How a change of `name` reaches running SEs: the catalog's class, kImmediately for a field the
// catalog does not know.
TakesEffect TakesEffectOf(std::string_view name);

// "a string", "an integer", "a number", "a boolean", "an object" or "a list", for error messages.
const char* KindName(FieldKind kind);

// True when `value` has JSON kind `kind` (an integer is also a number; 2.0 is not an integer).
bool HasKind(FieldKind kind, const nlohmann::json& value);

// True when the integer `value` is one of the field's special values: values the vendor's model
// documents as "Special values are N- 'meaning'", accepted although outside `allowed`.
bool IsSpecialValue(const SeGroupField& field, int64_t value);

// True when the integer `value` is within the field's `allowed` range or list, or is one of its
// special values (always true when the field has no `allowed`).
bool IntegerAllowed(const SeGroupField& field, int64_t value);

// What the field accepts, for error messages: "900-43200 SEC, or the special value 0",
// "0,1,2,4,8,16". Empty when the field has no `allowed`.
std::string DescribeAllowed(const SeGroupField& field);

// True when a Controller at `controller_version` enforces the field's `allowed` values (see
// allowed_since).
bool AllowedEnforcedIn(const SeGroupField& field, const ApiVersion& controller_version);

// True when `value` is one of the field's enum values (always true when the field has none).
bool EnumAllows(const SeGroupField& field, std::string_view value);

// Checks that every catalog field set in `fields` (a JSON object; null values mean "unset" and
// are skipped) exists in API version `in_use`. The error is FailedPrecondition naming the field,
// the version it needs and the version in use, e.g. "controller: hybrid_rss_mode needs Controller
// API version 21.1.3 or later; the API version in use is 20.1.6".
absl::Status CheckFieldsAvailable(const nlohmann::json& fields, const ApiVersion& in_use);

// Checks the kind, range (special values included) and allowed values of every catalog field set
// in `fields`. Errors are InvalidArgument naming the field and what is allowed.
absl::Status ValidateFieldValues(const nlohmann::json& fields);

}  // namespace nsxalb::controller

#endif  // NSXALB_PLUGIN_CONTROLLER_SE_GROUP_FIELDS_H_
