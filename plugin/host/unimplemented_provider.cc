// See unimplemented_provider.h.
#include "plugin/host/unimplemented_provider.h"

#include <memory>

#include "proto/tfplugin5.grpc.pb.h"

namespace nsxalb::host {

std::unique_ptr<grpc::Service> NewUnimplementedProviderService() {
  return std::make_unique<tfplugin5::Provider::Service>();
}

}  // namespace nsxalb::host
