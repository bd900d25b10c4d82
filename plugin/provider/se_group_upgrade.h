// The schema versions of nsxalb_se_group's state, and the upgrade of each earlier one to the
// current version (UpgradeResourceState). Terraform calls the upgrade for every stored instance
// before any other RPC that uses its state, with the version the state file records.
//
//   version 0: every 0.1.0 build. Those builds only ever added attributes (max_vs_per_se,
//              max_cpu_usage, the observed_load block), never removed or retyped one, so a
//              version-0 state holds a subset of the attributes kVersion0Attributes lists, with
//              their current types. What it lacks was not there when it was written: null, and
//              the refresh that follows fills the Controller's fields (max_cpu_usage) from the
//              group.
//   version 1: 0.2.0: version 0's attributes, the licence settings max_num_se_dps and per_app
//              (null from version 0: the refresh that follows reads them from the group), and
//              observed_load.forecast_days (null from version 0), and
//              sizing.service_units, which the step from version 0 fills with what today's plan
//              computes from the recorded vcpus_per_se and max_se, so that the plan keeps the
//              recorded sizing (docs/design/se-group-resource.md, "Upgrades plan no change").
//   version 2: issue 39: version 1's attributes and service_engines (computed: the group's running
//              SEs against its settings), null from version 1; the refresh that follows reads it,
//              and a plan keeps what the refresh read, so the upgrade plans no change.
//
// Every release that changes the state's shape bumps "version" in
// provider_schema/resources/nsxalb_se_group.json and adds its step here; the upgrade fixtures
// (tests/upgrade) replay the state each release wrote. CONTRIBUTING.md, "Releases", says how.
#ifndef NSXALB_PLUGIN_PROVIDER_SE_GROUP_UPGRADE_H_
#define NSXALB_PLUGIN_PROVIDER_SE_GROUP_UPGRADE_H_

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "plugin/cty/value.h"
#include "plugin/framework/schema.h"

namespace nsxalb::provider {

// The state `json` (a state file's "attributes" object) written with schema version `version`,
// as a value of the current schema `block`. InvalidArgument naming the attribute for a state that
// version never wrote (an attribute it did not have, a value of another type);
// FailedPrecondition for a version without an upgrade (the current one, or a newer one).
absl::StatusOr<cty::Value> UpgradeSeGroupState(const framework::Block& block, int64_t version,
                                               std::string_view json);

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_SE_GROUP_UPGRADE_H_
