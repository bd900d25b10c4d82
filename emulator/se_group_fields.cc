// Lookups and checks over the ServiceEngineGroup field table.
#include "emulator/se_group_fields.h"

#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"

namespace nsxalb::emulator {
namespace {

struct IndexedField {
  const FieldInfo* info;
  std::vector<ApiVersion> introduced;
};

const std::map<std::string, IndexedField, std::less<>>& Index() {
  static const auto* const kIndex = [] {
    auto* index = new std::map<std::string, IndexedField, std::less<>>();
    for (const FieldInfo& f : SeGroupFields()) {
      absl::StatusOr<std::vector<ApiVersion>> versions = ParseIntroducedIn(f.introduced_in);
      // The table is fixed data; a bad row would be a bug caught by the unit tests.
      (*index)[f.name] = IndexedField{&f, versions.ok() ? *versions : std::vector<ApiVersion>{}};
    }
    return index;
  }();
  return *kIndex;
}

// memory_per_se has a documented range only from 30.1 on; older Controllers accept any value.
bool RangeApplies(absl::string_view name, const ApiVersion& controller_version) {
  if (name == "memory_per_se") return !(controller_version < ApiVersion{30, 1, 0});
  return true;
}

absl::Status CheckAllowed(const FieldInfo& f, const nlohmann::json& value) {
  std::string allowed = f.allowed;
  if (allowed.empty() || !value.is_number_integer()) return absl::OkStatus();
  const long long v = value.get<long long>();
  if (allowed.find(',') != std::string::npos) {
    for (absl::string_view option : absl::StrSplit(allowed, ',')) {
      long long o = 0;
      if (absl::SimpleAtoi(option, &o) && o == v) return absl::OkStatus();
    }
    return absl::InvalidArgumentError(absl::StrCat("Invalid value ", v, " for field ", f.name,
                                                   ": allowed values are ", allowed, "."));
  }
  std::vector<std::string> bounds = absl::StrSplit(allowed, '-');
  long long lo = 0;
  long long hi = 0;
  if (bounds.size() == 2 && absl::SimpleAtoi(bounds[0], &lo) && absl::SimpleAtoi(bounds[1], &hi) &&
      (v < lo || v > hi)) {
    return absl::InvalidArgumentError(
        absl::StrCat("Value ", v, " of field ", f.name, " is out of range [", lo, "-", hi, "]."));
  }
  return absl::OkStatus();
}

const char* KindName(FieldKind kind) {
  switch (kind) {
    case FieldKind::kInteger:
      return "an integer";
    case FieldKind::kNumber:
      return "a number";
    case FieldKind::kBoolean:
      return "a boolean";
    case FieldKind::kString:
      return "a string";
    case FieldKind::kArray:
      return "a list";
    case FieldKind::kObject:
      return "an object";
  }
  return "a value";
}

bool KindMatches(FieldKind kind, const nlohmann::json& v) {
  switch (kind) {
    case FieldKind::kInteger:
      return v.is_number_integer() ||
             (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>());
    case FieldKind::kNumber:
      return v.is_number();
    case FieldKind::kBoolean:
      return v.is_boolean();
    case FieldKind::kString:
      return v.is_string();
    case FieldKind::kArray:
      return v.is_array();
    case FieldKind::kObject:
      return v.is_object();
  }
  return false;
}

}  // namespace

const FieldInfo* FindSeGroupField(absl::string_view name) {
  auto it = Index().find(name);
  return it == Index().end() ? nullptr : it->second.info;
}

bool IsNewerThan(absl::string_view name, const ApiVersion& version) {
  auto it = Index().find(name);
  if (it == Index().end()) return false;
  return FirstMissingVersion(it->second.introduced, version).has_value();
}

absl::Status CheckFieldsAvailable(const nlohmann::json& object, const ApiVersion& version) {
  if (!object.is_object()) return absl::OkStatus();
  for (auto it = object.begin(); it != object.end(); ++it) {
    auto found = Index().find(it.key());
    if (found == Index().end()) continue;
    absl::optional<ApiVersion> missing = FirstMissingVersion(found->second.introduced, version);
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
    const FieldInfo* f = FindSeGroupField(it.key());
    if (f == nullptr || it.value().is_null()) continue;
    if (!KindMatches(f->kind, it.value())) {
      return absl::InvalidArgumentError(absl::StrCat("Invalid value ", it.value().dump(),
                                                     " for field ", f->name, ": expected ",
                                                     KindName(f->kind), "."));
    }
    if (RangeApplies(it.key(), controller_version)) {
      absl::Status s = CheckAllowed(*f, it.value());
      if (!s.ok()) return s;
    }
    std::string enums = f->enum_values;
    if (!enums.empty() && f->kind == FieldKind::kString) {
      std::set<std::string> options = absl::StrSplit(enums, ',');
      if (options.count(it.value().get<std::string>()) == 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("Invalid value \"", it.value().get<std::string>(), "\" for field ",
                         f->name, ": allowed values are ", enums, "."));
      }
    }
  }
  return absl::OkStatus();
}

nlohmann::json DefaultsFor(const ApiVersion& version) {
  // Rendering asks for the same few versions over and over; compute each once.
  static absl::Mutex mu(absl::kConstInit);
  static auto* const cache = new std::map<std::tuple<int, int, int>, nlohmann::json>();
  const auto key = std::make_tuple(version.major, version.minor, version.patch);
  {
    absl::MutexLock lock(&mu);
    auto it = cache->find(key);
    if (it != cache->end()) return it->second;
  }
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [name, field] : Index()) {
    if (field.info->default_json[0] == '\0') continue;
    if (FirstMissingVersion(field.introduced, version).has_value()) continue;
    out[name] = nlohmann::json::parse(field.info->default_json, nullptr, false);
  }
  absl::MutexLock lock(&mu);
  if (cache->size() < 64) (*cache)[key] = out;
  return out;
}

}  // namespace nsxalb::emulator
