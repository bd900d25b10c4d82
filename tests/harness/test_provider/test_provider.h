// nsxalb-test-provider's provider: resource and data source "nsxalbtest_thing" over a directory
// of JSON files (the "remote API", so state survives across provider processes). Not shipped.
#ifndef NSXALB_TESTS_HARNESS_TEST_PROVIDER_TEST_PROVIDER_H_
#define NSXALB_TESTS_HARNESS_TEST_PROVIDER_TEST_PROVIDER_H_

#include <memory>

#include "plugin/cty/type.h"
#include "plugin/framework/provider.h"

namespace nsxalb::test_provider {

// The provider's Terraform address (debug mode prints it).
inline constexpr char kAddress[] = "registry.terraform.io/nsxalb/nsxalbtest";

// The type of an nsxalbtest_thing object: its schema's implied type (the wrapper of misbehave.h
// decodes and re-encodes the framework's answers with it).
cty::Type ThingType();

// Returns the test provider.
std::shared_ptr<framework::Provider> NewTestProvider();

}  // namespace nsxalb::test_provider

#endif  // NSXALB_TESTS_HARNESS_TEST_PROVIDER_TEST_PROVIDER_H_
