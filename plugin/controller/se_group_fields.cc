// Implementation of se_group_fields.h (the catalog rows are in se_group_fields_data.cc).
#include "plugin/controller/se_group_fields.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "plugin/common/status_macros.h"
#include "plugin/controller/absl_view.h"

namespace nsxalb::controller {
namespace {

using K = FieldKind;

using internal::AbslView;

bool InList(std::string_view list, std::string_view value) {
  for (absl::string_view item : absl::StrSplit(AbslView(list), ',')) {
    if (std::string_view(item.data(), item.size()) == value) return true;
  }
  return false;
}

absl::Status ValueError(const SeGroupField& f, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat("controller: ", AbslView(f.name), " ", why));
}

}  // namespace

const SeGroupField* FindSeGroupField(std::string_view name) {
  const auto& all = SeGroupFields();
  auto it = std::lower_bound(all.begin(), all.end(), name,
                             [](const SeGroupField& f, std::string_view n) { return f.name < n; });
  if (it == all.end() || it->name != name) return nullptr;
  return &*it;
}

const IntroducedIn& FieldIntroducedIn(const SeGroupField& field) {
  static const auto* const kParsed = [] {
    auto* parsed = new std::vector<IntroducedIn>();
    for (const SeGroupField& f : SeGroupFields()) {
      // The catalog is fixed data; a bad row is a bug the unit tests catch.
      absl::StatusOr<IntroducedIn> in = IntroducedIn::Parse(f.introduced);
      parsed->push_back(in.ok() ? *std::move(in) : IntroducedIn());
    }
    return parsed;
  }();
  return (*kParsed)[static_cast<size_t>(&field - SeGroupFields().data())];
}

const char* TakesEffectName(TakesEffect effect) {
  switch (effect) {
    case TakesEffect::kNewSesOnly:
      return "new-ses-only";
    case TakesEffect::kAfterSeReboot:
      return "after-se-reboot";
    case TakesEffect::kImmediately:
      break;
  }
  return "immediately";
}

TakesEffect TakesEffectOf(std::string_view name) {
  const SeGroupField* field = FindSeGroupField(name);
  return field == nullptr ? TakesEffect::kImmediately : field->takes_effect;
}

const char* KindName(FieldKind kind) {
  switch (kind) {
    case K::kString:
      return "a string";
    case K::kInteger:
      return "an integer";
    case K::kNumber:
      return "a number";
    case K::kBoolean:
      return "a boolean";
    case K::kObject:
      return "an object";
    case K::kArray:
      return "a list";
  }
  return "a value";
}

bool HasKind(FieldKind kind, const nlohmann::json& value) {
  switch (kind) {
    case K::kString:
      return value.is_string();
    case K::kInteger:
      return value.is_number_integer();
    case K::kNumber:
      return value.is_number();
    case K::kBoolean:
      return value.is_boolean();
    case K::kObject:
      return value.is_object();
    case K::kArray:
      return value.is_array();
  }
  return false;
}

bool IsSpecialValue(const SeGroupField& field, int64_t value) {
  for (absl::string_view item : absl::StrSplit(AbslView(field.special), ',', absl::SkipEmpty())) {
    int64_t x = 0;
    if (absl::SimpleAtoi(item, &x) && x == value) return true;
  }
  return false;
}

bool IntegerAllowed(const SeGroupField& field, int64_t value) {
  std::string spec(field.allowed);
  if (spec.empty() || IsSpecialValue(field, value)) return true;
  if (spec.find(',') != std::string::npos) {
    for (absl::string_view item : absl::StrSplit(spec, ',')) {
      int64_t x = 0;
      if (absl::SimpleAtoi(item, &x) && x == value) return true;
    }
    return false;
  }
  std::pair<std::string, std::string> range = absl::StrSplit(spec, absl::MaxSplits('-', 1));
  int64_t lo = 0, hi = 0;
  if (!absl::SimpleAtoi(range.first, &lo) || !absl::SimpleAtoi(range.second, &hi)) return true;
  return value >= lo && value <= hi;
}

std::string DescribeAllowed(const SeGroupField& field) {
  if (field.allowed.empty()) return "";
  std::string out(field.allowed);
  if (!field.unit.empty()) absl::StrAppend(&out, " ", AbslView(field.unit));
  if (!field.special.empty()) {
    const bool several = field.special.find(',') != std::string_view::npos;
    absl::StrAppend(&out, ", or the special value", several ? "s " : " ",
                    absl::StrJoin(absl::StrSplit(AbslView(field.special), ','), ", "));
  }
  return out;
}

bool AllowedEnforcedIn(const SeGroupField& field, const ApiVersion& controller_version) {
  if (field.allowed_since.empty()) return true;
  absl::StatusOr<ApiVersion> since = ApiVersion::Parse(field.allowed_since);
  return !since.ok() || controller_version >= *since;
}

bool EnumAllows(const SeGroupField& field, std::string_view value) {
  return field.enum_values.empty() || InList(field.enum_values, value);
}

absl::Status CheckFieldsAvailable(const nlohmann::json& fields, const ApiVersion& in_use) {
  if (!fields.is_object()) return absl::OkStatus();
  for (auto it = fields.begin(); it != fields.end(); ++it) {
    if (it.value().is_null()) continue;
    const SeGroupField* f = FindSeGroupField(it.key());
    if (f == nullptr) continue;
    const IntroducedIn& introduced = FieldIntroducedIn(*f);
    if (introduced.AvailableIn(in_use)) continue;
    std::string needs = introduced.versions().size() == 1
                            ? absl::StrCat(introduced.Describe(), " or later")
                            : introduced.Describe();
    return absl::FailedPreconditionError(absl::StrCat(
        "controller: ", AbslView(f->name), " needs Controller API version ", needs,
        "; the API version in use is ", in_use.ToString(),
        " (upgrade the Controller, raise api_version, or leave ", AbslView(f->name), " unset)"));
  }
  return absl::OkStatus();
}

absl::Status ValidateFieldValues(const nlohmann::json& fields) {
  if (!fields.is_object()) {
    return absl::InvalidArgumentError("controller: SE group fields must be a JSON object");
  }
  for (auto it = fields.begin(); it != fields.end(); ++it) {
    const nlohmann::json& v = it.value();
    if (v.is_null()) continue;
    const SeGroupField* f = FindSeGroupField(it.key());
    if (f == nullptr) continue;
    if (!HasKind(f->kind, v)) {
      return ValueError(*f, absl::StrCat("must be ", KindName(f->kind)));
    }
    if (f->kind == K::kInteger) {
      int64_t n =
          v.is_number_unsigned() ? static_cast<int64_t>(v.get<uint64_t>()) : v.get<int64_t>();
      if (!IntegerAllowed(*f, n)) {
        return ValueError(*f, absl::StrCat("is ", n, "; allowed: ", DescribeAllowed(*f)));
      }
    }
    if (!f->enum_values.empty()) {
      auto check = [&](const nlohmann::json& s) -> absl::Status {
        if (!s.is_string() || !EnumAllows(*f, s.get<std::string>())) {
          return ValueError(
              *f, absl::StrCat("must be one of ",
                               absl::StrJoin(absl::StrSplit(AbslView(f->enum_values), ','), ", ")));
        }
        return absl::OkStatus();
      };
      if (v.is_array()) {
        for (const auto& item : v) {
          NSXALB_RETURN_IF_ERROR(check(item));
        }
      } else
        NSXALB_RETURN_IF_ERROR(check(v));
    }
  }
  return absl::OkStatus();
}

}  // namespace nsxalb::controller
