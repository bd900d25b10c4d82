// The data source interface: a read-only lookup. Terraform plans data sources itself; the engine
// checks that the result keeps the configured values and is wholly known.
#ifndef NSXALB_PLUGIN_FRAMEWORK_DATA_SOURCE_H_
#define NSXALB_PLUGIN_FRAMEWORK_DATA_SOURCE_H_

#include <functional>
#include <memory>

#include "plugin/cty/value.h"
#include "plugin/framework/context.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/framework/schema.h"

namespace nsxalb::framework {

struct ReadDataSourceRequest {
  Context context;
  // The configuration, wholly known.
  cty::Value config;
};
struct ReadDataSourceResponse {
  // Pre-filled with the configuration; fill every computed attribute.
  cty::Value state;
  Diagnostics diagnostics;
};

struct ValidateDataSourceConfigRequest {
  Context context;
  cty::Value config;
};
struct ValidateDataSourceConfigResponse {
  Diagnostics diagnostics;
};

// A data source type. One instance is created per request by the provider's factory.
class DataSource {
 public:
  virtual ~DataSource() = default;
  // The data source's schema. Called when the provider server starts.
  virtual Schema GetSchema() const = 0;
  // Reads the data (ReadDataSource).
  virtual void Read(const ReadDataSourceRequest& request, ReadDataSourceResponse& response) = 0;
};

// Opt-in capability: validating a data source configuration (ValidateDataSourceConfig).
class DataSourceWithValidateConfig {
 public:
  virtual ~DataSourceWithValidateConfig() = default;
  virtual void ValidateConfig(const ValidateDataSourceConfigRequest& request,
                              ValidateDataSourceConfigResponse& response) = 0;
};

// Makes a data source instance for one request.
using DataSourceFactory = std::function<std::unique_ptr<DataSource>()>;

}  // namespace nsxalb::framework

#endif  // NSXALB_PLUGIN_FRAMEWORK_DATA_SOURCE_H_
