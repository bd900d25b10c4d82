// nsxalb-test-provider's provider: resource and data source "nsxalbtest_thing" over a directory
// of JSON files (the "remote API", so state survives across provider processes). Not shipped.
#ifndef NSXALB_TESTS_HARNESS_TEST_PROVIDER_TEST_PROVIDER_H_
#define NSXALB_TESTS_HARNESS_TEST_PROVIDER_TEST_PROVIDER_H_

#include <memory>

#include "plugin/framework/provider.h"

namespace nsxalb::test_provider {

// The provider's Terraform address (debug mode prints it).
inline constexpr char kAddress[] = "registry.terraform.io/nsxalb/nsxalbtest";

// Returns the test provider.
std::shared_ptr<framework::Provider> NewTestProvider();

}  // namespace nsxalb::test_provider

#endif  // NSXALB_TESTS_HARNESS_TEST_PROVIDER_TEST_PROVIDER_H_
