// The engine's CallFunction: look the function up, check the call, run it, check the result.
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "plugin/framework/provider_server.h"
#include "plugin/framework/value_util.h"

namespace nsxalb::framework {

CallFunctionResult ProviderServer::CallFunction(const std::string& name,
                                                const std::vector<cty::Value>& arguments) {
  CallFunctionResult result;
  auto def = functions_.find(name);
  auto factory = function_factories_.find(name);
  if (def == functions_.end() || factory == function_factories_.end()) {
    result.error =
        FunctionError{absl::StrCat("This provider has no function \"", name, "\"."), std::nullopt};
    return result;
  }
  const FunctionDefinition& definition = def->second;
  const size_t fixed = definition.parameters.size();
  if (arguments.size() < fixed ||
      (arguments.size() > fixed && !definition.variadic_parameter.has_value())) {
    result.error = FunctionError{absl::StrCat("Function \"", name, "\" takes ", fixed,
                                              " arguments; Terraform sent ", arguments.size(), "."),
                                 std::nullopt};
    return result;
  }
  // Terraform itself answers unknown for a call with unknown arguments when the parameter does
  // not allow them; the engine does the same for any other caller, so functions see known values.
  for (size_t i = 0; i < arguments.size(); ++i) {
    const FunctionParameter& p =
        i < fixed ? definition.parameters[i] : *definition.variadic_parameter;
    if (!p.allow_unknown_values && !arguments[i].IsWhollyKnown()) {
      result.result = cty::Value::Unknown(definition.return_type);
      return result;
    }
  }
  std::unique_ptr<Function> function = factory->second();
  CallFunctionRequest request{context(), arguments};
  CallFunctionResponse response;
  response.result = cty::Value::Null(definition.return_type);
  function->Call(request, response);
  if (response.error.has_value()) {
    result.error = std::move(response.error);
    return result;
  }
  if (absl::Status s = cty::CheckConformance(response.result, definition.return_type); !s.ok()) {
    result.error =
        FunctionError{absl::StrCat("The result of function \"", name,
                                   "\" does not conform to its return type: ", s.message(),
                                   ". This is a bug in the provider."),
                      std::nullopt};
    return result;
  }
  if (auto unknown = FirstUnknown(response.result)) {
    result.error =
        FunctionError{absl::StrCat("The result of function \"", name, "\" has an unknown value at ",
                                   unknown->ToString(), ". This is a bug in the provider."),
                      std::nullopt};
    return result;
  }
  result.result = std::move(response.result);
  return result;
}

}  // namespace nsxalb::framework
