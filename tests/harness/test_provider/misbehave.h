// Deliberate protocol violations for the harness's negative tests. NSXALB_TEST_MISBEHAVE names
// one; the wrapper then corrupts the answers of nsxalbtest_thing after the (correct) framework
// produced them, the way a buggy provider would. Test-only: like the wire layer, this file
// handles tfplugin5 messages directly.
#ifndef NSXALB_TESTS_HARNESS_TEST_PROVIDER_MISBEHAVE_H_
#define NSXALB_TESTS_HARNESS_TEST_PROVIDER_MISBEHAVE_H_

#include <memory>
#include <string>

#include "proto/tfplugin5.grpc.pb.h"

namespace nsxalb::test_provider {

// Supported values of NSXALB_TEST_MISBEHAVE:
//   invalid_plan         PlanResourceChange plans "name" different from the configuration
//   inconsistent_apply   ApplyResourceChange (create/update) changes the planned "description"
//   unknown_after_apply  ApplyResourceChange leaves "created_at" unknown
//   destroy_non_null     ApplyResourceChange for a destroy returns the prior state
//   missing_attribute    ApplyResourceChange and ReadResource omit the "description" attribute
// Returns `inner` itself when `mode` is empty; nullptr for an unknown mode.
std::unique_ptr<tfplugin5::Provider::Service> WrapMisbehaving(
    std::unique_ptr<tfplugin5::Provider::Service> inner, const std::string& mode);

}  // namespace nsxalb::test_provider

#endif  // NSXALB_TESTS_HARNESS_TEST_PROVIDER_MISBEHAVE_H_
