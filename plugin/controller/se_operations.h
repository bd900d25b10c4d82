// Internal to plugin/controller: the writes and reads on one Service Engine that a roll of an SE
// group needs: its object (GET /api/serviceengine/<uuid>), its enable_state set by a PUT of the
// whole object read back (as the vendor's alert script se_grp_cleanup_old_spec_se does), its
// runtime (GET /api/serviceengine/<uuid>/runtime), its DELETE and its reboot
// (POST /api/serviceengine/<uuid>/reboot), over the retry loop the SE group calls use.
// client.cc's ClientImpl calls these from its public methods. Not for use outside the folder.
#ifndef NSXALB_PLUGIN_CONTROLLER_SE_OPERATIONS_H_
#define NSXALB_PLUGIN_CONTROLLER_SE_OPERATIONS_H_

#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "plugin/controller/request_loop.h"

namespace nsxalb::controller::internal {

// Client::GetServiceEngine: one GET by `deadline`.
absl::StatusOr<ServiceEngine> GetServiceEngine(RequestLoop& loop, absl::Time deadline,
                                               std::string_view uuid, std::string_view tenant);

// Client::SetServiceEngineEnableState: GET, then PUT of the whole object with `enable_state`
// (none when it already has it), starting over from the GET on a 412, at most kUpdateAttempts
// times, by `deadline`.
absl::StatusOr<ServiceEngine> SetServiceEngineEnableState(RequestLoop& loop, absl::Time deadline,
                                                          std::string_view uuid,
                                                          std::string_view enable_state,
                                                          std::string_view tenant);

// Client::GetServiceEngineRuntime: one GET of the runtime by `deadline`.
absl::StatusOr<ServiceEngineRuntime> GetServiceEngineRuntime(RequestLoop& loop, absl::Time deadline,
                                                             std::string_view uuid,
                                                             std::string_view tenant);

// Client::DeleteServiceEngine: one DELETE by `deadline`; 404 is success, 409 FailedPrecondition
// naming the virtual services the SE still hosts (read from its runtime, best effort).
absl::Status DeleteServiceEngine(RequestLoop& loop, absl::Time deadline, std::string_view uuid,
                                 std::string_view tenant);

// Client::RebootServiceEngine: one POST of "{}" to the SE's reboot by `deadline`, not retried
// once it may have been sent (a second reboot is not what was asked for).
absl::Status RebootServiceEngine(RequestLoop& loop, absl::Time deadline, std::string_view uuid,
                                 std::string_view tenant);

// The runtime object `j` (GET /api/serviceengine/<uuid>/runtime) as ServiceEngineRuntime.
// Internal, naming `what`, when `j` is not an object or a member has the wrong type. Pure.
absl::StatusOr<ServiceEngineRuntime> ToServiceEngineRuntime(nlohmann::json j,
                                                            std::string_view what);

}  // namespace nsxalb::controller::internal

#endif  // NSXALB_PLUGIN_CONTROLLER_SE_OPERATIONS_H_
