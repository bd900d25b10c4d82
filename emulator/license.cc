// Implementation of license.h: the emulated licence ledger.
#include "emulator/license.h"

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "plugin/common/license_units.h"

namespace nsxalb::emulator {
namespace {

using Json = nlohmann::json;

constexpr std::array<const char*, 6> kTiers = {"ENTERPRISE_16", "ENTERPRISE",
                                               "ENTERPRISE_18", "BASIC",
                                               "ESSENTIALS",    "ENTERPRISE_WITH_CLOUD_SERVICES"};
// Units are multiples of 0.25; comparisons allow for binary rounding.
constexpr double kEpsilon = 1e-9;

Json InfoJson(const LicenseCharge& c, int64_t now_micros) {
  Json out = {{"uuid", c.uuid},
              {"tier", c.tier},
              {"service_cores", c.service_cores},
              {"last_updated", now_micros}};
  if (!c.tenant_uuid.empty()) out["tenant_uuid"] = c.tenant_uuid;
  return out;
}

}  // namespace

bool IsLicenseTier(const std::string& tier) {
  return std::find(kTiers.begin(), kTiers.end(), tier) != kTiers.end();
}

absl::Status ParseLicenseFlag(const std::string& text, std::map<std::string, double>* licensed) {
  const size_t eq = text.find('=');
  double units = 0;
  const std::string tier = text.substr(0, eq);
  if (eq == std::string::npos || !IsLicenseTier(tier) ||
      !absl::SimpleAtod(text.substr(eq + 1), &units) || !(units >= 0) || units > 1000000) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--license must be TIER=UNITS (a tier of ENTERPRISE, ENTERPRISE_16, ENTERPRISE_18, BASIC, "
        "ESSENTIALS, ENTERPRISE_WITH_CLOUD_SERVICES; 0 to 1000000 units), got \"",
        text, "\""));
  }
  (*licensed)[tier] = units;
  return absl::OkStatus();
}

LicenseCharge LicenseChargeOf(const Json& group, const std::string& cloud_license_tier, int vcpus) {
  LicenseCharge c;
  auto text = [&group](const char* key) {
    auto it = group.find(key);
    return it != group.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  c.tier = text("license_tier");
  if (c.tier.empty()) c.tier = cloud_license_tier;
  if (c.tier.empty()) c.tier = kDefaultLicenseTier;
  std::optional<int> dps;
  if (auto it = group.find("max_num_se_dps"); it != group.end() && it->is_number_integer()) {
    dps = it->get<int>();
  }
  auto per_app = group.find("per_app");
  c.service_cores = license::LicenseServiceUnitsPerSe(
      vcpus, dps, per_app != group.end() && per_app->is_boolean() && per_app->get<bool>());
  c.tenant_uuid = text("tenant_ref");
  return c;
}

LicenseLedger::LicenseLedger(std::map<std::string, double> licensed) {
  SetLicense(std::move(licensed));
}

void LicenseLedger::SetLicense(std::map<std::string, double> licensed) {
  absl::MutexLock lock(&mu_);
  default_licence_ = licensed.empty();
  if (default_licence_) licensed[kDefaultLicenseTier] = kDefaultLicenseServiceUnits;
  licensed_ = std::move(licensed);
}

void LicenseLedger::Rebuild(const std::vector<LicenseCharge>& running) {
  absl::MutexLock lock(&mu_);
  ses_.clear();
  for (const LicenseCharge& c : running) ses_[c.uuid] = {c, false};
}

std::map<std::string, LicenseLedger::Usage> LicenseLedger::UsageLocked() {
  std::map<std::string, Usage> out;
  for (const auto& [tier, units] : licensed_) out[tier].available = units;
  for (const auto& [uuid, entry] : ses_) {
    Usage& u = out[entry.first.tier];
    (entry.second ? u.escrow : u.consumed) += entry.first.service_cores;
  }
  for (const LicenseCharge& r : reservations_) out[r.tier].escrow += r.service_cores;
  return out;
}

absl::Status LicenseLedger::Admit(const LicenseCharge& charge, bool escrow) {
  absl::MutexLock lock(&mu_);
  const Usage u = UsageLocked()[charge.tier];
  const double remaining = std::max(0.0, u.available - u.consumed - u.escrow);
  if (charge.service_cores > remaining + kEpsilon) {
    return absl::FailedPreconditionError(absl::StrCat(
        kInsufficientLicenseMessage, " (tier ", charge.tier, ": the SE needs ",
        charge.service_cores, " service cores, ", remaining, " remain of ", u.available,
        " licensed, ", u.consumed, " consumed, ", u.escrow, " in escrow)"));
  }
  ses_[charge.uuid] = {charge, escrow};
  return absl::OkStatus();
}

void LicenseLedger::Consume(const std::string& uuid) {
  absl::MutexLock lock(&mu_);
  auto it = ses_.find(uuid);
  if (it != ses_.end()) it->second.second = false;
}

void LicenseLedger::Rename(const std::string& from, const std::string& to) {
  absl::MutexLock lock(&mu_);
  auto it = ses_.find(from);
  if (it == ses_.end() || to.empty()) return;
  auto entry = std::move(it->second);
  ses_.erase(it);
  entry.first.uuid = to;
  ses_[to] = std::move(entry);
}

void LicenseLedger::Release(const std::vector<std::string>& uuids) {
  absl::MutexLock lock(&mu_);
  for (const std::string& uuid : uuids) ses_.erase(uuid);
}

void LicenseLedger::SetReservations(std::vector<LicenseCharge> reservations) {
  absl::MutexLock lock(&mu_);
  reservations_ = std::move(reservations);
}

Json LicenseLedger::Details(int64_t now_micros) {
  absl::MutexLock lock(&mu_);
  Json tiers = Json::array();
  for (const auto& [tier, u] : UsageLocked()) {
    tiers.push_back({{"tier", tier},
                     {"usage",
                      {{"available", u.available},
                       {"consumed", u.consumed},
                       {"escrow", u.escrow},
                       {"remaining", std::max(0.0, u.available - u.consumed - u.escrow)}}}});
  }
  Json se_infos = Json::array();
  Json escrow_infos = Json::array();
  for (const auto& [uuid, entry] : ses_) {
    (entry.second ? escrow_infos : se_infos).push_back(InfoJson(entry.first, now_micros));
  }
  for (const LicenseCharge& r : reservations_) escrow_infos.push_back(InfoJson(r, now_micros));
  return {{"uuid", "licenseledgerdetails-default"},
          {"tier_usages", tiers},
          {"se_infos", se_infos},
          {"escrow_infos", escrow_infos}};
}

Json LicenseLedger::LicenseJson() {
  absl::MutexLock lock(&mu_);
  Json licensed = Json::object();
  for (const auto& [tier, units] : licensed_) licensed[tier] = units;
  return {{"licensed", licensed}, {"default", default_licence_}};
}

}  // namespace nsxalb::emulator
