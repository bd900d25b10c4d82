// The sizing model as the provider's types see it: reads a `workload` block and the typed sizing
// attributes from a configuration (nsxalb_se_group or nsxalb_se_sizing) into the domain's input,
// runs segroup::PlanSizing (plugin/segroup/sizing_plan.h says what is read, recommended and
// found), and turns its answer into planned attribute values, the `sizing` object and diagnostics
// at attribute paths. Only the conversion between cty values and the domain lives here; the
// Ansible modules' desired-state command calls the same segroup::PlanSizing.
//
// Unknown values: a model input that is unknown (from a variable or another resource) makes the
// whole plan unknown; max_se, min_se and se_name_prefix, which the model does not need, are then
// neither recommended nor checked.
#ifndef NSXALB_PLUGIN_PROVIDER_SE_GROUP_SIZING_H_
#define NSXALB_PLUGIN_PROVIDER_SE_GROUP_SIZING_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "plugin/cty/path.h"
#include "plugin/cty/type.h"
#include "plugin/cty/value.h"
#include "plugin/framework/diagnostics.h"
#include "plugin/segroup/sizing_plan.h"
#include "plugin/sizing/figure.h"
#include "plugin/sizing/profiles.h"
#include "plugin/sizing/recommend.h"
#include "plugin/sizing/validate.h"

namespace nsxalb::provider {

// The names of the sizing inputs that nsxalb_se_group, nsxalb_se_sizing and the provider
// functions share: the platform attribute and the workload block (or object).
inline constexpr char kPlatformAttribute[] = "platform";
inline constexpr char kWorkloadAttribute[] = "workload";

// The `sizing` attribute's cty type (see provider_schema/resources/nsxalb_se_group.json).
cty::Type SizingObjectType();

// The attributes of the `sizing` object that are figures of the sizing (profile, se_count,
// binding_metric, utilization_pct, basis, service_units): what it describes. The others (summary,
// findings) are the provider's wording of it, which a release may change.
const std::vector<std::string>& SizingFigureNames();

// True when `a` and `b`, two wholly known, non-null `sizing` objects, hold equal figures
// (SizingFigureNames), whatever their wording. False when either is null or not wholly known.
bool SameSizingFigures(const cty::Value& a, const cty::Value& b);

// One finding of the model, placed on the configuration.
struct PlacedFinding {
  sizing::Finding finding;
  // The attribute it concerns: ".vcpus_per_se", ".workload.ssl_tps_ecc", ...
  cty::AttributePath path;
  // True for the finding kinds whose severity depends on the sizing policy: the under-sizing rules
  // (sizing::rules::IsUnderSizing).
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
  // The `sizing` object value; null without a workload or when there is an error (an input error
  // or an error finding), unknown when `known` is false and there is a workload.
  cty::Value sizing_object;
  // The demanded metrics on the planned SEs, in metric order (base units); empty when
  // `sizing_object` is null.
  std::vector<sizing::MetricLoad> loads;
  // Every finding, with its path.
  std::vector<PlacedFinding> findings;
  // Input errors that are not model findings (such as a non-integer vcpus_per_se), at their
  // paths. Always errors, whatever the policy.
  framework::Diagnostics input_errors;
  // For reports (the `plan-report` command), when `known` and there is a workload without errors:
  // the model's workload input, the planned SEs as sizing::RecommendForShape describes them, and
  // the recommendation for the workload whatever the settings say.
  std::optional<sizing::Workload> workload;
  std::optional<sizing::Recommendation> planned_shape;
  std::optional<sizing::Recommendation> recommendation;
  // The workload as the domain reads it (segroup::SizingInput::workload), when `known`; null
  // without a workload.
  nlohmann::json workload_json = nullptr;
};

// Runs the model for `config`, an object with the `workload` block and the sizing attributes of
// nsxalb_se_group (nsxalb_se_sizing has the same names), on `platform`. Settings set in `config`
// are validated against the workload; unset ones are recommended.
SizingPlan PlanSizing(const cty::Value& config, sizing::Platform platform);

// A domain finding at the path of its attribute ("workload.l7_rps" is .workload.l7_rps, "" the
// root).
PlacedFinding Placed(segroup::Finding finding);

// Adds `placed` to `diagnostics` at its path: model errors as errors; policy-dependent findings
// as errors under kEnforce and warnings under kWarn; other warnings as warnings.
//
// `enforce_waived`, when not empty, says why the operation at hand must not fail on sizing even
// under kEnforce (a plan that leaves the group unchanged, such as the refresh plan that begins
// `terraform destroy`; a data source, which Terraform reads in that refresh too): the
// policy-dependent finding is then a warning, and its detail ends with that sentence. See
// docs/design/se-group-resource.md, "The enforce gate".
void AddFindingDiagnostic(const PlacedFinding& placed, segroup::SizingPolicy policy,
                          framework::Diagnostics& diagnostics,
                          std::string_view enforce_waived = {});

// The attribute path of an attribute name the model uses in findings: a sizing attribute is
// itself; se_count is .min_scaleout_per_vs; "workload" and "workload.<key>" are the workload block
// and its attribute (the root without a workload); anything else is the workload block, or the
// root without a workload.
cty::AttributePath PathOfModelAttribute(std::string_view attribute, bool has_workload);

// Where a finding about the workload as a whole, or about a setting the sizing plans, is shown:
// on the workload's demanded key with the highest utilization on the planned SEs, so that
// Terraform points at a line inside the workload block (a path to the block itself shows the
// resource's first line); "workload" without demand.
std::string WorkloadLine(const SizingPlan& plan);

// A finding as one line of the `findings` lists: "warning [vcpus_per_se] demand-within-capacity:
// <summary>. <detail>", with the attribute as the configuration names it
// ("min_scaleout_per_vs", "workload.l7_rps"), and the model's severity.
std::string FindingText(const PlacedFinding& finding);

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_SE_GROUP_SIZING_H_
