// Data source nsxalb_se_sizing: the sizing model without a Controller or credentials. Given a
// platform and a workload it returns the recommended SE group settings; given settings too, it
// checks them against the workload and fills in the rest for the same SEs (the rules of
// se_group_sizing.h, shared with nsxalb_se_group). Schema: provider_schema/data_sources/.
#ifndef NSXALB_PLUGIN_PROVIDER_SE_SIZING_DATA_SOURCE_H_
#define NSXALB_PLUGIN_PROVIDER_SE_SIZING_DATA_SOURCE_H_

#include <memory>

#include "plugin/framework/data_source.h"
#include "plugin/framework/schema.h"

namespace nsxalb::provider {

// The data source's type name.
inline constexpr char kSeSizingDataSource[] = "nsxalb_se_sizing";

// nsxalb_se_sizing. Stateless; needs no provider configuration.
class SeSizingDataSource : public framework::DataSource,
                           public framework::DataSourceWithValidateConfig {
 public:
  // The embedded provider_schema/data_sources/nsxalb_se_sizing.json.
  framework::Schema GetSchema() const override;
  // Runs the model on the configuration. Unset sizing attributes become the recommendation (with
  // a workload); se_count, binding_metric, basis, summary, findings and metrics are filled in.
  // Findings are diagnostics at their attribute paths: errors as errors, warnings as warnings.
  // Under-sizing (demand-within-capacity) is a warning whatever sizing_policy says: Terraform
  // reads data sources in the refresh that begins a destroy, and a destroy must not fail on
  // sizing (docs/design/se-group-resource.md, "The enforce gate").
  void Read(const framework::ReadDataSourceRequest& request,
            framework::ReadDataSourceResponse& response) override;
  // Reports, at their paths, what would make Read fail: an invalid platform or sizing_policy,
  // input errors and the model's errors; never under-sizing. Unknown values are skipped;
  // warnings are left to Read so that they are not reported twice.
  void ValidateConfig(const framework::ValidateDataSourceConfigRequest& request,
                      framework::ValidateDataSourceConfigResponse& response) override;
};

// Makes the data source (the provider's factory).
std::unique_ptr<framework::DataSource> NewSeSizingDataSource();

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_SE_SIZING_DATA_SOURCE_H_
