// The apply engine: dispatches to Create, Update or Delete and checks the result against
// Terraform's apply rules (no unknowns, every known planned value kept, null after destroy).
#include "absl/strings/str_cat.h"
#include "plugin/framework/plan.h"
#include "plugin/framework/provider_server.h"
#include "plugin/framework/value_util.h"

namespace nsxalb::framework {
namespace {

// Checks a create/update result; adds errors and returns the state to hand to Terraform.
cty::Value CheckApplied(const std::string& type_name, const Schema& schema,
                        const cty::Value& planned, const cty::Value& actual, Diagnostics& diags) {
  const cty::Type type = ImpliedType(schema.block);
  if (actual.IsNull()) {
    diags.AddError("Provider returned invalid result object after apply",
                   absl::StrCat("After applying changes to ", type_name,
                                ", the provider returned a null object. This is a bug in the "
                                "provider."));
    return actual;
  }
  if (absl::Status s = cty::CheckConformance(actual, type); !s.ok()) {
    diags.AddStatusError("Provider produced invalid object",
                         absl::StrCat("The new state of ", type_name,
                                      " does not conform to the schema: ", s.message(),
                                      ". This is a bug in the provider."),
                         s);
    return cty::Value::Null(type);
  }
  if (auto unknown = FirstUnknown(actual)) {
    diags.AddAttributeError(
        *unknown, "Provider returned invalid result object after apply",
        absl::StrCat("After applying changes to ", type_name,
                     ", the provider still indicated an unknown value for ", unknown->ToString(),
                     ". All values must be known after apply. This is a bug in the provider."));
  }
  plan::AssertObjectCompatible(absl::StrCat("applying changes to ", type_name), schema.block,
                               planned, actual, diags);
  return NormalizeBlocks(schema.block, cty::UnknownAsNull(actual));
}

// The state to keep after a Create or Update that reported an error: the object the resource
// assigned to its new state (a partial result, with unknowns as null) when it is a conforming
// non-null object, otherwise `fallback` (null after a create, the prior state after an update).
// A state the resource left as pre-filled is never kept: the plan describes no real object, even
// when it is wholly known.
cty::Value StateAfterFailedWrite(const NewState& returned, const cty::Type& type,
                                 const cty::Value& fallback) {
  if (!returned.assigned() || returned.IsNull() || !cty::CheckConformance(returned, type).ok()) {
    return fallback;
  }
  return cty::UnknownAsNull(returned);
}

}  // namespace

ApplyResourceChangeResult ProviderServer::ApplyResourceChange(const std::string& type_name,
                                                              const cty::Value& prior_state,
                                                              const cty::Value& planned_state,
                                                              const cty::Value& config,
                                                              const std::string& planned_private) {
  ApplyResourceChangeResult result;
  result.private_data = planned_private;
  const Schema* schema = nullptr;
  std::unique_ptr<Resource> resource = NewResource(type_name, &schema, result.diagnostics);
  if (resource == nullptr) return result;
  const cty::Type type = ImpliedType(schema->block);
  result.new_state = cty::Value::Null(type);

  if (planned_state.IsNull()) {  // destroy
    if (prior_state.IsNull()) return result;
    DeleteRequest request{context(), prior_state, planned_private};
    DeleteResponse response;
    resource->Delete(request, response);
    result.diagnostics.Append(response.diagnostics);
    if (result.diagnostics.HasError()) result.new_state = prior_state;  // still exists
    if (!result.diagnostics.HasError()) result.private_data.clear();
    return result;
  }
  if (!planned_state.IsKnown()) {
    result.diagnostics.AddError(
        "Invalid apply request",
        absl::StrCat("Terraform sent an unknown planned state for ", type_name, "."));
    result.new_state = prior_state;
    return result;
  }

  if (prior_state.IsNull()) {  // create
    CreateRequest request{context(), config, planned_state, planned_private};
    CreateResponse response;
    response.new_state = NewState::Prefilled(planned_state);
    response.private_data = planned_private;
    resource->Create(request, response);
    result.diagnostics.Append(response.diagnostics);
    result.private_data = response.private_data;
    if (result.diagnostics.HasError()) {
      // Nothing known to exist, or the partially created object.
      result.new_state = StateAfterFailedWrite(response.new_state, type, cty::Value::Null(type));
      return result;
    }
    result.new_state =
        CheckApplied(type_name, *schema, planned_state, response.new_state, result.diagnostics);
    return result;
  }

  // update
  UpdateRequest request{context(), config, planned_state, prior_state, planned_private};
  UpdateResponse response;
  response.new_state = NewState::Prefilled(planned_state);
  response.private_data = planned_private;
  resource->Update(request, response);
  result.diagnostics.Append(response.diagnostics);
  result.private_data = response.private_data;
  if (result.diagnostics.HasError()) {
    // Nothing known to have changed, or the partially updated object.
    result.new_state = StateAfterFailedWrite(response.new_state, type, prior_state);
    return result;
  }
  result.new_state =
      CheckApplied(type_name, *schema, planned_state, response.new_state, result.diagnostics);
  if (result.new_state.IsNull()) result.new_state = prior_state;
  return result;
}

}  // namespace nsxalb::framework
