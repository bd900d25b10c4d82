// The licence pool as an SE group's plan sees it (docs/sizing.md, "The licence pool"): the
// Controller's ledger (controller::LicenseLedgerDetails) read once per process and shared
// (LicenseLedgerCache), each tier's pool, the tier a group draws on, the units its running SEs
// consume, and the check that a plan does not add more Service Units than its tier has left
// (rule license-units-short). No Terraform types: the resource, plan-report and the estate call
// these.
#ifndef NSXALB_PLUGIN_SEGROUP_LICENSE_CHECK_H_
#define NSXALB_PLUGIN_SEGROUP_LICENSE_CHECK_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "plugin/controller/license_ledger.h"
#include "plugin/segroup/sizing_plan.h"

namespace nsxalb::segroup {

// The tier a group draws on when neither it nor its cloud names one: the Controller's default.
inline constexpr char kDefaultLicenseTier[] = "ENTERPRISE";

// The ledger, read at most once per provider process (or CLI run) and shared by every caller:
// the first caller asks the Controller while concurrent callers wait for its answer; the answer,
// success or error, is then every later caller's. Thread-safe.
class LicenseLedgerCache {
 public:
  // The ledger, from `client` on the first call.
  absl::StatusOr<controller::LicenseLedgerDetails> Get(controller::Client& client);

 private:
  absl::Mutex mu_;
  bool in_flight_ ABSL_GUARDED_BY(mu_) = false;
  std::optional<absl::StatusOr<controller::LicenseLedgerDetails>> answer_ ABSL_GUARDED_BY(mu_);
};

// The tier a group's SEs draw on: the group's license_tier, else its cloud's, else
// kDefaultLicenseTier.
std::string LicenseTierOf(std::string_view group_license_tier, std::string_view cloud_license_tier);

// One tier's pool, as the ledger says: licensed (the ledger's `available`), consumed, in escrow,
// and remaining.
struct LicensePool {
  std::string tier;
  double licensed = 0;
  double consumed = 0;
  double escrow = 0;
  double remaining = 0;
};

// Every tier of the ledger, in its order.
std::vector<LicensePool> LicensePools(const controller::LicenseLedgerDetails& ledger);

// The pool of `tier`; a tier the ledger does not list has nothing licensed (all zero).
LicensePool LicensePoolOf(const controller::LicenseLedgerDetails& ledger, std::string_view tier);

// The pool as JSON: {"tier", "licensed", "consumed", "escrow", "remaining"}.
nlohmann::json LicensePoolJson(const LicensePool& pool);

// The uuids of the SEs in `ses` whose se_group_ref names the group `group_uuid`.
std::vector<std::string> LicenseSeUuidsOfGroup(const std::vector<controller::ServiceEngine>& ses,
                                               std::string_view group_uuid);

// The units the SEs `se_uuids` consume, per the ledger's se_infos (an SE the ledger does not
// list consumes nothing yet).
double LicenseUnitsOfSes(const controller::LicenseLedgerDetails& ledger,
                         const std::vector<std::string>& se_uuids);

// What a plan adds to its tier: the Service Units at the planned scale minus what the group's
// running SEs consume (never below 0).
struct LicenseUnitsAdded {
  double planned = 0;
  double running = 0;
  double added = 0;
};
LicenseUnitsAdded LicenseUnitsAddedBy(double planned, double running);

// Rule license-units-short: a warning (policy-dependent, so an error under sizing_policy =
// "enforce" for a plan that creates or changes the group) at `attribute` when the plan adds more
// units than `pool` has remaining: "this group adds 8 SUs at its planned scale; the ENTERPRISE
// tier has 4 left (64 licensed, 56 consumed, 4 in escrow)". nullopt when the added units fit.
std::optional<Finding> CheckLicenseUnits(const LicenseUnitsAdded& units, const LicensePool& pool,
                                         std::string_view attribute);

// The plan's additions per tier against what remains (plan-report): one line a tier,
// "ENTERPRISE: the plan adds 12 SUs; 8 remain (64 licensed, 56 consumed, 0 in escrow): 4 SUs
// short".
struct LicenseTierTotal {
  LicensePool pool;
  double added = 0;
};
std::string LicenseTierTotalText(const LicenseTierTotal& total);

// One SE group's use of the licence (the nsxalb_license_usage data source).
struct LicenseGroupUsage {
  std::string uuid;
  std::string name;
  std::string tier;  // LicenseTierOf its license_tier and its cloud's
  int se_count = 0;
  // The service_cores of its SEs in the ledger's se_infos.
  double service_units_consumed = 0;
};

// The licence as a module sees it: every tier's pool and every group's units.
struct LicenseUsage {
  std::vector<LicensePool> tiers;
  std::vector<LicenseGroupUsage> se_groups;  // in the Controller's order
};

// Reads the licence usage of `tenant` (empty: the client's): the ledger through `cache`, and one
// paged listing each of the clouds, the tenant's SE groups and its SEs. The client's status on a
// failure.
absl::StatusOr<LicenseUsage> ReadLicenseUsage(controller::Client& client, LicenseLedgerCache& cache,
                                              std::string_view tenant);

// {"tiers": [LicensePoolJson], "se_groups": [{"id", "name", "tier", "se_count",
// "service_units_consumed"}]}.
nlohmann::json LicenseUsageJson(const LicenseUsage& usage);

}  // namespace nsxalb::segroup

#endif  // NSXALB_PLUGIN_SEGROUP_LICENSE_CHECK_H_
