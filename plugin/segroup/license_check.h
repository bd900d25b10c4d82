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

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "plugin/common/once_per_key.h"
#include "plugin/controller/client.h"
#include "plugin/controller/license_ledger.h"
#include "plugin/segroup/sizing_plan.h"

namespace nsxalb::segroup {

// The tier a group draws on when neither it nor its cloud names one: the Controller's default.
inline constexpr char kDefaultLicenseTier[] = "ENTERPRISE";

// The ledger, read at most once per provider process (or CLI run) and shared by every caller
// (common::OncePerKey, as the SE listing is): the first caller asks the Controller while
// concurrent callers wait for its answer; the answer, success or error, is then every later
// caller's (a ledger the user may not read is asked once, not once per group). Thread-safe.
class LicenseLedgerCache {
 public:
  // The ledger, from `client` on the first call.
  absl::StatusOr<controller::LicenseLedgerDetails> Get(controller::Client& client);

 private:
  common::OncePerKey<controller::LicenseLedgerDetails> cache_{/*keep_failures=*/true};
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

// What a group without a workload costs at its planned scale (rule
// service-units-at-planned-scale on its own settings): max_se SEs of vcpus_per_se, each counted by
// rule service-units-per-se with the group's max_num_se_dps and per_app.
struct LicenseUnitsAtScale {
  double units = 0;
  // The arithmetic, for the finding: "max_se 3 x 4 vCPUs = 12 SUs"; "max_se 10 (the Controller's
  // default) x 1 vCPU (the Controller's default) = 10 SUs"; "max_se 3 x 8 vCPUs, max_num_se_dps
  // 4: 4 data-path processes = 4 SUs each = 12 SUs".
  std::string basis;
};

// The units of a group's `settings` by Avi field name (vcpus_per_se, max_se, max_num_se_dps,
// per_app, as ServiceUnitsOfSettings reads them). A max_se or vcpus_per_se the settings lack (or
// hold null) is the Controller's default from the field catalog (10 and 1): what a new group
// created without them gets. nullopt when one is present but not a whole number >= 0.
std::optional<LicenseUnitsAtScale> LicenseUnitsOfSettings(const nlohmann::json& settings);

// What a plan adds to its tier: the Service Units at the planned scale minus what the group's
// running SEs consume (never below 0). `basis` is how the planned units were counted (a
// LicenseUnitsAtScale's), "" when they are the sizing's service_units.
struct LicenseUnitsAdded {
  double planned = 0;
  double running = 0;
  double added = 0;
  std::string basis;
};
LicenseUnitsAdded LicenseUnitsAddedBy(double planned, double running, std::string basis = "");

// Rule license-units-short: a warning (policy-dependent, so an error under sizing_policy =
// "enforce" for a plan that creates or changes the group) at `attribute` when the plan adds more
// units than `pool` has remaining: "this group adds 8 SUs at its planned scale; the ENTERPRISE
// tier has 4 left (64 licensed, 56 consumed, 4 in escrow)", with the units' basis when they have
// one ("adds 12 SUs at its planned scale (max_se 3 x 4 vCPUs = 12 SUs); ...", and ", less 4 its
// running SEs consume" inside the brackets for a group that runs SEs). nullopt when the added
// units fit.
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
