// The sizing model as the provider's types see it: reads a `workload` block and the typed sizing
// attributes from a configuration (nsxalb_se_group or nsxalb_se_sizing), runs the model, and turns
// its answer into planned attribute values, the `sizing` object and diagnostics at attribute
// paths. One piece of code for the resource and the data source; no Controller here.
#ifndef NSXALB_PLUGIN_PROVIDER_SE_GROUP_SIZING_H_
#define NSXALB_PLUGIN_PROVIDER_SE_GROUP_SIZING_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "plugin/cty/path.h"
#include "plugin/cty/type.h"
#include "plugin/cty/value.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/sizing/figure.h"
#include "plugin/sizing/profiles.h"
#include "plugin/sizing/recommend.h"
#include "plugin/sizing/validate.h"

namespace nsxalb::provider {

// What an under-sized group is (provider and resource attribute `sizing_policy`).
enum class SizingPolicy {
  kWarn,     // "warn": demand-within-capacity findings are warnings
  kEnforce,  // "enforce": they are errors, so `terraform plan` fails
};

// Parses "warn" or "enforce"; InvalidArgument naming the accepted values otherwise.
absl::StatusOr<SizingPolicy> ParseSizingPolicy(std::string_view text);

// The typed sizing attributes of nsxalb_se_group, in schema order of the Avi fields. Each is
// optional+computed and planned from the recommendation when unset and a workload is given.
const std::vector<std::string>& SizingAttributeNames();

// The `sizing` attribute's cty type (see provider_schema/resources/nsxalb_se_group.json).
cty::Type SizingObjectType();

// One finding of the model, placed on the configuration.
struct PlacedFinding {
  sizing::Finding finding;
  // The attribute it concerns: ".vcpus_per_se", ".workload.ssl_tps_ecc", ...
  cty::AttributePath path;
  // True for the finding kinds whose severity depends on the sizing policy
  // (rule demand-within-capacity).
  bool policy_dependent = false;
};

// The model's answer for one configuration.
struct SizingPlan {
  // False when some input the model needs is unknown (from a variable or another resource):
  // nothing else is set then, and nothing is an error.
  bool known = false;
  // True when the configuration has a workload block.
  bool has_workload = false;
  // Planned values of the sizing attributes the configuration leaves null (by attribute name),
  // only when there is a workload; set attributes are not listed.
  std::map<std::string, cty::Value> recommended;
  // The `sizing` object value; null without a workload.
  cty::Value sizing_object;
  // Every finding, with its path.
  std::vector<PlacedFinding> findings;
  // Input errors that are not model findings (such as a non-integer vcpus_per_se), at their
  // paths. Always errors, whatever the policy.
  framework::Diagnostics input_errors;
};

// Runs the model for `config`, an object with the `workload` block and the sizing attributes of
// nsxalb_se_group (nsxalb_se_sizing has the same names), on `platform`. Settings set in `config`
// are validated against the workload; unset ones are recommended.
SizingPlan PlanSizing(const cty::Value& config, sizing::Platform platform);

// Adds `finding` to `diagnostics` at its path: model errors as errors; policy-dependent findings
// as errors under kEnforce and warnings under kWarn; other warnings as warnings.
void AddFindingDiagnostic(const PlacedFinding& finding, SizingPolicy policy,
                          framework::Diagnostics& diagnostics);

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_SE_GROUP_SIZING_H_
