// The nsxalb_se_groups_usage data source: the observed load of a whole estate, every SE group of a
// tenant or those its filters keep, each with the report nsxalb_se_group_usage gives for it, the
// groups at risk, and the sums. The reading, batching and analysis are the domain's
// (plugin/segroup/usage/estate_reader.h); each group's `usage` is converted by usage_attributes.h,
// as the one-group data source's attributes are. This is the cty glue.
#ifndef NSXALB_PLUGIN_PROVIDER_SE_GROUPS_USAGE_DATA_SOURCE_H_
#define NSXALB_PLUGIN_PROVIDER_SE_GROUPS_USAGE_DATA_SOURCE_H_

#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "plugin/cty/value.h"
#include "plugin/framework/data_source.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/segroup/usage/estate_reader.h"

namespace nsxalb::provider {

class NsxalbProvider;

// The data source type name.
inline constexpr char kSeGroupsUsageDataSourceType[] = "nsxalb_se_groups_usage";

// Reads the estate's usage: one listing each of the clouds, SE groups and SEs, and one metrics
// request per batch of groups. A group without SEs or without analytics is listed without
// figures, never an error; a bad filter (name_regex, cloud, min_se_count), window, statistic,
// platform or forecast_days is an error at its attribute.
class SeGroupsUsageDataSource : public framework::DataSource,
                                public framework::DataSourceWithValidateConfig {
 public:
  explicit SeGroupsUsageDataSource(NsxalbProvider* provider) : provider_(provider) {}
  // provider_schema/data_sources/nsxalb_se_groups_usage.json.
  framework::Schema GetSchema() const override;
  // Checks window, statistic, platform, forecast_days and min_se_count (name_regex and cloud are
  // checked when read, by the domain).
  void ValidateConfig(const framework::ValidateDataSourceConfigRequest& request,
                      framework::ValidateDataSourceConfigResponse& response) override;
  // Reads the estate. Adds one warning naming the groups left without figures by a failed
  // metrics request or an analysis that could not run.
  void Read(const framework::ReadDataSourceRequest& request,
            framework::ReadDataSourceResponse& response) override;

 private:
  NsxalbProvider* provider_;
};

// The computed attributes of the data source for `estate`: groups (each with its usage as
// UsageReportValue), totals and metrics_requests, by attribute name. An error is a bug (the
// schema and the domain's JSON disagree).
absl::StatusOr<std::map<std::string, cty::Value>> EstateUsageAttributes(
    const segroup::EstateUsage& estate);

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_SE_GROUPS_USAGE_DATA_SOURCE_H_
