// A tfplugin5.Provider service whose every RPC answers UNIMPLEMENTED.
//
// Lets the host be served and tested (handshake, TLS, health, Shutdown) without a provider
// implementation; the real service comes from the wire layer.
#ifndef NSXALB_PLUGIN_HOST_UNIMPLEMENTED_PROVIDER_H_
#define NSXALB_PLUGIN_HOST_UNIMPLEMENTED_PROVIDER_H_

#include <grpcpp/impl/service_type.h>

#include <memory>

namespace nsxalb::host {

// Returns a tfplugin5.Provider service with no RPC implemented.
std::unique_ptr<grpc::Service> NewUnimplementedProviderService();

}  // namespace nsxalb::host

#endif  // NSXALB_PLUGIN_HOST_UNIMPLEMENTED_PROVIDER_H_
