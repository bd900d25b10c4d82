// The Controller's licence ledger (GET /api/licensing/ledger/details, swagger
// LicenseLedgerDetails, 20.1.1+), typed: the Service Units each licence tier has, consumes and
// holds in escrow, and the units each Service Engine consumes. The decode is pure and checks
// every field it keeps, so a bad body is an error naming the field, never a silent zero.
#ifndef NSXALB_PLUGIN_CONTROLLER_LICENSE_LEDGER_H_
#define NSXALB_PLUGIN_CONTROLLER_LICENSE_LEDGER_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace nsxalb::controller {

// LicenseUsage: one tier's Service Units (service cores).
struct LicenseUsage {
  double available = 0;  // licensed: total units available for consumption
  double consumed = 0;   // consumed by running SEs
  double escrow = 0;     // reserved for SEs being created
  double remaining = 0;  // left for new SEs
};

// LicenseTierUsage: a tier (ENTERPRISE, ENTERPRISE_16, ENTERPRISE_18, BASIC, ESSENTIALS,
// ENTERPRISE_WITH_CLOUD_SERVICES) and its usage.
struct LicenseTierUsage {
  std::string tier;
  LicenseUsage usage;
};

// LicenseInfo: the units one SE consumes (se_infos: uuid is the SE's) or one reservation holds
// (escrow_infos: uuid is its cookie).
struct LicenseInfo {
  std::string uuid;
  double service_cores = 0;
  std::string tier;
  std::string tenant_uuid;  // empty when absent
};

// LicenseLedgerDetails, as the client keeps it.
struct LicenseLedgerDetails {
  std::vector<LicenseTierUsage> tier_usages;
  std::vector<LicenseInfo> se_infos;
  std::vector<LicenseInfo> escrow_infos;

  // The usage of `tier`; nullopt when the ledger does not list it.
  std::optional<LicenseUsage> TierUsage(std::string_view tier) const;
  // The units the SE `se_uuid` consumes per se_infos; nullopt when it is not listed.
  std::optional<double> SeServiceCores(std::string_view se_uuid) const;
};

// Decodes the ledger from a GET body. The swagger declares the collection answer
// ({"count", "results": [LicenseLedgerDetails]}); a body that is the object itself is accepted
// too (which form a real Controller sends is UNCONFIRMED). Missing lists are empty; a missing
// usage number is 0. Errors (Internal) name the field: "tier_usages[1].usage.consumed: expected
// a number", a tier without a name, an SE info without uuid or tier, a negative number.
absl::StatusOr<LicenseLedgerDetails> DecodeLicenseLedgerDetails(const nlohmann::json& body);

}  // namespace nsxalb::controller

#endif  // NSXALB_PLUGIN_CONTROLLER_LICENSE_LEDGER_H_
