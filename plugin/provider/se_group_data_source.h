// The nsxalb_se_group data source: an existing SE group by name (and optionally cloud), with every
// attribute the resource manages. For groups Terraform does not manage, such as Default-Group.
#ifndef NSXALB_PLUGIN_PROVIDER_SE_GROUP_DATA_SOURCE_H_
#define NSXALB_PLUGIN_PROVIDER_SE_GROUP_DATA_SOURCE_H_

#include "plugin/framework/data_source.h"

namespace nsxalb::provider {

class NsxalbProvider;

// The data source type name (the same as the resource's).
inline constexpr char kSeGroupDataSourceType[] = "nsxalb_se_group";

// Reads one SE group: one list query by name, then cached cloud and tenant lookups, and its
// running SEs from the provider process's one shared listing of the tenant's SEs.
class SeGroupDataSource : public framework::DataSource {
 public:
  explicit SeGroupDataSource(NsxalbProvider* provider) : provider_(provider) {}
  // provider_schema/data_sources/nsxalb_se_group.json.
  framework::Schema GetSchema() const override;
  // Finds the group; an error names the clouds when the name is ambiguous.
  void Read(const framework::ReadDataSourceRequest& request,
            framework::ReadDataSourceResponse& response) override;

 private:
  NsxalbProvider* provider_;
};

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_SE_GROUP_DATA_SOURCE_H_
