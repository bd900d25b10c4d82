// The nsxalb_cloud data source: a cloud by name, with its type and the sizing profile that type
// implies. Also home of that mapping, which nsxalb_se_group uses to derive `platform`.
#ifndef NSXALB_PLUGIN_PROVIDER_CLOUD_DATA_SOURCE_H_
#define NSXALB_PLUGIN_PROVIDER_CLOUD_DATA_SOURCE_H_

#include <string>

#include "absl/status/statusor.h"
#include "plugin/controller/client.h"
#include "plugin/framework/data_source.h"
#include "plugin/sizing/profiles.h"

namespace nsxalb::provider {

class NsxalbProvider;

// The data source type name.
inline constexpr char kCloudDataSourceType[] = "nsxalb_cloud";

// The sizing profile of a cloud: CLOUD_VCENTER is vcenter, CLOUD_NSXT is nsxt. Any other type is
// FailedPrecondition, naming the cloud and its type and asking for `platform` to be set.
absl::StatusOr<sizing::Platform> PlatformOfCloud(const controller::CloudInfo& cloud);

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
