// nsxalb-test-provider: a NOT-shipped provider for the integration harness, served by the same
// host and framework as terraform-provider-nsxalb. `--debug` serves for TF_REATTACH_PROVIDERS.
// NSXALB_TEST_MISBEHAVE=<mode> makes it break a protocol rule on purpose (misbehave.h).
#include <cstdlib>
#include <iostream>
#include <string>

#include "plugin/host/serve.h"
#include "plugin/wire/provider_service.h"
#include "tests/harness/test_provider/misbehave.h"
#include "tests/harness/test_provider/test_provider.h"

int main(int argc, char** argv) {
  nsxalb::host::HostOptions options;
  options.provider_address = nsxalb::test_provider::kAddress;
  const std::string arg = argc > 1 ? argv[1] : "";
  if (arg == "--debug") {
    options.debug = true;
  } else if (!arg.empty()) {
    std::cerr << "nsxalb-test-provider: unknown argument \"" << arg << "\"; only --debug\n";
    return 2;
  }
  const char* mode = std::getenv("NSXALB_TEST_MISBEHAVE");
  auto service = nsxalb::test_provider::WrapMisbehaving(
      nsxalb::wire::NewProviderService(nsxalb::test_provider::NewTestProvider()),
      mode == nullptr ? "" : mode);
  if (service == nullptr) {
    std::cerr << "nsxalb-test-provider: unknown NSXALB_TEST_MISBEHAVE mode \"" << mode << "\"\n";
    return 2;
  }
  return nsxalb::host::Serve(service.get(), options);
}
