// Where a group's virtual services sit: the SE inventory (GET /api/serviceengine-inventory),
// typed, one entry per Service Engine with the virtual services it hosts (config.vs_refs). A
// roll's plan reads it to predict where each leaving SE's virtual services go. The decode is
// pure and checks every field it keeps.
#ifndef NSXALB_PLUGIN_CONTROLLER_SE_INVENTORY_H_
#define NSXALB_PLUGIN_CONTROLLER_SE_INVENTORY_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace nsxalb::controller {

// A virtual service placed on an SE, from a vs_ref ("https://ctrl/api/virtualservice/<uuid>" with
// "#<name>" when the listing asked include_name).
struct PlacedVirtualService {
  std::string uuid;
  std::string name;  // "" when the ref carries none
};

// One SE of the inventory.
struct ServiceEnginePlacement {
  std::string uuid;
  std::string name;          // config.name; "" when absent
  std::string se_group_ref;  // config.se_group_ref, as returned
  // config.enable_state ("SE_STATE_ENABLED", ...); "" when absent.
  std::string enable_state;
  // runtime.oper_status.state ("OPER_UP", "OPER_DISABLING", ...); "" when absent.
  std::string oper_state;
  // config.vs_refs, in the Controller's order.
  std::vector<PlacedVirtualService> virtual_services;
};

// One inventory entry ({uuid, url, config: {uuid, name, se_group_ref, enable_state, vs_refs,
// ...}, runtime: {oper_status: {state}, ...}}) as ServiceEnginePlacement. The uuid is the
// entry's, else config.uuid. Internal, naming `what` and the field, when the entry is not an
// object, has no uuid, or a kept field has the wrong type (a vs_ref that is not a
// virtualservice ref included).
absl::StatusOr<ServiceEnginePlacement> ToServiceEnginePlacement(const nlohmann::json& entry,
                                                                std::string_view what);

}  // namespace nsxalb::controller

#endif  // NSXALB_PLUGIN_CONTROLLER_SE_INVENTORY_H_
