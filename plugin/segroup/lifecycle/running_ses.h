// The Service Engines a group runs, from the one listing of its tenant's SEs that a process
// shares (SharedSeListing: one paged GET /api/serviceengine for every group and front end, never a
// request per group or per SE). No Terraform types.
#ifndef NSXALB_PLUGIN_SEGROUP_LIFECYCLE_RUNNING_SES_H_
#define NSXALB_PLUGIN_SEGROUP_LIFECYCLE_RUNNING_SES_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "plugin/common/once_per_key.h"
#include "plugin/controller/client.h"

namespace nsxalb::segroup::lifecycle {

// One SE of a group as the Controller runs it: its real shape and state.
struct RunningSe {
  std::string uuid;
  std::string name;
  int vcpus = 0;                // resources.num_vcpus; 0 when the Controller gives none (unknown)
  int64_t memory_mb = 0;        // resources.memory; 0: unknown
  int64_t disk_gb = 0;          // resources.disk; 0: unknown
  std::string enable_state;     // "" unknown
  std::string oper_state;       // runtime.oper_status.state; "" unknown
  bool reboot_pending = false;  // runtime.se_grp_reboot_pending; unknown counts as false
};

// The SEs of `tenant_ses` (a tenant's listing) whose se_group_ref names the group `group_uuid`,
// sorted by name (then uuid).
std::vector<RunningSe> RunningSesOf(const std::vector<controller::ServiceEngine>& tenant_ses,
                                    std::string_view group_uuid);

// The tenant's SE listing (controller::Client::ListTenantServiceEngines), fetched at most once
// per tenant for the life of this object (common::OncePerKey: concurrent callers wait for the one
// in flight; a failure is not kept). A provider process owns one and every resource and data
// source reads through it.
class SharedSeListing {
 public:
  using Listing = std::vector<controller::ServiceEngine>;

  // The listing of `tenant` ("" the client's default tenant), fetched with `client` by the first
  // caller.
  absl::StatusOr<std::shared_ptr<const Listing>> Get(controller::Client& client,
                                                     std::string_view tenant);

  // The running SEs of one group: RunningSesOf the tenant's listing.
  absl::StatusOr<std::vector<RunningSe>> GroupSes(controller::Client& client,
                                                  std::string_view tenant,
                                                  std::string_view group_uuid);

  // How many listings of `tenant` were fetched (for tests).
  uint64_t Fetches(std::string_view tenant) { return cache_.Fetches(std::string(tenant)); }

 private:
  common::OncePerKey<Listing> cache_;
};

}  // namespace nsxalb::segroup::lifecycle

#endif  // NSXALB_PLUGIN_SEGROUP_LIFECYCLE_RUNNING_SES_H_
