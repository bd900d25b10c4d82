// The sizing model as the provider's types see it: reads a `workload` block and the typed sizing
// attributes from a configuration (nsxalb_se_group or nsxalb_se_sizing), runs the model, and turns
// its answer into planned attribute values, the `sizing` object and diagnostics at attribute
// paths. One piece of code for the resource and the data source; no Controller here.
//
// Inputs. Workload numbers are in display units (Gbps for throughput; the model works in Mbps).
// Counts (vcpus_per_se, memory_per_se, ..., workload.target_utilization) must be whole numbers
// that fit the model's integers; anything else is an input error at its path. Ranges are the
// model's own findings (sizing::CheckWorkload, sizing::Validate), never checked here.
// min_scaleout_per_vs is the model's se_count (active SEs a virtual service is placed on) when the
// workload is one virtual service (workload.virtual_services unset or 1); with several, placement
// spreads them, and the model chooses the active SEs. max_se is a setting checked against the HA
// mode and the virtual-service slots. buffer_se, max_scaleout_per_vs, max_vs_per_se, ha_mode and
// workload.virtual_services are workload inputs (an ha_mode outside Avi's three values is an input
// error at ha_mode). An unset max_scaleout_per_vs is taken as its upper bound (64) for the model,
// so that it warns only about what the planned value below cannot cover.
//
// The planned shape is sizing::Validate's effective shape: with no vcpus_per_se, memory_per_se or
// min_scaleout_per_vs set, the recommendation's; otherwise the set values, with vCPUs and SE count
// taken from the recommendation when vcpus_per_se is unset, SE count 1 (Avi's min_scaleout_per_vs
// default) when vcpus_per_se is set and min_scaleout_per_vs is not, and the table memory for the
// vCPUs when vcpus_per_se is set and memory_per_se is not. So the findings and the planned values
// describe the same SEs: set vcpus_per_se = 4 and the planned memory, disk, dispatchers, queues and
// Hybrid RSS are those the recommendation gives 4-vCPU SEs (sizing::RecommendForShape), and the
// findings say whether 1 SE of 4 vCPUs carries the workload.
//
// Planned values of unset attributes (only with a workload): the settings of the recommendation
// for that shape; min_scaleout_per_vs = the SEs each virtual service is placed on
// (sizing::ScaleoutPerVs: all active SEs for one virtual service); buffer_se and max_se as the HA
// mode gives them (N+M: the workload's buffer_se, default 1, and SE count + buffer_se;
// active/active: 0 and the SE count; legacy active/standby: 0 and 2); ha_mode and max_vs_per_se =
// the workload's (Avi's defaults HA_MODE_SHARED and 10); max_scaleout_per_vs = max(Avi's default
// 4, min_scaleout_per_vs); min_scaleout_per_vs and max_scaleout_per_vs at most 64 (Avi's range; a
// workload that needs more SEs gets the model's max-scaleout-per-vs warning); min_se and
// se_name_prefix = the Controller's defaults from the field catalog (controller/se_group_fields.h).
//
// The `sizing` object's binding_metric is "cpu" when the CPU budget of two or more CPU-bound
// metrics binds (sizing/cpu_budget.h), and its utilization_pct is then the budget's sum.
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

// Parses "warn" or "enforce" (exactly); InvalidArgument naming the accepted values otherwise.
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
};

// Runs the model for `config`, an object with the `workload` block and the sizing attributes of
// nsxalb_se_group (nsxalb_se_sizing has the same names), on `platform`. Settings set in `config`
// are validated against the workload; unset ones are recommended.
SizingPlan PlanSizing(const cty::Value& config, sizing::Platform platform);

// Adds `finding` to `diagnostics` at its path: model errors as errors; policy-dependent findings
// as errors under kEnforce and warnings under kWarn; other warnings as warnings.
//
// `enforce_waived`, when not empty, says why the operation at hand must not fail on sizing even
// under kEnforce (a plan that leaves the group unchanged, such as the refresh plan that begins
// `terraform destroy`; a data source, which Terraform reads in that refresh too): the
// policy-dependent finding is then a warning, and its detail ends with that sentence. See
// docs/design/se-group-resource.md, "The enforce gate".
void AddFindingDiagnostic(const PlacedFinding& finding, SizingPolicy policy,
                          framework::Diagnostics& diagnostics,
                          std::string_view enforce_waived = {});

// The attribute path of an attribute name the model uses in findings: a sizing attribute is
// itself; se_count is .min_scaleout_per_vs; "workload" and "workload.<key>" are the workload block
// and its attribute (the root without a workload); anything else is the workload block, or the
// root without a workload.
cty::AttributePath PathOfModelAttribute(std::string_view attribute, bool has_workload);

// A finding as one line of the `findings` lists: "warning [vcpus_per_se] demand-within-capacity:
// <summary>. <detail>", with the attribute as the configuration names it
// ("min_scaleout_per_vs", "workload.l7_rps"), and the model's severity.
std::string FindingText(const PlacedFinding& finding);

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_SE_GROUP_SIZING_H_
