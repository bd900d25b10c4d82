// Implementation of estate_reader.h.
#include "plugin/segroup/usage/estate_reader.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "plugin/common/status_macros.h"
#include "plugin/controller/refs.h"
#include "plugin/segroup/fields.h"
#include "plugin/segroup/usage/analyze.h"
#include "plugin/segroup/usage/collection_stream.h"
#include "plugin/segroup/usage/decode.h"
#include "plugin/segroup/usage/group_reader.h"
#include "plugin/segroup/usage/values.h"
#include "plugin/sizing/rules.h"
#include "plugin/sizing/service_units.h"
#include "re2/re2.h"

namespace nsxalb::segroup {
namespace {

using Json = nlohmann::json;
namespace rules = ::nsxalb::sizing::rules;

// The uuid in `ref` of an object of `type`, or "" when it names none.
std::string UuidOfRef(std::string_view ref, std::string_view type) {
  absl::StatusOr<controller::ObjectRef> parsed = controller::ParseRef(ref, type, type);
  return parsed.ok() ? parsed->uuid : std::string();
}

// A group kept by the filters, before its metrics are read.
struct Pending {
  EstateGroup group;
  UsageInput input;
  bool analyse = true;  // false: the report is already final (no platform)
};

// The cloud `wanted` (a name, uuid or ref) among `clouds`.
absl::StatusOr<std::string> CloudUuidOf(const std::string& wanted,
                                        const std::vector<controller::CloudInfo>& clouds) {
  const std::string wanted_uuid = UuidOfRef(wanted, "cloud");
  for (const controller::CloudInfo& c : clouds) {
    if (c.name == wanted || c.uuid == wanted || (!wanted_uuid.empty() && c.uuid == wanted_uuid)) {
      return c.uuid;
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat("cloud: no cloud called \"", usage_internal::Clip(wanted), "\" is visible"));
}

// Sort key: reclaimable SUs (most first; unknown last), days to target (soonest first; none
// last), name.
bool ComesFirst(const EstateGroup& a, const EstateGroup& b) {
  const double ra = a.report.service_units.reclaimable.value_or(-1);
  const double rb = b.report.service_units.reclaimable.value_or(-1);
  if (ra != rb) return ra > rb;
  const int da = a.report.forecast.days_to_target.value_or(std::numeric_limits<int>::max());
  const int db = b.report.forecast.days_to_target.value_or(std::numeric_limits<int>::max());
  if (da != db) return da < db;
  if (a.name != b.name) return a.name < b.name;
  return a.uuid < b.uuid;
}

// The string setting `key` of a group's settings; "" when absent or not a string.
std::string StringSetting(const Json& settings, const char* key) {
  auto it = settings.find(key);
  return it != settings.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The pool per tier (rule license-remaining-after-reclaim): the ledger's tiers, then any tier
// only a group names, each with the reclaimable units of its groups added back.
std::vector<EstateLicensePool> EstateLicensePools(const controller::LicenseLedgerDetails& ledger,
                                                  const std::vector<EstateGroup>& groups) {
  std::vector<EstateLicensePool> out;
  for (const LicensePool& pool : LicensePools(ledger)) out.push_back({pool, pool.remaining});
  for (const EstateGroup& g : groups) {
    auto it = std::find_if(out.begin(), out.end(), [&g](const EstateLicensePool& p) {
      return p.pool.tier == g.license_tier;
    });
    if (it == out.end()) {
      out.push_back({LicensePoolOf(ledger, g.license_tier), 0});
      it = std::prev(out.end());
      it->remaining_after_reclaim = it->pool.remaining;
    }
    it->remaining_after_reclaim += g.report.service_units.reclaimable.value_or(0);
  }
  return out;
}

bool HasObservedFigures(const UsageReport& r) {
  for (ObservedKey key : kAllObservedKeys) {
    if (r.Observed(key).value.has_value()) return true;
  }
  return false;
}

// Analyses one group, its answer decoded (or its read failed with `read`); a group whose settings
// the analysis refuses keeps an empty report with the reason, so one group never fails the estate.
UsageReport AnalyseInBatch(const Pending& p, const absl::Status& read,
                           const usage_internal::CollectionDecoder& decoder,
                           const std::vector<size_t>& indexes, size_t group) {
  if (!read.ok()) return UsageUnavailableReport(p.input.ses, p.input.query, read);
  absl::StatusOr<UsageReport> r = AnalyzeDecoded(p.input, decoder, indexes, group);
  if (r.ok()) return *std::move(r);
  UsageReport out = EmptyUsageReport(p.input.ses, p.input.query);
  out.findings.push_back(ObservedLoadWarning(rules::kEstateGroupNotAnalysed, "",
                                             "The group's settings cannot be analysed",
                                             std::string(r.status().message())));
  return out;
}

// The compiled name filter (unset: every name), after checking the filters that need no request:
// InvalidArgument naming a bad name_regex or a negative min_se_count.
absl::StatusOr<std::unique_ptr<re2::RE2>> NameFilter(const EstateUsageRequest& request) {
  if (request.min_se_count < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("min_se_count must be 0 or more, got ", request.min_se_count));
  }
  if (request.name_regex.empty()) return nullptr;
  auto name_re = std::make_unique<re2::RE2>(request.name_regex, re2::RE2::Quiet);
  if (!name_re->ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("name_regex \"", usage_internal::Clip(request.name_regex),
                     "\" is not a regular expression: ", name_re->error()));
  }
  return name_re;
}

}  // namespace

bool GroupAtRisk(const UsageReport& report, int forecast_days) {
  for (const SeUsage& se : report.service_engines) {
    if (se.cpu.value.has_value() && *se.cpu.value > report.target_pct) return true;
  }
  return report.forecast.days_to_target.has_value() &&
         *report.forecast.days_to_target <= forecast_days;
}

absl::Status CheckEstateFilters(const EstateUsageRequest& request) {
  return NameFilter(request).status();
}

absl::StatusOr<EstateUsage> ReadEstateUsage(controller::Client& client,
                                            const EstateUsageRequest& request,
                                            const EstateProgress& progress) {
  NSXALB_ASSIGN_OR_RETURN(const std::unique_ptr<re2::RE2> name_re, NameFilter(request));
  if (progress) progress(0, 0);

  // The listings: clouds, groups and SEs, each one paged GET; and the licence ledger, one GET.
  EstateUsage out;
  std::optional<controller::LicenseLedgerDetails> ledger;
  if (request.read_license) {
    absl::StatusOr<controller::LicenseLedgerDetails> read = request.license_cache != nullptr
                                                                ? request.license_cache->Get(client)
                                                                : client.GetLicenseLedgerDetails();
    if (read.status().code() == absl::StatusCode::kCancelled) return read.status();
    if (read.ok()) {
      ledger = *std::move(read);
    } else {
      out.license_error = std::string(read.status().message());
    }
  }
  NSXALB_ASSIGN_OR_RETURN(std::vector<controller::CloudInfo> clouds, client.ListClouds());
  std::string cloud_uuid;
  if (!request.cloud.empty()) {
    NSXALB_ASSIGN_OR_RETURN(cloud_uuid, CloudUuidOf(request.cloud, clouds));
  }
  std::map<std::string, const controller::CloudInfo*> cloud_of;
  for (const controller::CloudInfo& c : clouds) cloud_of[c.uuid] = &c;
  NSXALB_ASSIGN_OR_RETURN(std::vector<controller::SeGroup> listed,
                          client.ListSeGroups(request.tenant, ""));
  NSXALB_ASSIGN_OR_RETURN(std::vector<controller::ServiceEngine> all_ses,
                          client.ListTenantServiceEngines(request.tenant));
  std::map<std::string, std::vector<controller::ServiceEngine>> ses_of;
  for (controller::ServiceEngine& se : all_ses) {
    const std::string group = UuidOfRef(se.se_group_ref, "serviceenginegroup");
    if (!group.empty()) ses_of[group].push_back(std::move(se));
  }

  // The groups the filters keep.
  std::vector<Pending> pending;
  for (const controller::SeGroup& g : listed) {
    const std::string group_cloud = UuidOfRef(g.cloud_ref, "cloud");
    if (!cloud_uuid.empty() && group_cloud != cloud_uuid) continue;
    if (name_re != nullptr && !re2::RE2::PartialMatch(g.name, *name_re)) continue;
    auto ses = ses_of.find(g.uuid);
    const std::vector<ObservedSe> observed =
        ses == ses_of.end() ? std::vector<ObservedSe>() : ObservedSes(ses->second);
    if (static_cast<int>(observed.size()) < request.min_se_count) continue;
    Pending p;
    p.group.uuid = g.uuid;
    p.group.name = g.name;
    auto cloud = cloud_of.find(group_cloud);
    if (cloud != cloud_of.end()) p.group.cloud = cloud->second->name;
    p.input.ses = observed;
    p.input.query = request.query;
    p.input.now = request.now;
    p.input.settings = g.body.is_object() ? g.body : Json::object();
    if (request.platform.has_value()) {
      p.input.platform = *request.platform;
    } else {
      absl::StatusOr<sizing::Platform> platform =
          cloud != cloud_of.end()
              ? PlatformOfCloud(*cloud->second)
              : absl::StatusOr<sizing::Platform>(absl::FailedPreconditionError(
                    absl::StrCat("the group's cloud (", g.cloud_ref, ") is not visible")));
      if (platform.ok()) {
        p.input.platform = *platform;
      } else {
        p.analyse = false;
        p.group.report = EmptyUsageReport(observed, request.query);
        p.group.report.findings.push_back(ObservedLoadWarning(
            rules::kEstateGroupNotAnalysed, "", "The group's sizing profile is not known",
            absl::StrCat(platform.status().message(),
                         " (set the estate's platform to analyse it)")));
      }
    }
    p.group.platform = p.input.platform;
    if (ledger.has_value()) {
      p.group.license_tier =
          LicenseTierOf(StringSetting(p.input.settings, "license_tier"),
                        cloud != cloud_of.end() ? cloud->second->license_tier : "");
      std::vector<std::string> uuids;
      if (ses != ses_of.end()) {
        for (const controller::ServiceEngine& se : ses->second) uuids.push_back(se.uuid);
      }
      p.group.license_service_units_now = LicenseUnitsOfSes(*ledger, uuids);
    }
    pending.push_back(std::move(p));
  }

  // Batches of whole groups, at most kMaxMetricRequestsPerCollection metric_requests each (one
  // "se-stats" request and one per SE).
  std::vector<std::vector<size_t>> batches;
  int in_batch = 0;
  for (size_t i = 0; i < pending.size(); ++i) {
    const Pending& p = pending[i];
    if (!p.analyse || p.input.ses.empty()) continue;
    const int needs = static_cast<int>(p.input.ses.size());
    if (batches.empty() || in_batch + needs + 1 > kMaxMetricRequestsPerCollection) {
      batches.emplace_back();
      in_batch = 0;
    }
    batches.back().push_back(i);
    in_batch += needs;
  }

  const int64_t start = absl::ToUnixSeconds(request.now - request.query.window);
  const int64_t stop = absl::ToUnixSeconds(request.now);
  for (const std::vector<size_t>& batch : batches) {
    std::vector<ObservedSe> ses;
    std::vector<size_t> group_of_se;
    std::vector<std::vector<size_t>> indexes(batch.size());
    for (size_t g = 0; g < batch.size(); ++g) {
      for (const ObservedSe& se : pending[batch[g]].input.ses) {
        indexes[g].push_back(ses.size());
        ses.push_back(se);
        group_of_se.push_back(g);
      }
    }
    const nlohmann::json body = UsageCollectionRequest(ses, request.query, request.now);
    usage_internal::CollectionDecoder decoder(std::move(ses), std::move(group_of_se), batch.size(),
                                              start, stop);
    const absl::Status read =
        usage_internal::StreamCollection(client, body, request.tenant, decoder);
    ++out.metrics_requests;
    if (read.code() == absl::StatusCode::kCancelled) return read;
    for (size_t g = 0; g < batch.size(); ++g) {
      Pending& p = pending[batch[g]];
      p.group.report = AnalyseInBatch(p, read, decoder, indexes[g], g);
      p.analyse = false;
    }
    if (progress) progress(out.metrics_requests, static_cast<int>(batches.size()));
  }

  // Groups without SEs: the same analysis, with nothing to read.
  const usage_internal::CollectionDecoder none({}, start, stop);
  for (Pending& p : pending) {
    if (p.analyse) p.group.report = AnalyseInBatch(p, absl::OkStatus(), none, {}, 0);
  }

  for (Pending& p : pending) {
    EstateGroup& g = p.group;
    g.at_risk = GroupAtRisk(g.report, request.forecast_days);
    g.observed = HasObservedFigures(g.report);
    EstateTotals& t = out.totals;
    ++t.groups;
    if (g.at_risk) ++t.groups_at_risk;
    if (!g.observed) ++t.groups_without_observed_load;
    const ServiceUnitsUsage& su = g.report.service_units;
    t.service_units_now += su.now.value_or(0);
    t.service_units_recommended += su.recommended.value_or(0);
    t.service_units_reclaimable += su.reclaimable.value_or(0);
    if (g.license_service_units_now.has_value() && su.now.has_value() &&
        std::abs(*g.license_service_units_now - *su.now) > 1e-9) {
      g.license_note = absl::StrCat("the ledger counts ",
                                    sizing::FormatServiceUnits(*g.license_service_units_now),
                                    ", the SEs' vCPUs give ", sizing::FormatServiceUnits(*su.now),
                                    " (an SE not yet in the ledger, max_num_se_dps or per_app)");
    }
    out.groups.push_back(std::move(g));
  }
  if (ledger.has_value()) out.license_pool = EstateLicensePools(*ledger, out.groups);
  std::sort(out.groups.begin(), out.groups.end(), ComesFirst);
  return out;
}

Json EstateUsageJson(const EstateUsage& estate) {
  Json groups = Json::array();
  for (const EstateGroup& g : estate.groups) {
    groups.push_back(Json{
        {"id", g.uuid},
        {"name", g.name},
        {"cloud", g.cloud},
        {"platform", sizing::PlatformName(g.platform)},
        {"at_risk", g.at_risk},
        {"observed", g.observed},
        {"license_tier", g.license_tier},
        {"license_service_units_now", g.license_service_units_now.has_value()
                                          ? usage_internal::NumberJson(*g.license_service_units_now)
                                          : Json()},
        {"license_note", g.license_note},
        {"usage", UsageReportJson(g.report)}});
  }
  Json pools = Json::array();
  for (const EstateLicensePool& p : estate.license_pool) {
    Json pool = LicensePoolJson(p.pool);
    pool["remaining_after_reclaim"] = usage_internal::NumberJson(p.remaining_after_reclaim);
    pools.push_back(std::move(pool));
  }
  const EstateTotals& t = estate.totals;
  return Json{
      {"groups", std::move(groups)},
      {"totals",
       {{"groups", t.groups},
        {"groups_at_risk", t.groups_at_risk},
        {"groups_without_observed_load", t.groups_without_observed_load},
        {"service_units_now", usage_internal::NumberJson(t.service_units_now)},
        {"service_units_recommended", usage_internal::NumberJson(t.service_units_recommended)},
        {"service_units_reclaimable", usage_internal::NumberJson(t.service_units_reclaimable)}}},
      {"metrics_requests", estate.metrics_requests},
      {"license_pool", std::move(pools)},
      {"license_error", estate.license_error}};
}

}  // namespace nsxalb::segroup
