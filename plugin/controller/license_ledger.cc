// Implementation of license_ledger.h: the ledger's decode.
#include "plugin/controller/license_ledger.h"

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "plugin/common/status_macros.h"

namespace nsxalb::controller {
namespace {

using Json = nlohmann::json;

absl::Status Bad(const std::string& where, absl::string_view what) {
  return absl::InternalError(absl::StrCat(
      "controller: licence ledger (GET /api/licensing/ledger/details): ", where, ": ", what));
}

// The number member `key` of `obj` (0 when absent or null); an error for any other type or a
// negative value.
absl::StatusOr<double> Units(const Json& obj, const char* key, const std::string& where) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return 0.0;
  const std::string at = absl::StrCat(where, ".", key);
  if (!it->is_number())
    return Bad(at, absl::StrCat("expected a number, not JSON ", it->type_name()));
  const double value = it->get<double>();
  if (value < 0) return Bad(at, absl::StrCat("must not be negative, not ", it->dump()));
  return value;
}

// The string member `key` of `obj`; "" when absent; an error for another type, or when
// `required` and empty.
absl::StatusOr<std::string> Text(const Json& obj, const char* key, const std::string& where,
                                 bool required) {
  auto it = obj.find(key);
  const std::string at = absl::StrCat(where, ".", key);
  if (it == obj.end() || it->is_null()) {
    if (required) return Bad(at, "required, missing");
    return std::string();
  }
  if (!it->is_string())
    return Bad(at, absl::StrCat("expected a string, not JSON ", it->type_name()));
  if (required && it->get<std::string>().empty()) return Bad(at, "required, empty");
  return it->get<std::string>();
}

// The array member `key` of `ledger` (empty when absent or null).
absl::StatusOr<const Json*> List(const Json& ledger, const char* key) {
  static const Json kEmpty = Json::array();
  auto it = ledger.find(key);
  if (it == ledger.end() || it->is_null()) return &kEmpty;
  if (!it->is_array()) return Bad(key, absl::StrCat("expected a list, not JSON ", it->type_name()));
  return &*it;
}

absl::StatusOr<std::vector<LicenseInfo>> Infos(const Json& ledger, const char* key) {
  NSXALB_ASSIGN_OR_RETURN(const Json* list, List(ledger, key));
  std::vector<LicenseInfo> out;
  for (size_t i = 0; i < list->size(); ++i) {
    const Json& item = (*list)[i];
    const std::string where = absl::StrCat(key, "[", i, "]");
    if (!item.is_object()) return Bad(where, "expected an object");
    LicenseInfo info;
    NSXALB_ASSIGN_OR_RETURN(info.uuid, Text(item, "uuid", where, /*required=*/true));
    NSXALB_ASSIGN_OR_RETURN(info.tier, Text(item, "tier", where, /*required=*/true));
    NSXALB_ASSIGN_OR_RETURN(info.tenant_uuid, Text(item, "tenant_uuid", where, false));
    NSXALB_ASSIGN_OR_RETURN(info.service_cores, Units(item, "service_cores", where));
    out.push_back(std::move(info));
  }
  return out;
}

}  // namespace

std::optional<LicenseUsage> LicenseLedgerDetails::TierUsage(std::string_view tier) const {
  for (const LicenseTierUsage& t : tier_usages) {
    if (t.tier == tier) return t.usage;
  }
  return std::nullopt;
}

std::optional<double> LicenseLedgerDetails::SeServiceCores(std::string_view se_uuid) const {
  for (const LicenseInfo& info : se_infos) {
    if (info.uuid == se_uuid) return info.service_cores;
  }
  return std::nullopt;
}

absl::StatusOr<LicenseLedgerDetails> DecodeLicenseLedgerDetails(const Json& body) {
  if (!body.is_object()) return Bad("body", "expected a JSON object");
  const Json* ledger = &body;
  if (body.contains("results")) {
    const Json& results = body["results"];
    if (!results.is_array()) return Bad("results", "expected a list");
    if (results.empty()) return Bad("results", "empty: the Controller returned no ledger");
    if (!results[0].is_object()) return Bad("results[0]", "expected an object");
    ledger = &results[0];
  }
  LicenseLedgerDetails out;
  NSXALB_ASSIGN_OR_RETURN(const Json* tiers, List(*ledger, "tier_usages"));
  for (size_t i = 0; i < tiers->size(); ++i) {
    const Json& item = (*tiers)[i];
    const std::string where = absl::StrCat("tier_usages[", i, "]");
    if (!item.is_object()) return Bad(where, "expected an object");
    LicenseTierUsage tier;
    NSXALB_ASSIGN_OR_RETURN(tier.tier, Text(item, "tier", where, /*required=*/true));
    auto usage = item.find("usage");
    if (usage == item.end() || usage->is_null()) {
      return Bad(absl::StrCat(where, ".usage"), "required, missing");
    }
    if (!usage->is_object()) return Bad(absl::StrCat(where, ".usage"), "expected an object");
    const std::string at = absl::StrCat(where, ".usage");
    NSXALB_ASSIGN_OR_RETURN(tier.usage.available, Units(*usage, "available", at));
    NSXALB_ASSIGN_OR_RETURN(tier.usage.consumed, Units(*usage, "consumed", at));
    NSXALB_ASSIGN_OR_RETURN(tier.usage.escrow, Units(*usage, "escrow", at));
    NSXALB_ASSIGN_OR_RETURN(tier.usage.remaining, Units(*usage, "remaining", at));
    out.tier_usages.push_back(std::move(tier));
  }
  NSXALB_ASSIGN_OR_RETURN(out.se_infos, Infos(*ledger, "se_infos"));
  NSXALB_ASSIGN_OR_RETURN(out.escrow_infos, Infos(*ledger, "escrow_infos"));
  return out;
}

}  // namespace nsxalb::controller
