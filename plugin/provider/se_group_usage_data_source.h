// The nsxalb_se_group_usage data source: what an existing SE group's Service Engines really
// carried over a window (the Controller's analytics), the calibration of the sizing model against
// it, and a recommendation sized from the observed peak workload. The reading and the analysis
// are the domain's (plugin/segroup/usage/group_reader.h, report.h); this is the cty glue, and the
// report's attributes are usage_attributes.h's, shared with nsxalb_se_groups_usage.
#ifndef NSXALB_PLUGIN_PROVIDER_SE_GROUP_USAGE_DATA_SOURCE_H_
#define NSXALB_PLUGIN_PROVIDER_SE_GROUP_USAGE_DATA_SOURCE_H_

#include <string>

#include "plugin/framework/data_source.h"
#include "plugin/framework/diagnostics.h"

namespace nsxalb::provider {

class NsxalbProvider;

// The data source type name.
inline constexpr char kSeGroupUsageDataSourceType[] = "nsxalb_se_group_usage";

// Reads one group's usage: the group (by id, or by name and cloud), its SEs and one metrics
// request. Missing data (no SEs, analytics unavailable, a short window) is a warning, never an
// error; a group that does not exist, or an invalid window or statistic, is an error at its
// attribute.
class SeGroupUsageDataSource : public framework::DataSource,
                               public framework::DataSourceWithValidateConfig {
 public:
  explicit SeGroupUsageDataSource(NsxalbProvider* provider) : provider_(provider) {}
  // provider_schema/data_sources/nsxalb_se_group_usage.json.
  framework::Schema GetSchema() const override;
  // Checks window and statistic, and that name or id is given.
  void ValidateConfig(const framework::ValidateDataSourceConfigRequest& request,
                      framework::ValidateDataSourceConfigResponse& response) override;
  // Reads the group and its usage.
  void Read(const framework::ReadDataSourceRequest& request,
            framework::ReadDataSourceResponse& response) override;

 private:
  NsxalbProvider* provider_;
};

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_SE_GROUP_USAGE_DATA_SOURCE_H_
