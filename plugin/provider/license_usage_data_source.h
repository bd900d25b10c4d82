// The nsxalb_license_usage data source: the Controller's licence pool per tier and each SE
// group's units (plugin/segroup/license_check.h reads them), so a module can write check blocks.
#ifndef NSXALB_PLUGIN_PROVIDER_LICENSE_USAGE_DATA_SOURCE_H_
#define NSXALB_PLUGIN_PROVIDER_LICENSE_USAGE_DATA_SOURCE_H_

#include "plugin/framework/data_source.h"

namespace nsxalb::provider {

class NsxalbProvider;

// The data source type name.
inline constexpr char kLicenseUsageDataSourceType[] = "nsxalb_license_usage";

// Reads the ledger (shared per process) and the tenant's groups and SEs.
class LicenseUsageDataSource : public framework::DataSource {
 public:
  explicit LicenseUsageDataSource(NsxalbProvider* provider) : provider_(provider) {}
  // provider_schema/data_sources/nsxalb_license_usage.json.
  framework::Schema GetSchema() const override;
  // Reads the pool and the groups' units.
  void Read(const framework::ReadDataSourceRequest& request,
            framework::ReadDataSourceResponse& response) override;

 private:
  NsxalbProvider* provider_;
};

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_LICENSE_USAGE_DATA_SOURCE_H_
