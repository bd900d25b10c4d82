// The observed load of a whole estate: every SE group of a tenant (or those a filter keeps), read
// at a bounded cost and analysed group by group exactly as the one-group reader (group_reader.h)
// does, for `controller usage --all`, the nsxalb_se_groups_usage data source, `estate-report` and
// the Ansible se_group_info module.
//
// Requests, whatever the size of the estate (rule estate-requests-bounded):
//   - one paged GET /api/serviceenginegroup, one paged GET /api/cloud and one paged
//     GET /api/serviceengine (fields= what the analysis reads) for the tenant: never a request per
//     group or per SE;
//   - the metrics in POST /api/analytics/metrics/collection requests of at most
//     kMaxMetricRequestsPerCollection metric_requests each (one "se-stats" request for the
//     batch's SEs and one "vs-on:<se>" request per SE; a group is never split across POSTs, and a
//     group with more SEs than a batch holds goes alone). 200 groups of 2 SEs are 4 POSTs.
// Each answer streams into the decoder (decode.h) and each batch is analysed and dropped before the
// next is read, so the memory follows one batch's samples, not the estate's answers.
//
// A failed metrics POST (a 403, a 5xx after the retries) gives every group of its batch the
// usage-analytics-unavailable warning and no figures; the other batches' groups keep theirs.
// Cancelled (Terraform's Stop) is returned.
#ifndef NSXALB_PLUGIN_SEGROUP_USAGE_ESTATE_READER_H_
#define NSXALB_PLUGIN_SEGROUP_USAGE_ESTATE_READER_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "plugin/segroup/license_check.h"
#include "plugin/segroup/usage/report.h"
#include "plugin/sizing/profiles.h"

namespace nsxalb::segroup {

// The most metric_requests one collection POST of the estate reader carries. A batch of 128 holds
// 127 SEs: at the 7-day bound (2,016 timestamps a series) their decoded samples take about 30 MB,
// which keeps the reader within its 64 MB budget, and 200 groups of 2 SEs need 4 POSTs (8
// requests with the listings at the Controller's largest page, 200: within the budget of 10).
inline constexpr int kMaxMetricRequestsPerCollection = 128;

// The tenant that reads every tenant: the Controller's All Tenants view (X-Avi-Tenant: *), a
// superuser's only. The listings are read in it (one paged GET each, as for one tenant), the
// tenants' names in one paged GET /api/tenant, and the metrics in the tenant of each group
// (X-Avi-Tenant-UUID: a POST has no All Tenants view), a group's batch never mixing tenants: the
// POSTs are those of one tenant plus at most one per further tenant with groups to read. A user
// who is not a superuser gets the Controller's 403 as PermissionDenied naming the view.
inline constexpr char kAllTenants[] = "*";

// What to read for an estate.
struct EstateUsageRequest {
  UsageQuery query;
  absl::Time now;      // the end of the window
  std::string tenant;  // name or ref; empty: the client's; kAllTenants: every tenant
  // Filters, all of which a group must pass: its cloud (a name, uuid or ref; empty: every cloud),
  // its name (an RE2 regular expression, matched in linear time whatever the pattern, that must
  // match part of it, as grep does; empty: every name), and its SE count now (at least
  // `min_se_count`).
  std::string cloud;
  std::string name_regex;
  int min_se_count = 0;
  // The sizing profile of every group; unset: each group's cloud type decides (PlatformOfCloud).
  std::optional<sizing::Platform> platform;
  // How soon a forecast must reach the target for the group to be at risk.
  int forecast_days = kDefaultForecastDays;
  // Read the licence ledger too (one GET /api/licensing/ledger/details, through `license_cache`
  // when set, so a provider process reads it once): the pool per tier and each group's SUs as the
  // ledger counts them. A ledger that cannot be read leaves the pool empty with
  // EstateUsage::license_error; the rest of the estate is unaffected.
  bool read_license = false;
  LicenseLedgerCache* license_cache = nullptr;
};

// One group of the estate and its report.
struct EstateGroup {
  std::string uuid;
  std::string name;
  std::string cloud;  // the cloud's name ("" when unknown)
  // The group's tenant (its name, else its uuid) when the estate was read across tenants
  // (kAllTenants); "" otherwise.
  std::string tenant;
  sizing::Platform platform = sizing::Platform::kVcenter;
  UsageReport report;
  // At risk (rule estate-group-at-risk): an SE ran above the group's target in the window, or the
  // forecast reaches it within forecast_days.
  bool at_risk = false;
  // Whether the report has observed figures (false: no SEs, analytics unavailable, no points).
  bool observed = false;
  // The licence tier its SEs draw on (rule license-tier-of-group); "" without the ledger.
  std::string license_tier;
  // Its SUs now as the ledger counts them: the service_cores of its SEs in se_infos (rule
  // license-units-from-ledger); unset without the ledger.
  std::optional<double> license_service_units_now;
  // Where the ledger and the derivation from vCPUs (report.service_units.now) differ, the
  // difference in words; "" when they agree.
  std::string license_note;
};

// One tier's pool in the estate: the ledger's figures and what remains once the reclaimable units
// of the groups that draw on it come back (rule license-remaining-after-reclaim).
struct EstateLicensePool {
  LicensePool pool;
  double remaining_after_reclaim = 0;
};

// The sums over the estate's groups (the unknown figures left out).
struct EstateTotals {
  int groups = 0;
  int groups_at_risk = 0;
  int groups_without_observed_load = 0;
  double service_units_now = 0;
  double service_units_recommended = 0;
  double service_units_reclaimable = 0;
  // The running SEs that do not match their group's settings (UsageReport::running_ses).
  int ses_behind_settings = 0;
};

// The estate's usage.
struct EstateUsage {
  // Sorted by reclaimable SUs (most first; unknown last), then days to target (soonest first;
  // none last), then name.
  std::vector<EstateGroup> groups;
  EstateTotals totals;
  int metrics_requests = 0;  // collection POSTs sent
  // The licence pool per tier (the ledger's order, then tiers only the groups name); empty when
  // the ledger was not read.
  std::vector<EstateLicensePool> license_pool;
  // Why the ledger could not be read; "" when it was (or was not asked for).
  std::string license_error;
};

// Called after each step of the read: `done` of `total` metrics POSTs (the listings first, as 0).
using EstateProgress = std::function<void(int done, int total)>;

// The filters' errors that need no request (ReadEstateUsage returns them too): InvalidArgument
// naming the filter for a bad `name_regex` or a negative `min_se_count`. A front end calls it to
// refuse its flags before it connects.
absl::Status CheckEstateFilters(const EstateUsageRequest& request);

// Reads and analyses the estate (see the file comment). InvalidArgument naming the filter for a
// bad `name_regex` or an unknown `cloud`; a failed listing is the client's status.
absl::StatusOr<EstateUsage> ReadEstateUsage(controller::Client& client,
                                            const EstateUsageRequest& request,
                                            const EstateProgress& progress = nullptr);

// The group is at risk (rule estate-group-at-risk) for `forecast_days`.
bool GroupAtRisk(const UsageReport& report, int forecast_days);

// The estate as JSON with the data source's attribute names: groups [{id, name, tenant (null
// unless read across tenants), cloud, platform, at_risk, observed, usage: UsageReportJson}], totals
// {groups, groups_at_risk, groups_without_observed_load, service_units_now,
// service_units_recommended, service_units_reclaimable, ses_behind_settings}, metrics_requests; and
// the licence: license_pool [{tier, licensed, consumed, escrow, remaining,
// remaining_after_reclaim}], license_error, and per group license_tier, license_service_units_now
// (null without the ledger) and license_note.
nlohmann::json EstateUsageJson(const EstateUsage& estate);

}  // namespace nsxalb::segroup

#endif  // NSXALB_PLUGIN_SEGROUP_USAGE_ESTATE_READER_H_
