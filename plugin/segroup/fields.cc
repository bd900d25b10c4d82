#include "plugin/segroup/fields.h"

#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "plugin/common/status_macros.h"
#include "plugin/controller/response.h"
#include "plugin/controller/se_group_fields.h"
#include "plugin/controller/version.h"
#include "plugin/segroup/sizing_plan.h"

namespace nsxalb::segroup {

using Json = nlohmann::json;

bool Covers(const Json& given, const Json& actual) {
  if (given.is_object()) {
    if (!actual.is_object()) return false;
    for (auto it = given.begin(); it != given.end(); ++it) {
      auto found = actual.find(it.key());
      if (found == actual.end()) {
        if (!it.value().is_null()) return false;
        continue;
      }
      if (!Covers(it.value(), *found)) return false;
    }
    return true;
  }
  if (given.is_array()) {
    if (!actual.is_array() || actual.size() != given.size()) return false;
    for (size_t i = 0; i < given.size(); ++i) {
      if (!Covers(given[i], actual[i])) return false;
    }
    return true;
  }
  if (given.is_number() && actual.is_number()) {
    return given.get<double>() == actual.get<double>();
  }
  return given == actual;
}

const std::vector<std::string>& TypedFieldNames() {
  static const std::vector<std::string>* const kNames = [] {
    auto* names = new std::vector<std::string>{"description"};
    for (const std::string& n : SizingAttributeNames()) names->push_back(n);
    for (const std::string& n : LicenceAttributeNames()) names->push_back(n);
    return names;
  }();
  return *kNames;
}

bool IsManagedField(const std::string& name) {
  static const std::set<std::string>* const kManaged = [] {
    auto* set = new std::set<std::string>(TypedFieldNames().begin(), TypedFieldNames().end());
    for (const char* n : {"name", "uuid", "url", "cloud_ref", "tenant_ref"}) set->insert(n);
    return set;
  }();
  return kManaged->count(name) > 0;
}

absl::Status CheckExtraFields(const Json& extra_fields) {
  if (!extra_fields.is_object()) {
    return absl::InvalidArgumentError(
        "extra_fields must be a JSON object of SE group fields, such as "
        "jsonencode({ se_deprovision_delay = 5 }).");
  }
  for (auto it = extra_fields.begin(); it != extra_fields.end(); ++it) {
    if (IsManagedField(it.key())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "extra_fields sets \"", it.key(),
          "\", which an attribute of this resource manages; set the attribute instead."));
    }
    if (controller::FindSeGroupField(it.key()) == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat(
          "extra_fields sets \"", it.key(),
          "\", which is not a ServiceEngineGroup field of the Controller API (30.2.1)."));
    }
  }
  if (absl::Status values = controller::ValidateFieldValues(extra_fields); !values.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("extra_fields: ", values.message()));
  }
  return absl::OkStatus();
}

absl::StatusOr<Json> ParseExtraFields(const std::string& text) {
  absl::StatusOr<Json> maybe_parsed = controller::ParseJsonLimited(text);
  if (!maybe_parsed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("extra_fields is not valid JSON (", maybe_parsed.status().message(),
                     "); write it with jsonencode({ field = value, ... })."));
  }
  Json parsed = *std::move(maybe_parsed);
  NSXALB_RETURN_IF_ERROR(CheckExtraFields(parsed));
  return parsed;
}

std::string RefreshedExtraFields(const std::string& prior_text, const Json& body) {
  absl::StatusOr<Json> parsed = controller::ParseJsonLimited(prior_text);
  if (!parsed.ok() || !parsed->is_object()) return prior_text;
  const Json& given = *parsed;
  Json actual = Json::object();
  for (auto it = given.begin(); it != given.end(); ++it) {
    auto found = body.find(it.key());
    actual[it.key()] = found == body.end() ? Json(nullptr) : *found;
  }
  if (Covers(given, actual)) return prior_text;
  return ExtraFieldsText(actual);
}

namespace {

// A string as Go's encoding/json writes it (HTML-safe, as Terraform's jsonencode does).
void AppendGoJsonString(const std::string& text, std::string& out) {
  out.push_back('"');
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    switch (c) {
      case '"':
        out += "\\\"";
        continue;
      case '\\':
        out += "\\\\";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\r':
        out += "\\r";
        continue;
      case '\t':
        out += "\\t";
        continue;
      case '\b':
        out += "\\b";
        continue;
      case '\f':
        out += "\\f";
        continue;
      case '<':
      case '>':
      case '&':
        absl::StrAppendFormat(&out, "\\u%04x", c);
        continue;
      default:
        break;
    }
    if (c < 0x20) {
      absl::StrAppendFormat(&out, "\\u%04x", c);
      continue;
    }
    // U+2028 and U+2029 (E2 80 A8 / E2 80 A9), which Go escapes for JavaScript's sake.
    if (c == 0xE2 && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0x80 &&
        (static_cast<unsigned char>(text[i + 2]) == 0xA8 ||
         static_cast<unsigned char>(text[i + 2]) == 0xA9)) {
      out += static_cast<unsigned char>(text[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
      i += 2;
      continue;
    }
    out.push_back(static_cast<char>(c));
  }
  out.push_back('"');
}

// A number in plain decimal, as cty writes one (big.Float Text('f', -1)): 30, 0.5, 0.0000001.
void AppendPlainNumber(const Json& number, std::string& out) {
  if (number.is_number_unsigned()) {
    absl::StrAppend(&out, number.get<uint64_t>());
    return;
  }
  if (number.is_number_integer()) {
    absl::StrAppend(&out, number.get<int64_t>());
    return;
  }
  const double d = number.get<double>();
  if (!std::isfinite(d)) {  // JSON has no such number; nlohmann writes null for it too
    out += "null";
    return;
  }
  std::array<char, 400> buffer;
  const std::to_chars_result r =
      std::to_chars(buffer.data(), buffer.data() + buffer.size(), d, std::chars_format::fixed);
  std::string text(buffer.data(), r.ptr);
  if (text == "-0") text = "0";
  out += text;
}

void AppendExtraFieldsText(const Json& value, std::string& out) {
  switch (value.type()) {
    case Json::value_t::object: {
      out.push_back('{');
      bool first = true;
      for (auto it = value.begin(); it != value.end(); ++it) {  // std::map: byte order
        if (!first) out.push_back(',');
        first = false;
        AppendGoJsonString(it.key(), out);
        out.push_back(':');
        AppendExtraFieldsText(it.value(), out);
      }
      out.push_back('}');
      return;
    }
    case Json::value_t::array: {
      out.push_back('[');
      for (size_t i = 0; i < value.size(); ++i) {
        if (i > 0) out.push_back(',');
        AppendExtraFieldsText(value[i], out);
      }
      out.push_back(']');
      return;
    }
    case Json::value_t::string:
      AppendGoJsonString(value.get<std::string>(), out);
      return;
    case Json::value_t::boolean:
      out += value.get<bool>() ? "true" : "false";
      return;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      AppendPlainNumber(value, out);
      return;
    default:
      out += "null";
      return;
  }
}

// The catalog default of `field` parsed, or nullopt when the catalog gives none.
std::optional<Json> CatalogDefault(const controller::SeGroupField& field) {
  if (field.default_json.empty()) return std::nullopt;
  Json parsed = Json::parse(field.default_json.begin(), field.default_json.end(), nullptr,
                            /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return std::nullopt;
  return parsed;
}

// The value a field without a catalog default has when unset: the zero value of its kind, as
// for the protobuf messages Avi's objects are (null, false, 0, "", [] or {}).
bool IsZeroValue(const Json& value) {
  return value.is_null() || (value.is_boolean() && !value.get<bool>()) ||
         (value.is_number() && value.get<double>() == 0) ||
         (value.is_string() && value.get<std::string>().empty()) ||
         (value.is_array() && value.empty()) || (value.is_object() && value.empty());
}

}  // namespace

std::string ExtraFieldsText(const Json& fields) {
  std::string out;
  AppendExtraFieldsText(fields, out);
  return out;
}

Json NonDefaultUntypedFields(const Json& body) {
  Json out = Json::object();
  if (!body.is_object()) return out;
  for (auto it = body.begin(); it != body.end(); ++it) {
    const std::string& name = it.key();
    if (IsManagedField(name) || name == "_last_modified") continue;
    const controller::SeGroupField* field = controller::FindSeGroupField(name);
    if (field == nullptr || it.value().is_null()) continue;
    if (std::optional<Json> fallback = CatalogDefault(*field); fallback.has_value()) {
      if (Covers(*fallback, it.value()) && Covers(it.value(), *fallback)) continue;
    } else if (IsZeroValue(it.value())) {
      continue;
    }
    Json one = Json::object();
    one[name] = it.value();
    if (!controller::ValidateFieldValues(one).ok()) continue;
    out[name] = it.value();
  }
  return out;
}

std::string CatalogDefaultText(const std::string& name) {
  const controller::SeGroupField* field = controller::FindSeGroupField(name);
  if (field == nullptr || field->default_json.empty()) return "none";
  return std::string(field->default_json);
}

Json FieldsToSend(const Json& typed, const Json& extra, const Json& prior_extra) {
  Json fields = typed.is_object() ? typed : Json::object();
  if (prior_extra.is_object()) {
    for (auto it = prior_extra.begin(); it != prior_extra.end(); ++it) {
      if (!extra.is_object() || !extra.contains(it.key())) fields[it.key()] = nullptr;
    }
  }
  if (extra.is_object()) {
    for (auto it = extra.begin(); it != extra.end(); ++it) fields[it.key()] = it.value();
  }
  return fields;
}

absl::StatusOr<std::set<std::string>> FieldsTheControllerLacks(
    controller::Client& client, const std::string& pinned_api_version,
    const std::set<std::string>& recommended, const std::set<std::string>* present_before) {
  std::set<std::string> lacking;
  std::optional<controller::ApiVersion> version;
  for (const std::string& name : recommended) {
    const controller::SeGroupField* field = controller::FindSeGroupField(name);
    if (field == nullptr || field->introduced.empty()) continue;
    bool available;
    if (present_before != nullptr) {
      available = present_before->count(name) > 0;
    } else {
      if (!version.has_value()) {
        absl::StatusOr<controller::ApiVersion> parsed =
            controller::ApiVersion::Parse(pinned_api_version);
        if (!pinned_api_version.empty() && parsed.ok()) {
          version = *parsed;
        } else {
          NSXALB_ASSIGN_OR_RETURN(controller::VersionInfo info, client.ControllerVersion());
          version = info.api;
        }
      }
      available = controller::FieldIntroducedIn(*field).AvailableIn(*version);
    }
    if (!available) lacking.insert(name);
  }
  return lacking;
}

absl::StatusOr<sizing::Platform> PlatformOfCloud(const controller::CloudInfo& cloud) {
  if (cloud.vtype == "CLOUD_VCENTER") return sizing::Platform::kVcenter;
  if (cloud.vtype == "CLOUD_NSXT") return sizing::Platform::kNsxt;
  return absl::FailedPreconditionError(absl::StrCat(
      "The cloud \"", cloud.name, "\" is of type ", cloud.vtype.empty() ? "(none)" : cloud.vtype,
      ", for which the sizing model has no measured profile. Set platform = \"vcenter\" or "
      "\"nsxt\" to say which profile to size with."));
}

absl::StatusOr<controller::SeGroup> FindSeGroupByName(controller::Client& client,
                                                      const std::string& name,
                                                      const std::string& tenant,
                                                      const std::string& cloud) {
  absl::StatusOr<std::optional<controller::SeGroup>> found =
      client.FindSeGroup(name, tenant, cloud);
  if (found.ok()) {
    if (found->has_value()) return **std::move(found);
    return absl::NotFoundError(absl::StrCat(
        "There is no SE group named \"", name, "\"", cloud.empty() ? "" : " in cloud \"", cloud,
        cloud.empty() ? "" : "\"", " in tenant \"",
        tenant.empty() ? std::string("the provider's tenant") : tenant, "\"."));
  }
  if (found.status().code() != absl::StatusCode::kFailedPrecondition) return found.status();
  // Several clouds hold the name: say which, so the user can pick one.
  absl::StatusOr<std::vector<controller::SeGroup>> all = client.ListSeGroups(tenant, "");
  if (!all.ok()) return found.status();
  std::vector<std::string> clouds;
  for (const controller::SeGroup& g : *all) {
    if (g.name != name) continue;
    absl::StatusOr<controller::CloudInfo> info = client.ResolveCloud(g.cloud_ref);
    clouds.push_back(info.ok() ? info->name : g.cloud_ref);
  }
  return absl::FailedPreconditionError(absl::StrCat(
      "SE groups named \"", name, "\" exist in several clouds: ", absl::StrJoin(clouds, ", "),
      ". Name the cloud too, as \"<cloud>/", name, "\" (for example \"",
      clouds.empty() ? std::string("Default-Cloud") : clouds.front(), "/", name, "\")."));
}

}  // namespace nsxalb::segroup
