// The attributes the usage front ends share (usage_attributes.h).
#include "plugin/provider/usage_attributes.h"

#include <cstdint>
#include <iterator>
#include <map>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "plugin/cty/json.h"
#include "plugin/framework/attr.h"
#include "plugin/provider/provider.h"
#include "plugin/provider/se_group_usage_data_source.h"
#include "plugin/segroup/usage/forecast.h"
#include "plugin/segroup/usage/headroom.h"

namespace nsxalb::provider {
namespace {

using framework::StringAttr;
using Json = nlohmann::json;

// The computed, not optional attributes of nsxalb_se_group_usage with their types.
std::map<std::string, cty::Type> ReportAttributeTypes() {
  std::map<std::string, cty::Type> out;
  for (const auto& [name, schema] :
       EmbeddedDataSourceSchema(kSeGroupUsageDataSourceType).block.attributes) {
    if (schema.computed && !schema.optional) out.emplace(name, schema.type);
  }
  return out;
}

}  // namespace

segroup::UsageQuery UsageQueryOf(const cty::Value& object, const cty::AttributePath& base,
                                 framework::Diagnostics& diagnostics) {
  segroup::UsageQuery query;
  if (const std::optional<std::string> window = StringAttr(object, "window").value()) {
    absl::StatusOr<absl::Duration> parsed = segroup::ParseUsageWindow(*window);
    if (parsed.ok()) {
      query.window = *parsed;
    } else {
      diagnostics.AddAttributeError(base.Attribute("window"), "Invalid window",
                                    std::string(parsed.status().message()));
    }
  }
  if (const std::optional<std::string> statistic = StringAttr(object, "statistic").value()) {
    absl::StatusOr<segroup::UsageStatistic> parsed = segroup::ParseUsageStatistic(*statistic);
    if (parsed.ok()) {
      query.statistic = *parsed;
    } else {
      diagnostics.AddAttributeError(base.Attribute("statistic"), "Invalid statistic",
                                    std::string(parsed.status().message()));
    }
  }
  return query;
}

std::optional<int> ForecastDaysOf(const cty::Value& object, const cty::AttributePath& base,
                                  framework::Diagnostics& diagnostics) {
  const framework::Attr<cty::Number> days = framework::NumberAttr(object, "forecast_days");
  if (!days.value().has_value()) return segroup::kDefaultForecastDays;
  absl::StatusOr<int64_t> whole = days.value()->AsInt64();
  if (!whole.ok() || *whole < 1 || *whole > segroup::kMaxForecastDays) {
    diagnostics.AddAttributeError(
        base.Attribute("forecast_days"), "Invalid forecast_days",
        absl::StrCat("forecast_days must be a whole number of days from 1 to ",
                     segroup::kMaxForecastDays, ", got ", days.value()->ToString(), "."));
    return std::nullopt;
  }
  return static_cast<int>(*whole);
}

std::optional<sizing::Platform> WrittenPlatform(const cty::Value& config,
                                                framework::Diagnostics& diagnostics) {
  const std::optional<std::string> platform = StringAttr(config, "platform").value();
  if (!platform.has_value()) return std::nullopt;
  absl::StatusOr<sizing::Platform> parsed = sizing::ParsePlatform(*platform);
  if (parsed.ok()) return *parsed;
  diagnostics.AddAttributeError(cty::AttributePath::Of("platform"), "Invalid platform",
                                std::string(parsed.status().message()));
  return std::nullopt;
}

const cty::Type& UsageReportType() {
  static const cty::Type* const kType = new cty::Type(cty::Type::Object(ReportAttributeTypes()));
  return *kType;
}

absl::StatusOr<cty::Value> UsageReportValue(const segroup::UsageReport& report) {
  Json values = segroup::UsageReportJson(report);
  if (values["recommendation"].is_object()) {
    // Only the attributes the schema has; workload keys with a null value are left out.
    Json& workload = values["recommendation"]["workload"];
    if (workload.is_object()) {
      for (auto it = workload.begin(); it != workload.end();) {
        it = it.value().is_number() ? std::next(it) : workload.erase(it);
      }
    }
  }
  std::map<std::string, cty::Value> attributes;
  for (const auto& [name, type] : UsageReportType().attributes()) {
    auto member = values.find(name);
    if (member == values.end()) continue;  // null
    absl::StatusOr<cty::Value> value = cty::DecodeJson(member->dump(), type);
    if (!value.ok()) {
      return absl::InternalError(
          absl::StrCat("attribute ", name, ": ", value.status().message(), ". This is a bug."));
    }
    attributes.emplace(name, *std::move(value));
  }
  return cty::Value::ObjectOf(UsageReportType(), std::move(attributes));
}

}  // namespace nsxalb::provider
