// Implementation of license_check.h.
#include "plugin/segroup/license_check.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "plugin/common/status_macros.h"
#include "plugin/controller/refs.h"
#include "plugin/controller/se_group_fields.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/rules.h"
#include "plugin/sizing/service_units.h"

namespace nsxalb::segroup {
namespace {

// Units are multiples of 0.25; comparisons allow for binary rounding.
constexpr double kEpsilon = 1e-9;

// "64 licensed, 56 consumed, 4 in escrow".
std::string PoolFigures(const LicensePool& pool) {
  return absl::StrCat(sizing::FormatServiceUnitsNumber(pool.licensed), " licensed, ",
                      sizing::FormatServiceUnitsNumber(pool.consumed), " consumed, ",
                      sizing::FormatServiceUnitsNumber(pool.escrow), " in escrow");
}

}  // namespace

absl::StatusOr<controller::LicenseLedgerDetails> LicenseLedgerCache::Get(
    controller::Client& client) {
  NSXALB_ASSIGN_OR_RETURN(std::shared_ptr<const controller::LicenseLedgerDetails> ledger,
                          cache_.Get("", [&client]() { return client.GetLicenseLedgerDetails(); }));
  return *ledger;
}

std::string LicenseTierOf(std::string_view group_license_tier,
                          std::string_view cloud_license_tier) {
  if (!group_license_tier.empty()) return std::string(group_license_tier);
  if (!cloud_license_tier.empty()) return std::string(cloud_license_tier);
  return kDefaultLicenseTier;
}

std::vector<LicensePool> LicensePools(const controller::LicenseLedgerDetails& ledger) {
  std::vector<LicensePool> out;
  for (const controller::LicenseTierUsage& t : ledger.tier_usages) {
    out.push_back({t.tier, t.usage.available, t.usage.consumed, t.usage.escrow, t.usage.remaining});
  }
  return out;
}

LicensePool LicensePoolOf(const controller::LicenseLedgerDetails& ledger, std::string_view tier) {
  for (LicensePool& pool : LicensePools(ledger)) {
    if (pool.tier == tier) return pool;
  }
  LicensePool none;
  none.tier = std::string(tier);
  return none;
}

nlohmann::json LicensePoolJson(const LicensePool& pool) {
  return {{"tier", pool.tier},
          {"licensed", pool.licensed},
          {"consumed", pool.consumed},
          {"escrow", pool.escrow},
          {"remaining", pool.remaining}};
}

std::vector<std::string> LicenseSeUuidsOfGroup(const std::vector<controller::ServiceEngine>& ses,
                                               std::string_view group_uuid) {
  std::vector<std::string> out;
  for (const controller::ServiceEngine& se : ses) {
    auto ref = controller::ParseRef(se.se_group_ref, "serviceenginegroup", "se_group_ref");
    if (ref.ok() && ref->uuid == group_uuid) out.push_back(se.uuid);
  }
  return out;
}

double LicenseUnitsOfSes(const controller::LicenseLedgerDetails& ledger,
                         const std::vector<std::string>& se_uuids) {
  double units = 0;
  for (const std::string& uuid : se_uuids) units += ledger.SeServiceCores(uuid).value_or(0);
  return units;
}

std::optional<LicenseUnitsAtScale> LicenseUnitsOfSettings(const nlohmann::json& settings) {
  // Each of max_se and vcpus_per_se: the setting, or the catalog's default when it is unset.
  nlohmann::json effective = settings.is_object() ? settings : nlohmann::json::object();
  std::string max_se_note;
  std::string vcpus_note;
  for (const auto& [name, note] : {std::pair<const char*, std::string*>{"max_se", &max_se_note},
                                   {"vcpus_per_se", &vcpus_note}}) {
    auto it = effective.find(name);
    if (it != effective.end() && !it->is_null()) continue;
    const controller::SeGroupField* field = controller::FindSeGroupField(name);
    int64_t fallback = 0;
    if (field == nullptr || !absl::SimpleAtoi(std::string(field->default_json), &fallback))
      return std::nullopt;
    effective[name] = fallback;
    *note = " (the Controller's default)";
  }
  const std::optional<double> units = ServiceUnitsOfSettings(effective);
  if (!units.has_value()) return std::nullopt;
  const int max_se = effective["max_se"].get<int>();
  const int vcpus = effective["vcpus_per_se"].get<int>();
  const sizing::ServiceUnitSettings licence = LicenceSettingsOf(effective);
  const sizing::Choice<double> per_se = sizing::ServiceUnitsPerSe(vcpus, licence);
  // "4 vCPUs" when an SE's units are its vCPUs; else the rule's arithmetic and "each": "8 vCPUs,
  // max_num_se_dps 4: 4 data-path processes = 4 SUs each".
  const std::string vcpus_text = sizing::FormatVcpus(vcpus);
  std::string per_se_text = absl::StrCat(vcpus_text, vcpus_note);
  if (std::abs(per_se.value - vcpus) > kEpsilon && absl::StartsWith(per_se.reason, vcpus_text)) {
    absl::StrAppend(&per_se_text, per_se.reason.substr(vcpus_text.size()), " each");
  }
  LicenseUnitsAtScale out;
  out.units = *units;
  out.basis = absl::StrCat("max_se ", max_se, max_se_note, " x ", per_se_text, " = ",
                           sizing::FormatServiceUnits(*units));
  return out;
}

LicenseUnitsAdded LicenseUnitsAddedBy(double planned, double running, std::string basis) {
  return {planned, running, std::max(0.0, planned - running), std::move(basis)};
}

std::optional<Finding> CheckLicenseUnits(const LicenseUnitsAdded& units, const LicensePool& pool,
                                         std::string_view attribute) {
  if (units.added <= pool.remaining + kEpsilon) return std::nullopt;
  std::string adds = absl::StrCat("this group adds ", sizing::FormatServiceUnits(units.added),
                                  " at its planned scale");
  if (!units.basis.empty()) {
    absl::StrAppend(&adds, " (", units.basis);
    if (units.running > 0) {
      absl::StrAppend(&adds, ", less ", sizing::FormatServiceUnitsNumber(units.running),
                      " its running SEs consume");
    }
    absl::StrAppend(&adds, ")");
  } else if (units.running > 0) {
    absl::StrAppend(&adds, " (", sizing::FormatServiceUnitsNumber(units.planned), " planned - ",
                    sizing::FormatServiceUnitsNumber(units.running), " its running SEs consume)");
  }
  Finding f;
  f.attribute = std::string(attribute);
  f.policy_dependent = true;
  f.finding.severity = sizing::Severity::kWarning;
  f.finding.attribute = f.attribute;
  f.finding.rule = sizing::rules::kLicenseUnitsShort;
  f.finding.summary = absl::StrCat(
      "The ", pool.tier, " licence tier has fewer Service Units left than this plan adds");
  f.finding.detail = absl::StrCat(
      adds, "; the ", pool.tier, " tier has ", sizing::FormatServiceUnitsNumber(pool.remaining),
      " left (", PoolFigures(pool),
      "). The Controller refuses each SE its tier cannot cover (\"Insufficient licensable "
      "resources available to create Service Engine\") and the group stays under-sized: add "
      "licences to the tier, free units elsewhere, or plan fewer or smaller SEs "
      "(max_num_se_dps or per_app lower an SE's units).");
  return f;
}

std::string LicenseTierTotalText(const LicenseTierTotal& total) {
  const LicensePool& pool = total.pool;
  std::string out = absl::StrCat(
      pool.tier, ": the plan adds ", sizing::FormatServiceUnits(total.added), "; ",
      sizing::FormatServiceUnitsNumber(pool.remaining), " remain (", PoolFigures(pool), ")");
  if (total.added > pool.remaining + kEpsilon) {
    absl::StrAppend(&out, ": ", sizing::FormatServiceUnits(total.added - pool.remaining), " short");
  } else {
    absl::StrAppend(&out, ": ", sizing::FormatServiceUnits(pool.remaining - total.added),
                    " left after it");
  }
  return out;
}

absl::StatusOr<LicenseUsage> ReadLicenseUsage(controller::Client& client, LicenseLedgerCache& cache,
                                              std::string_view tenant) {
  NSXALB_ASSIGN_OR_RETURN(const controller::LicenseLedgerDetails ledger, cache.Get(client));
  NSXALB_ASSIGN_OR_RETURN(const std::vector<controller::CloudInfo> clouds, client.ListClouds());
  NSXALB_ASSIGN_OR_RETURN(const std::vector<controller::SeGroup> groups,
                          client.ListSeGroups(tenant, ""));
  NSXALB_ASSIGN_OR_RETURN(const std::vector<controller::ServiceEngine> ses,
                          client.ListTenantServiceEngines(tenant));
  LicenseUsage out;
  out.tiers = LicensePools(ledger);
  for (const controller::SeGroup& g : groups) {
    LicenseGroupUsage u;
    u.uuid = g.uuid;
    u.name = g.name;
    std::string cloud_tier;
    auto cloud = controller::ParseRef(g.cloud_ref, "cloud", "cloud_ref");
    for (const controller::CloudInfo& c : clouds) {
      if (cloud.ok() && c.uuid == cloud->uuid) cloud_tier = c.license_tier;
    }
    std::string own_tier;
    if (g.body.is_object() && g.body.contains("license_tier") &&
        g.body["license_tier"].is_string()) {
      own_tier = g.body["license_tier"].get<std::string>();
    }
    u.tier = LicenseTierOf(own_tier, cloud_tier);
    const std::vector<std::string> mine = LicenseSeUuidsOfGroup(ses, g.uuid);
    u.se_count = static_cast<int>(mine.size());
    u.service_units_consumed = LicenseUnitsOfSes(ledger, mine);
    out.se_groups.push_back(std::move(u));
  }
  return out;
}

nlohmann::json LicenseUsageJson(const LicenseUsage& usage) {
  nlohmann::json tiers = nlohmann::json::array();
  for (const LicensePool& pool : usage.tiers) tiers.push_back(LicensePoolJson(pool));
  nlohmann::json groups = nlohmann::json::array();
  for (const LicenseGroupUsage& g : usage.se_groups) {
    groups.push_back({{"id", g.uuid},
                      {"name", g.name},
                      {"tier", g.tier},
                      {"se_count", g.se_count},
                      {"service_units_consumed", g.service_units_consumed}});
  }
  return {{"tiers", std::move(tiers)}, {"se_groups", std::move(groups)}};
}

}  // namespace nsxalb::segroup
