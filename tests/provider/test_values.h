// Values the provider tests build, in one place for every test file of tests/provider: cty
// literals (S("web"), N(2), F(0.5)), the path of a top-level attribute, and the nsxalb_se_group
// resource's schema block as the provider embeds it.
#ifndef NSXALB_TESTS_PROVIDER_TEST_VALUES_H_
#define NSXALB_TESTS_PROVIDER_TEST_VALUES_H_

#include <cstdint>
#include <string>

#include "plugin/cty/path.h"
#include "plugin/cty/value.h"
#include "plugin/framework/schema.h"
#include "plugin/provider/provider.h"
#include "plugin/provider/se_group_resource.h"

namespace nsxalb::provider {

// A known string.
inline cty::Value S(const std::string& s) { return cty::Value::String(s); }

// A known whole number.
inline cty::Value N(int64_t n) { return cty::Value::Int(n); }

// A known number with a fraction.
inline cty::Value F(double x) { return cty::Value::Float(x); }

// The path of the top-level attribute `name`.
inline cty::AttributePath At(const std::string& name) {
  return cty::AttributePath().Attribute(name);
}

// The nsxalb_se_group resource's schema block, as the provider embeds it.
inline const framework::Block& SeGroupBlock() {
  return EmbeddedResourceSchema(kSeGroupResourceType).block;
}

}  // namespace nsxalb::provider

#endif  // NSXALB_TESTS_PROVIDER_TEST_VALUES_H_
