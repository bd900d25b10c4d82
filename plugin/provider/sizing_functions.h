// The provider-defined functions (Terraform 1.8 and later): the sizing model in any expression,
// without a Controller or a provider configuration.
//
//   provider::nsxalb::recommend(platform, workload)          what nsxalb_se_sizing returns for a
//                                                             workload: every recommended setting
//                                                             under the resource's attribute
//                                                             names, se_count, binding_metric,
//                                                             basis, summary, findings, metrics
//   provider::nsxalb::capacity(platform, vcpus)               one SE's capacity per metric, each
//                                                             with its basis
//   provider::nsxalb::check(platform, settings, workload)     the findings for hand-set settings,
//                                                             as plan reports them, and ok
//
// The functions are thin adapters: recommend runs the nsxalb_se_sizing data source's Read,
// check runs PlanSizing (se_group_sizing.h) on the same configuration shape, and capacity runs
// sizing::CapacityOf; so their figures are those of the data source, the resource and
// `size --json`. Bad input (an unknown platform, an unknown workload or settings key, a value of
// the wrong type, a negative or non-finite demand, an input error of the model) is a
// FunctionError at that argument, with the accepted values.
#ifndef NSXALB_PLUGIN_PROVIDER_SIZING_FUNCTIONS_H_
#define NSXALB_PLUGIN_PROVIDER_SIZING_FUNCTIONS_H_

#include <map>
#include <string>

#include "plugin/framework/function.h"

namespace nsxalb::provider {

// The three functions by name ("recommend", "capacity", "check"), for the provider's
// Functions().
std::map<std::string, framework::FunctionFactory> SizingFunctions();

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_SIZING_FUNCTIONS_H_
