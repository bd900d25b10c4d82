// Implementation of plan_report_license.h.
#include "plugin/cli/plan_report/plan_report_license.h"

#include <map>
#include <utility>

#include "absl/strings/str_cat.h"
#include "plugin/cli/plan_report/plan_json.h"
#include "plugin/segroup/license_check.h"
#include "plugin/sizing/rules.h"
#include "plugin/sizing/service_units.h"

namespace nsxalb::cli {
namespace {

using Json = nlohmann::json;

constexpr char kLicenseUsageType[] = "nsxalb_license_usage";

// The number member `key` of `object`; 0 when absent or not a number.
double Number(const Json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_number() ? it->get<double>() : 0;
}

// The first known nsxalb_license_usage value of the plan (prior_state, then planned_values).
const Json* LicenseUsageValue(const Json& plan) {
  std::vector<const Json*> resources = PriorStateResources(plan);
  for (const Json* r : PlannedResources(plan)) resources.push_back(r);
  for (const Json* resource : resources) {
    if (StringMember(*resource, "type") != kLicenseUsageType ||
        StringMember(*resource, "mode") != "data") {
      continue;
    }
    auto values = resource->find("values");
    if (values != resource->end() && values->is_object() && values->contains("tiers") &&
        (*values)["tiers"].is_array()) {
      return &*values;
    }
  }
  return nullptr;
}

}  // namespace

void RenderLicense(const Json& plan, const std::vector<PlanLicenseGroup>& groups,
                   std::ostream& out) {
  const Json* usage = LicenseUsageValue(plan);
  if (usage == nullptr) return;
  std::map<std::string, segroup::LicenseTierTotal> totals;
  std::vector<std::string> order;
  for (const Json& t : (*usage)["tiers"]) {
    if (!t.is_object()) continue;
    segroup::LicensePool pool{StringMember(t, "tier"), Number(t, "licensed"), Number(t, "consumed"),
                              Number(t, "escrow"), Number(t, "remaining")};
    order.push_back(pool.tier);
    totals[pool.tier] = {pool, 0};
  }
  const std::string default_tier = order.size() == 1 ? order[0] : segroup::kDefaultLicenseTier;
  std::map<std::string, std::pair<std::string, double>> listed;  // id -> tier, consumed
  if (usage->contains("se_groups") && (*usage)["se_groups"].is_array()) {
    for (const Json& g : (*usage)["se_groups"]) {
      if (!g.is_object()) continue;
      listed[StringMember(g, "id")] = {StringMember(g, "tier"),
                                       Number(g, "service_units_consumed")};
    }
  }
  std::vector<std::string> unknown;
  for (const PlanLicenseGroup& g : groups) {
    if (g.action == "delete" || g.action == "no-op" || g.action == "read") continue;
    if (!g.service_units_after.has_value()) {
      unknown.push_back(g.address);
      continue;
    }
    std::string tier = default_tier;
    double running = 0;
    if (auto it = listed.find(g.id); !g.id.empty() && it != listed.end()) {
      if (!it->second.first.empty()) tier = it->second.first;
      running = it->second.second;
    }
    if (totals.count(tier) == 0) {
      order.push_back(tier);
      totals[tier] = {segroup::LicensePool{tier, 0, 0, 0, 0}, 0};
    }
    totals[tier].added += segroup::LicenseUnitsAddedBy(*g.service_units_after, running).added;
  }
  out << "\n### Licence\n\nThe Service Units this plan's SE groups add, per tier, against what the "
         "Controller's licence ledger says remains (rule "
      << sizing::rules::kLicenseUnitsShort << "):\n\n";
  for (const std::string& tier : order) {
    out << "- " << segroup::LicenseTierTotalText(totals[tier]) << "\n";
  }
  for (const std::string& address : unknown) {
    out << "- `" << address << "`: its Service Units are known only after apply; not counted\n";
  }
}

}  // namespace nsxalb::cli
