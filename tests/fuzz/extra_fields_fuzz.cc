// libFuzzer entry point for `extra_fields` (plugin/segroup/fields.h): ParseExtraFields,
// which checks the user's JSON at validate, plan and apply, and RefreshedExtraFields, which
// compares it with the Controller's object after a refresh.
//
// Input: the `extra_fields` text, optionally followed by a NUL byte and the Controller's object
// as JSON (without it, the parsed text itself plays the Controller's object). Contract:
// - ParseExtraFields gives a JSON object of catalog fields, none managed by a typed attribute,
//   or InvalidArgument starting with "extra_fields";
// - a Controller object that holds exactly the given fields shows no drift (the text is kept);
// - otherwise the refreshed text is a JSON object with exactly the given keys, and refreshing it
//   again against the same object is stable (no drift reported twice);
// - the fields an import records from the Controller's object (NonDefaultUntypedFields, as
//   ExtraFieldsText) parse back as the same object, pass ParseExtraFields, and show no drift
//   against that object.
// A violation aborts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/response.h"
#include "plugin/controller/se_group_fields.h"
#include "plugin/segroup/fields.h"

namespace {

using Json = nlohmann::json;

void Check(bool ok) {
  if (!ok) std::abort();
}

std::set<std::string> Keys(const Json& object) {
  std::set<std::string> keys;
  for (auto it = object.begin(); it != object.end(); ++it) keys.insert(it.key());
  return keys;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t nul = input.find('\0');
  const std::string text(input.substr(0, nul));

  absl::StatusOr<Json> fields = nsxalb::segroup::ParseExtraFields(text);
  if (fields.ok()) {
    Check(fields->is_object());
    for (auto it = fields->begin(); it != fields->end(); ++it) {
      Check(!nsxalb::segroup::IsManagedField(it.key()));
      Check(nsxalb::controller::FindSeGroupField(it.key()) != nullptr);
    }
    // The Controller kept every field as given: no drift.
    Check(nsxalb::segroup::RefreshedExtraFields(text, *fields) == text);
  } else {
    Check(fields.status().code() == absl::StatusCode::kInvalidArgument);
    Check(absl::StartsWith(fields.status().message(), "extra_fields"));
  }

  if (nul == std::string_view::npos) return 0;
  absl::StatusOr<Json> body = nsxalb::controller::ParseJsonLimited(input.substr(nul + 1));
  if (!body.ok()) return 0;
  // What an import records from that object reads back as itself, passes the checks a written
  // extra_fields gets, and shows no drift against the object it came from.
  const Json captured = nsxalb::segroup::NonDefaultUntypedFields(*body);
  const std::string captured_text = nsxalb::segroup::ExtraFieldsText(captured);
  absl::StatusOr<Json> reread = nsxalb::segroup::ParseExtraFields(captured_text);
  Check(reread.ok());
  Check(nsxalb::segroup::Covers(*reread, captured) && nsxalb::segroup::Covers(captured, *reread));
  Check(nsxalb::segroup::RefreshedExtraFields(captured_text, *body) == captured_text);
  const std::string refreshed = nsxalb::segroup::RefreshedExtraFields(text, *body);
  if (refreshed == text) return 0;
  absl::StatusOr<Json> given = nsxalb::controller::ParseJsonLimited(text);
  absl::StatusOr<Json> drift = nsxalb::controller::ParseJsonLimited(refreshed);
  Check(given.ok() && given->is_object());
  Check(drift.ok() && drift->is_object());
  Check(Keys(*drift) == Keys(*given));
  Check(nsxalb::segroup::RefreshedExtraFields(refreshed, *body) == refreshed);
  return 0;
}
