// Implementation of field_rules.h over the Controller client's field catalog.
#include "emulator/field_rules.h"

#include <cmath>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "plugin/common/status_macros.h"
#include "plugin/controller/se_group_fields.h"

namespace nsxalb::emulator {
namespace {

using ::nsxalb::controller::ApiVersion;
using ::nsxalb::controller::FieldKind;
using ::nsxalb::controller::SeGroupField;

const SeGroupField* Find(absl::string_view name) {
  return controller::FindSeGroupField(std::string_view(name.data(), name.size()));
}

// A Controller reads JSON numbers into protobuf fields, so 2.0 is a fine integer.
bool KindMatches(FieldKind kind, const nlohmann::json& v) {
  if (kind == FieldKind::kInteger && v.is_number_float()) {
    return std::floor(v.get<double>()) == v.get<double>();
  }
  return controller::HasKind(kind, v);
}

// Ranges and lists, with the field's special values (accepted although outside them, as the
// vendor's model documents: "Allowed values are 900-43200. Special values are 0- 'disable'.").
absl::Status CheckAllowed(const SeGroupField& f, const nlohmann::json& value) {
  if (f.allowed.empty() || !value.is_number_integer()) return absl::OkStatus();
  const long long v = value.get<long long>();
  if (controller::IntegerAllowed(f, v)) return absl::OkStatus();
  const std::string allowed(f.allowed);
  const std::string special =
      f.special.empty() ? "" : absl::StrCat(" Special values are ", std::string(f.special), ".");
  if (allowed.find(',') != std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat("Invalid value ", v, " for field ",
                                                   std::string(f.name), ": allowed values are ",
                                                   allowed, ".", special));
  }
  return absl::InvalidArgumentError(absl::StrCat("Value ", v, " of field ", std::string(f.name),
                                                 " is out of range [", allowed, "].", special));
}

}  // namespace

bool IsNewerThan(absl::string_view name, const ApiVersion& version) {
  const SeGroupField* f = Find(name);
  return f != nullptr && !controller::FieldIntroducedIn(*f).AvailableIn(version);
}

absl::Status CheckFieldVersions(const nlohmann::json& object, const ApiVersion& version) {
  if (!object.is_object()) return absl::OkStatus();
  for (auto it = object.begin(); it != object.end(); ++it) {
    const SeGroupField* f = Find(it.key());
    if (f == nullptr) continue;
    std::optional<ApiVersion> missing = controller::FieldIntroducedIn(*f).FirstMissing(version);
    if (missing.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Incoming request (", version.ToTag(), ") has field (", it.key(),
                       ") introduced in later versions(", missing->ToTag(), ")."));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckFieldValues(const nlohmann::json& object, const ApiVersion& controller_version) {
  if (!object.is_object()) return absl::InvalidArgumentError("Request body must be a JSON object.");
  for (auto it = object.begin(); it != object.end(); ++it) {
    const SeGroupField* f = Find(it.key());
    if (f == nullptr || it.value().is_null()) continue;
    if (!KindMatches(f->kind, it.value())) {
      return absl::InvalidArgumentError(
          absl::StrCat("Invalid value ", it.value().dump(), " for field ", std::string(f->name),
                       ": expected ", controller::KindName(f->kind), "."));
    }
    if (controller::AllowedEnforcedIn(*f, controller_version)) {
      NSXALB_RETURN_IF_ERROR(CheckAllowed(*f, it.value()));
    }
    if (f->kind == FieldKind::kString &&
        !controller::EnumAllows(*f, it.value().get<std::string>())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Invalid value \"", it.value().get<std::string>(), "\" for field ", std::string(f->name),
          ": allowed values are ", std::string(f->enum_values), "."));
    }
  }
  return absl::OkStatus();
}

nlohmann::json DefaultsFor(const ApiVersion& version) {
  // Rendering asks for the same few versions over and over; compute each once.
  static absl::Mutex mu(absl::kConstInit);
  static auto* const cache = new std::map<std::string, nlohmann::json>();
  const std::string key = version.ToString();
  {
    absl::MutexLock lock(&mu);
    auto it = cache->find(key);
    if (it != cache->end()) return it->second;
  }
  nlohmann::json out = nlohmann::json::object();
  for (const SeGroupField& f : controller::SeGroupFields()) {
    if (f.default_json.empty()) continue;
    if (!controller::FieldIntroducedIn(f).AvailableIn(version)) continue;
    out[std::string(f.name)] =
        nlohmann::json::parse(f.default_json.begin(), f.default_json.end(), nullptr, false);
  }
  absl::MutexLock lock(&mu);
  if (cache->size() < 64) (*cache)[key] = out;
  return out;
}

}  // namespace nsxalb::emulator
