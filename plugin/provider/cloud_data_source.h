// The nsxalb_cloud data source: a cloud by name, with its type and the sizing profile that type
// implies (the mapping is the domain's, plugin/segroup/fields.h).
#ifndef NSXALB_PLUGIN_PROVIDER_CLOUD_DATA_SOURCE_H_
#define NSXALB_PLUGIN_PROVIDER_CLOUD_DATA_SOURCE_H_

#include <string>

#include "absl/status/statusor.h"
#include "plugin/controller/client.h"
#include "plugin/framework/data_source.h"
#include "plugin/segroup/fields.h"
#include "plugin/sizing/profiles.h"

namespace nsxalb::provider {

class NsxalbProvider;

// The data source type name.
inline constexpr char kCloudDataSourceType[] = "nsxalb_cloud";

// Reads one cloud (one cached lookup per cloud and process).
class CloudDataSource : public framework::DataSource {
 public:
  explicit CloudDataSource(NsxalbProvider* provider) : provider_(provider) {}
  // provider_schema/data_sources/nsxalb_cloud.json.
  framework::Schema GetSchema() const override;
  // Looks the cloud up by name.
  void Read(const framework::ReadDataSourceRequest& request,
            framework::ReadDataSourceResponse& response) override;

 private:
  NsxalbProvider* provider_;
};

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_CLOUD_DATA_SOURCE_H_
