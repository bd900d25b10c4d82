// How the emulated Controller applies the ServiceEngineGroup field catalog
// (plugin/controller/se_group_fields.h): it rejects fields newer than the request's X-Avi-Version
// (400, with the Controller's text), fills defaults into full reads, omits them with
// skip_default=true, and checks the types and ranges of the values it is sent, as a Controller
// of the configured version would. Fields the catalog does not know are stored and returned
// unchanged.
#ifndef NSXALB_EMULATOR_FIELD_RULES_H_
#define NSXALB_EMULATOR_FIELD_RULES_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/version.h"

namespace nsxalb::emulator {

// True when `name` is known and not available in `version` (so the Controller would reject it or
// leave it out of responses).
bool IsNewerThan(absl::string_view name, const controller::ApiVersion& version);

// Checks every top-level key of `object` against the request's `version`. The error is
// InvalidArgument with the Controller's text: "Incoming request (v18_2_8) has field
// (hybrid_rss_mode) introduced in later versions(v21_1_3)."
absl::Status CheckFieldVersions(const nlohmann::json& object,
                                const controller::ApiVersion& version);

// Checks the kinds, ranges (accepting the field's special values) and enum values of known fields
// in `object` for a Controller at `controller_version`. The error is InvalidArgument naming the
// field and the value, and the special values when the field has some.
absl::Status CheckFieldValues(const nlohmann::json& object,
                              const controller::ApiVersion& controller_version);

// The defaults of every field available in `version`, as one JSON object.
nlohmann::json DefaultsFor(const controller::ApiVersion& version);

}  // namespace nsxalb::emulator

#endif  // NSXALB_EMULATOR_FIELD_RULES_H_
