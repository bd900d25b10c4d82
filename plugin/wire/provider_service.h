// The tfplugin5.Provider gRPC service over a framework::Provider.
//
// Every handler has one shape: convert the request (msgpack DynamicValues decoded with the
// schema's implied type), call the framework engine (framework/provider_server.h), convert the
// response. Anything a user should read travels as a diagnostic; the handlers answer gRPC OK
// even for malformed input (decode errors become error diagnostics naming the attribute path)
// and never crash. Values are always answered as msgpack with every attribute present. The 12
// RPCs of protocol 5.2 are served; later 5.x RPCs answer UNIMPLEMENTED.
#ifndef NSXALB_PLUGIN_WIRE_PROVIDER_SERVICE_H_
#define NSXALB_PLUGIN_WIRE_PROVIDER_SERVICE_H_

#include <memory>

#include "plugin/framework/provider.h"
#include "proto/tfplugin5.grpc.pb.h"

namespace nsxalb::wire {

// Returns a service serving `provider`. The provider's schemas are read once, here.
std::unique_ptr<tfplugin5::Provider::Service> NewProviderService(
    std::shared_ptr<framework::Provider> provider);

}  // namespace nsxalb::wire

#endif  // NSXALB_PLUGIN_WIRE_PROVIDER_SERVICE_H_
