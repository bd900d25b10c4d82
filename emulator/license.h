// The emulated Controller's licence ledger: the Service Units each licence tier is licensed for,
// what the running Service Engines consume and what SEs being created hold in escrow, served as
// GET /api/licensing/ledger/details (swagger LicenseLedgerDetails). Every SE creation passes
// through Admit, which refuses an SE its tier cannot cover with the Controller's message
// (kInsufficientLicenseMessage, Broadcom KB 327273). An SE's units follow the shared rule
// (plugin/common/license_units.h). Thread-safe; it never calls the store, so the store may call
// it under its own lock. Behaviour documented in docs/emulator.md ("The licence ledger").
#ifndef NSXALB_EMULATOR_LICENSE_H_
#define NSXALB_EMULATOR_LICENSE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "nlohmann/json.hpp"

namespace nsxalb::emulator {

// The Controller's refusal when a tier cannot cover a new SE (Broadcom KB 327273).
inline constexpr char kInsufficientLicenseMessage[] =
    "Insufficient licensable resources available to create Service Engine";

// The tier a licence falls back to and the units it has when the command line names none: enough
// for every test, demo and benchmark (the ALB SaaS max_service_units range tops out at 100000).
inline constexpr char kDefaultLicenseTier[] = "ENTERPRISE";
inline constexpr double kDefaultLicenseServiceUnits = 100000;

// The licence tiers of the swagger's enum (LicenseTierUsage.tier).
bool IsLicenseTier(const std::string& tier);

// Parses "TIER=UNITS" (--license ENTERPRISE=64): a tier of the enum and a number of units from 0
// to 1000000. Errors name the flag's value.
absl::Status ParseLicenseFlag(const std::string& text, std::map<std::string, double>* licensed);

// What one SE (or one reservation) holds: its uuid, tier, units and tenant.
struct LicenseCharge {
  std::string uuid;
  std::string tier;
  double service_cores = 0;
  std::string tenant_uuid;
};

// The key an SE's charge is admitted under before the SE has its uuid (the lifecycle's admission
// hook runs before the SE is made; its `created` hook then names it).
inline constexpr char kPendingLicenseCharge[] = "pending-se";

// What one new SE of `vcpus` in `group` (a stored SE group object) holds of the licence: its tier
// (the group's license_tier, else `cloud_license_tier`, else kDefaultLicenseTier), its units (the
// shared rule over `vcpus` and the group's max_num_se_dps and per_app) and the group's tenant.
// The uuid is left empty.
LicenseCharge LicenseChargeOf(const nlohmann::json& group, const std::string& cloud_license_tier,
                              int vcpus);

// The ledger.
class LicenseLedger {
 public:
  // `licensed`: units per tier; empty means the default licence.
  explicit LicenseLedger(std::map<std::string, double> licensed);

  // Replaces the licence (units per tier; empty: the default). Charges are kept: a smaller
  // licence may leave a tier over-consumed (remaining 0), as on a Controller whose licence
  // shrank; new SEs are then refused.
  void SetLicense(std::map<std::string, double> licensed);

  // Replaces every SE charge (after the store is loaded).
  void Rebuild(const std::vector<LicenseCharge>& running);

  // Admits one SE: FailedPrecondition with kInsufficientLicenseMessage (and the figures) when its
  // tier's remaining units are fewer than its units; otherwise records it, in escrow when
  // `escrow` (an SE still being created; Consume moves it), else consumed.
  absl::Status Admit(const LicenseCharge& charge, bool escrow);

  // An SE that finished booting: its escrow becomes consumption. No-op for an unknown uuid.
  void Consume(const std::string& uuid);

  // The charge admitted under `from` (kPendingLicenseCharge, before the SE had its uuid) is the
  // SE `to`'s. No-op when there is none.
  void Rename(const std::string& from, const std::string& to);

  // SEs that are gone: their units return to the pool.
  void Release(const std::vector<std::string>& uuids);

  // Replaces the reservations not tied to an SE (escrow cookies, set through the control
  // endpoint to stand for SEs another actor is creating).
  void SetReservations(std::vector<LicenseCharge> reservations);

  // The LicenseLedgerDetails object (tier_usages for every licensed tier and every tier with
  // consumption or escrow, se_infos, escrow_infos), with `last_updated` in microseconds.
  nlohmann::json Details(int64_t now_micros);

  // The licence as {"licensed": {tier: units}, "default": bool} (for the control endpoint).
  nlohmann::json LicenseJson();

 private:
  struct Usage {
    double available = 0;
    double consumed = 0;
    double escrow = 0;
  };
  std::map<std::string, Usage> UsageLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  absl::Mutex mu_;
  std::map<std::string, double> licensed_ ABSL_GUARDED_BY(mu_);
  bool default_licence_ ABSL_GUARDED_BY(mu_) = false;
  // SE charges by uuid, and whether each is still in escrow.
  std::map<std::string, std::pair<LicenseCharge, bool>> ses_ ABSL_GUARDED_BY(mu_);
  std::vector<LicenseCharge> reservations_ ABSL_GUARDED_BY(mu_);
};

}  // namespace nsxalb::emulator

#endif  // NSXALB_EMULATOR_LICENSE_H_
