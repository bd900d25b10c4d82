// The ServiceEngineGroup fields the emulated Controller knows: JSON kind, "introduced in"
// versions, swagger default and allowed values. The data (se_group_fields_data.cc) comes from
// the swagger of ServiceEngineGroup 30.2.1 as summarised in the project's reference notes.
//
// The emulator uses it to reject fields newer than the request's X-Avi-Version (400, like a
// Controller), to fill defaults into full reads, to omit them with skip_default=true, and to
// check types and ranges of the values it is sent. Unknown fields are not in the table; they are
// stored and returned unchanged.
#ifndef NSXALB_EMULATOR_SE_GROUP_FIELDS_H_
#define NSXALB_EMULATOR_SE_GROUP_FIELDS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "emulator/api_version.h"
#include "nlohmann/json.hpp"

namespace nsxalb::emulator {

// JSON kind of a field's value.
enum class FieldKind { kInteger, kNumber, kBoolean, kString, kArray, kObject };

// One row of the field table.
struct FieldInfo {
  const char* name;
  FieldKind kind;
  // Comma-separated versions ("17.2.12,18.1.3,18.2.1"); empty when present in every version.
  const char* introduced_in;
  // Swagger default as JSON text ("2048", "true", "\"Avi\""); empty when there is none.
  const char* default_json;
  // "lo-hi" or "a,b,c" for integers; empty when unrestricted.
  const char* allowed;
  // Comma-separated enum values for strings; empty when free text.
  const char* enum_values;
};

// Every known field (generated data).
const std::vector<FieldInfo>& SeGroupFields();

// The row for `name`, or nullptr for a field the table does not know.
const FieldInfo* FindSeGroupField(absl::string_view name);

// True when `name` is known and not available in `version` (so the Controller would reject it or
// leave it out of responses).
bool IsNewerThan(absl::string_view name, const ApiVersion& version);

// Checks every top-level key of `object` against `version`. The error is InvalidArgument with the
// Controller's text: "Incoming request (v18_2_8) has field (hybrid_rss_mode) introduced in later
// versions(v21_1_3)."
absl::Status CheckFieldsAvailable(const nlohmann::json& object, const ApiVersion& version);

// Checks the kinds, ranges and enum values of known fields in `object` for a Controller at
// `controller_version`. The error is InvalidArgument naming the field and the value.
absl::Status CheckFieldValues(const nlohmann::json& object, const ApiVersion& controller_version);

// The defaults of every field available in `version`, as one JSON object.
nlohmann::json DefaultsFor(const ApiVersion& version);

}  // namespace nsxalb::emulator

#endif  // NSXALB_EMULATOR_SE_GROUP_FIELDS_H_
