// The sizing model as an SE group's settings see it: reads a workload and the sizing settings
// (by Avi field name, as JSON), runs the model, and answers with the settings it recommends, the
// `sizing` summary and the findings, each placed on the setting it concerns. One piece of code
// for every front end: the Terraform resource and data source (plugin/provider adapts cty values
// to it) and the desired-state command the Ansible modules call (plugin/cli). No Controller here.
//
// Inputs. Workload numbers are in display units (Gbps for throughput; the model works in Mbps).
// Counts (vcpus_per_se, memory_per_se, ..., workload.target_utilization) must be whole numbers
// that fit the model's integers; anything else is an input error at its attribute. Ranges are the
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
// Recommended values of unset settings (only with a workload): the settings of the recommendation
// for that shape; min_scaleout_per_vs = the SEs each virtual service is placed on
// (sizing::ScaleoutPerVs: all active SEs for one virtual service); buffer_se and max_se as the HA
// mode gives them (N+M: the workload's buffer_se, default 1, and SE count + buffer_se;
// active/active: 0 and the SE count; legacy active/standby: 0 and 2); ha_mode and max_vs_per_se =
// the workload's (Avi's defaults HA_MODE_SHARED and 10); max_scaleout_per_vs = max(Avi's default
// 4, min_scaleout_per_vs); min_scaleout_per_vs and max_scaleout_per_vs at most 64 (Avi's range; a
// workload that needs more SEs gets the model's max-scaleout-per-vs warning); min_se and
// se_name_prefix = the Controller's defaults from the field catalog (controller/se_group_fields.h).
//
// The summary's binding_metric is "cpu" when the CPU budget of two or more CPU-bound metrics
// binds (sizing/cpu_budget.h), and its utilization_pct is then the budget's sum.
#ifndef NSXALB_PLUGIN_SEGROUP_SIZING_PLAN_H_
#define NSXALB_PLUGIN_SEGROUP_SIZING_PLAN_H_

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "plugin/sizing/figure.h"
#include "plugin/sizing/profiles.h"
#include "plugin/sizing/recommend.h"
#include "plugin/sizing/validate.h"

namespace nsxalb::segroup {

// What an under-sized group is (the `sizing_policy` of the provider, the resource and the
// Ansible module).
enum class SizingPolicy {
  kWarn,     // "warn": demand-within-capacity findings are warnings
  kEnforce,  // "enforce": they are errors for an operation that creates or changes the group
};

// Parses "warn" or "enforce" (exactly); InvalidArgument naming the accepted values otherwise.
absl::StatusOr<SizingPolicy> ParseSizingPolicy(std::string_view text);

// The sizing settings of an SE group, in the order of the Avi fields: the settings the model
// reads or recommends. Each is recommended when unset and a workload is given.
const std::vector<std::string>& SizingAttributeNames();

// The settings that set what an SE costs in licences (Avi max_num_se_dps and per_app,
// sizing/service_units.h), in the order of the Avi fields. The model reads them (the sizing's
// service_units; per_app also plans max_vs_per_se = 2) but never recommends them: unset, a group
// keeps the Controller's value, which for a new group is one data-path process per vCPU and not
// per-app.
const std::vector<std::string>& LicenceAttributeNames();

// The licence settings of a group from its settings by Avi field name: max_num_se_dps when it is a
// whole number within int, per_app when it is true; anything else, or null, counts as unset.
sizing::ServiceUnitSettings LicenceSettingsOf(const nlohmann::json& settings);

// What a group of `settings` (by Avi field name: vcpus_per_se, max_se, max_num_se_dps, per_app;
// null members unset) costs at its scale in Service Units (rule service-units-at-planned-scale):
// one SE's SUs times max_se. Unset when vcpus_per_se or max_se is not a whole number >= 0. The
// sizing's service_units for a planned group, and what plan-report and a state upgrade count.
std::optional<double> ServiceUnitsOfSettings(const nlohmann::json& settings);

// The keys a workload may have: every metric key (sizing::MetricFromKey), target_utilization,
// max_vcpus_per_se and virtual_services.
bool IsWorkloadAttribute(std::string_view name);

// What to size: the settings given and the workload.
struct SizingInput {
  // The settings given, by Avi field name (a JSON object; a null member counts as unset).
  nlohmann::json settings = nlohmann::json::object();
  // Settings that are set but whose value is not known yet (a Terraform value known only after
  // apply) and that the model does not read (max_se, min_se, se_name_prefix): never recommended,
  // never checked.
  std::set<std::string> opaque_settings;
  // The workload by its keys (a JSON object), or null without one.
  nlohmann::json workload = nullptr;
};

// One finding of the model, placed on the setting it concerns.
struct Finding {
  sizing::Finding finding;
  // The setting or workload key it concerns, as the configuration names it: "vcpus_per_se",
  // "workload.ssl_tps_ecc", "workload" (the workload as a whole), or "" (the group as a whole).
  std::string attribute;
  // True for the finding kinds whose severity depends on the sizing policy: the under-sizing rules
  // (sizing::rules::IsUnderSizing).
  bool policy_dependent = false;
};

// An input the model cannot take (such as a non-integer vcpus_per_se). Always an error.
struct InputError {
  std::string attribute;  // as Finding::attribute; "" for the group as a whole
  std::string summary;
  std::string detail;
};

// The `sizing` summary of a plan with a workload (the resource's computed `sizing` object).
struct SizingSummary {
  std::string profile;                        // "vcenter" or "nsxt"
  int se_count = 0;                           // active SEs
  std::optional<std::string> binding_metric;  // the metric key, or "cpu"
  std::optional<double> utilization_pct;      // of the binding metric, to a tenth
  std::string basis;                          // the weakest basis of the figures used
  // What the planned group costs in Service Units (rule service-units-at-planned-scale): the SUs
  // of one planned SE times the SEs max_se is planned to. Unset while max_se is not known.
  std::optional<double> service_units;
  std::string summary;                // "1 SE of 6 vCPUs carries ..."
  std::vector<std::string> findings;  // FindingText of every finding
};

// The summary as a JSON object with the resource's attribute names (null members for an unset
// binding_metric, utilization_pct and service_units).
nlohmann::json SizingSummaryJson(const SizingSummary& summary);

// The model's answer for one input.
struct SizingPlan {
  // True when the input has a workload.
  bool has_workload = false;
  // Recommended values of the sizing settings the input leaves unset (by Avi field name), only
  // when there is a workload.
  std::map<std::string, nlohmann::json> recommended;
  // Set with a workload and no error (input error or error finding).
  std::optional<SizingSummary> summary;
  // The demanded metrics on the planned SEs, in metric order (base units); empty without a
  // summary.
  std::vector<sizing::MetricLoad> loads;
  // Every finding.
  std::vector<Finding> findings;
  // Input errors that are not model findings.
  std::vector<InputError> input_errors;
  // For reports (the `plan-report` command), with a workload and without errors: the model's
  // workload input, the planned SEs as sizing::RecommendForShape describes them, and the
  // recommendation for the workload whatever the settings say.
  std::optional<sizing::Workload> workload;
  std::optional<sizing::Recommendation> planned_shape;
  std::optional<sizing::Recommendation> recommendation;
};

// Runs the model for `input` on `platform`. Settings given are validated against the workload;
// unset ones are recommended.
SizingPlan PlanSizing(const SizingInput& input, sizing::Platform platform);

// The weakest basis of the figures a shape the model judged (sizing::RecommendForShape) rests on:
// the capacity of each demanded metric and the table memory of the size.
sizing::Basis ShapeBasis(const sizing::Recommendation& shape);

// The summary line of a shape the model judged (sizing::RecommendForShape), with the weakest basis
// of the figures it rests on: "1 SE of 6 vCPUs carries 150,000 L7 RPS at 73.2% (measured)", "3 SEs
// of 4 vCPUs would run 300,000 L7 RPS + 6,000 ECC SSL TPS at 95.1% CPU, over the 80% target
// (interpolated)". The `sizing` summary's wording.
std::string ShapeSummary(const sizing::Recommendation& shape);

// The attribute a finding of the model concerns (Finding::attribute): a sizing setting is itself;
// se_count is min_scaleout_per_vs; "workload" and "workload.<key>" are the workload and its key
// ("" without a workload); anything else is the workload, or "" without a workload.
std::string AttributeOfModel(std::string_view attribute, bool has_workload);

// A finding as one line of the `findings` lists: "warning [vcpus_per_se] demand-within-capacity:
// <summary>. <detail>", with the attribute as the configuration names it, and the model's
// severity.
std::string FindingText(const Finding& finding);

// The enforce gate (docs/design/se-group-resource.md, "The enforce gate"): whether `finding` is an
// error for an operation under `policy`. Model errors always are; a policy-dependent finding is
// under kEnforce unless `waived` (the operation leaves the group unchanged, or only reads);
// everything else is a warning.
bool FindingIsError(const Finding& finding, SizingPolicy policy, bool waived);

}  // namespace nsxalb::segroup

#endif  // NSXALB_PLUGIN_SEGROUP_SIZING_PLAN_H_
