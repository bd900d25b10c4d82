// nsxalb_se_groups_usage (data source).
#include "plugin/provider/se_groups_usage_data_source.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "nlohmann/json.hpp"
#include "plugin/cty/json.h"
#include "plugin/framework/attr.h"
#include "plugin/provider/controller_errors.h"
#include "plugin/provider/provider.h"
#include "plugin/provider/usage_attributes.h"
#include "plugin/sizing/rules.h"

namespace nsxalb::provider {
namespace {

using framework::StringAttr;
using Json = nlohmann::json;
namespace rules = ::nsxalb::sizing::rules;

// The most groups the not-analysed warning names.
constexpr size_t kMostGroupsNamed = 10;

// min_se_count as an int: null or unknown: 0. A number that is not a whole int is an error at the
// attribute (and nullopt); a negative one is the domain's to refuse.
std::optional<int> MinSeCountOf(const cty::Value& config, framework::Diagnostics& diagnostics) {
  const framework::Attr<cty::Number> count = framework::NumberAttr(config, "min_se_count");
  if (!count.value().has_value()) return 0;
  absl::StatusOr<int64_t> whole = count.value()->AsInt64();
  if (!whole.ok() || *whole < std::numeric_limits<int>::min() ||
      *whole > std::numeric_limits<int>::max()) {
    diagnostics.AddAttributeError(cty::AttributePath::Of("min_se_count"), "Invalid min_se_count",
                                  absl::StrCat("min_se_count must be a whole number of SEs, got ",
                                               count.value()->ToString(), "."));
    return std::nullopt;
  }
  return static_cast<int>(*whole);
}

// The filter a refused estate request names (estate_reader.h: InvalidArgument naming the
// filter), or "" when the status is not about one.
std::string FilterOf(const absl::Status& status) {
  if (status.code() != absl::StatusCode::kInvalidArgument) return "";
  for (const char* filter : {"name_regex", "cloud", "min_se_count"}) {
    if (absl::StartsWith(status.message(), filter)) return filter;
  }
  return "";
}

// A group's report lacks figures because its metrics request failed or its analysis could not
// run (a group without SEs lacks them by nature, and is not named).
std::optional<std::string> NotAnalysedReason(const segroup::EstateGroup& group) {
  for (const segroup::Finding& f : group.report.findings) {
    if (f.finding.rule == rules::kAnalyticsUnavailable ||
        f.finding.rule == rules::kEstateGroupNotAnalysed) {
      return f.finding.summary;
    }
  }
  return std::nullopt;
}

}  // namespace

absl::StatusOr<std::map<std::string, cty::Value>> EstateUsageAttributes(
    const segroup::EstateUsage& estate) {
  const framework::Block& block = EmbeddedDataSourceSchema(kSeGroupsUsageDataSourceType).block;
  const cty::Type& group_type = block.attributes.at("groups").type.element();
  Json json = segroup::EstateUsageJson(estate);
  std::vector<cty::Value> groups;
  for (size_t i = 0; i < estate.groups.size(); ++i) {
    Json& group = json["groups"][i];
    group.erase("usage");  // decoded as null, then the report's value
    absl::StatusOr<cty::Value> value = cty::DecodeJson(group.dump(), group_type);
    if (!value.ok()) {
      return absl::InternalError(absl::StrCat("groups[", i, "]: ", value.status().message()));
    }
    absl::StatusOr<cty::Value> usage = UsageReportValue(estate.groups[i].report);
    if (!usage.ok()) {
      return absl::InternalError(absl::StrCat("groups[", i, "].usage: ", usage.status().message()));
    }
    groups.push_back(std::move(*value).WithAttribute("usage", *std::move(usage)));
  }
  absl::StatusOr<cty::Value> totals =
      cty::DecodeJson(json["totals"].dump(), block.attributes.at("totals").type);
  if (!totals.ok()) {
    return absl::InternalError(absl::StrCat("totals: ", totals.status().message()));
  }
  absl::StatusOr<cty::Value> pool =
      cty::DecodeJson(json["license_pool"].dump(), block.attributes.at("license_pool").type);
  if (!pool.ok()) {
    return absl::InternalError(absl::StrCat("license_pool: ", pool.status().message()));
  }
  return std::map<std::string, cty::Value>{
      {"groups", cty::Value::List(group_type, std::move(groups))},
      {"totals", *std::move(totals)},
      {"metrics_requests", cty::Value::Int(estate.metrics_requests)},
      {"license_pool", *std::move(pool)},
      {"license_error", cty::Value::String(estate.license_error)}};
}

framework::Schema SeGroupsUsageDataSource::GetSchema() const {
  return EmbeddedDataSourceSchema(kSeGroupsUsageDataSourceType);
}

void SeGroupsUsageDataSource::ValidateConfig(
    const framework::ValidateDataSourceConfigRequest& request,
    framework::ValidateDataSourceConfigResponse& response) {
  const cty::Value& config = request.config;
  UsageQueryOf(config, cty::AttributePath(), response.diagnostics);
  ForecastDaysOf(config, cty::AttributePath(), response.diagnostics);
  MinSeCountOf(config, response.diagnostics);
  WrittenPlatform(config, response.diagnostics);
}

void SeGroupsUsageDataSource::Read(const framework::ReadDataSourceRequest& request,
                                   framework::ReadDataSourceResponse& response) {
  const cty::Value& config = request.config;
  segroup::EstateUsageRequest estate;
  estate.query = UsageQueryOf(config, cty::AttributePath(), response.diagnostics);
  const std::optional<int> forecast_days =
      ForecastDaysOf(config, cty::AttributePath(), response.diagnostics);
  const std::optional<int> min_se_count = MinSeCountOf(config, response.diagnostics);
  estate.platform = WrittenPlatform(config, response.diagnostics);
  if (response.diagnostics.HasError()) return;
  estate.forecast_days = *forecast_days;
  estate.min_se_count = *min_se_count;
  estate.tenant = StringAttr(config, "tenant").value_or("");
  estate.cloud = StringAttr(config, "cloud").value_or("");
  estate.name_regex = StringAttr(config, "name_regex").value_or("");
  estate.now = absl::Now();
  // The licence pool, from the ledger the provider reads once per process.
  estate.read_license = true;
  estate.license_cache = &provider_->license_ledger();
  const std::string action =
      estate.tenant.empty() ? std::string("reading the usage of the SE groups")
      : estate.tenant == segroup::kAllTenants
          ? std::string("reading the usage of the SE groups of every tenant (All Tenants view)")
          : absl::StrCat("reading the usage of the SE groups of tenant \"", estate.tenant, "\"");
  absl::StatusOr<std::shared_ptr<controller::Client>> client = provider_->Client();
  if (!client.ok()) {
    response.diagnostics.AddError(
        "No Controller configured",
        framework::ErrorDetail(action, std::string(client.status().message()), ""));
    return;
  }

  absl::StatusOr<segroup::EstateUsage> usage = segroup::ReadEstateUsage(**client, estate);
  if (!usage.ok()) {
    const std::string filter = FilterOf(usage.status());
    if (!filter.empty()) {
      response.diagnostics.AddAttributeError(
          cty::AttributePath::Of(filter),
          filter == "cloud" ? "Cloud not found" : absl::StrCat("Invalid ", filter),
          std::string(usage.status().message()));
      return;
    }
    AddControllerError(response.diagnostics, "Cannot read the SE groups' usage", action, "",
                       usage.status());
    return;
  }

  std::vector<std::string> not_analysed;
  for (const segroup::EstateGroup& g : usage->groups) {
    if (std::optional<std::string> reason = NotAnalysedReason(g)) {
      not_analysed.push_back(absl::StrCat(g.name, ": ", *reason));
    }
  }
  if (!not_analysed.empty()) {
    const size_t count = not_analysed.size();
    if (count > kMostGroupsNamed) {
      not_analysed.resize(kMostGroupsNamed);
      not_analysed.push_back(absl::StrCat("and ", count - kMostGroupsNamed, " more"));
    }
    response.diagnostics.AddWarning(
        absl::StrCat("SE groups usage: ", count, " of ", usage->groups.size(),
                     count == 1 ? " group has" : " groups have", " no observed figures"),
        absl::StrCat("Each is listed with its findings and without figures; the other groups "
                     "keep theirs.\n\n",
                     absl::StrJoin(not_analysed, "\n")));
  }

  absl::StatusOr<std::map<std::string, cty::Value>> values = EstateUsageAttributes(*usage);
  if (!values.ok()) {
    response.diagnostics.AddError(
        "Cannot record the SE groups' usage",
        framework::ErrorDetail(action, absl::StrCat(values.status().message(), ". This is a bug."),
                               ""));
    return;
  }
  // The query as read, where the configuration leaves it unset.
  (*values)["window"] = cty::Value::String(segroup::UsageWindowText(estate.query.window));
  (*values)["statistic"] = cty::Value::String(segroup::UsageStatisticName(estate.query.statistic));
  (*values)["forecast_days"] = cty::Value::Int(estate.forecast_days);

  cty::Value state = response.state;
  for (const auto& [attribute, schema] : GetSchema().block.attributes) {
    auto value = values->find(attribute);
    if (value == values->end()) continue;
    // What the configuration sets stays as written ("24h" is not rewritten to "1d").
    if (schema.optional && !config.GetAttribute(attribute)->IsNull()) continue;
    state = state.WithAttribute(attribute, value->second);
  }
  response.state = std::move(state);
}

}  // namespace nsxalb::provider
