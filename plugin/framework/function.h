// The provider-defined function interface (protocol 5.5, Terraform 1.8 and later):
// `provider::NAME::FUNC(args)` in any expression. A function has a definition (parameters, return
// type and descriptions, served in GetProviderSchema.functions and GetFunctions) and a Call.
// Terraform calls functions on an unconfigured provider, so a function must not need the
// provider's configuration. Results must be deterministic: plan and apply compare them.
#ifndef NSXALB_PLUGIN_FRAMEWORK_FUNCTION_H_
#define NSXALB_PLUGIN_FRAMEWORK_FUNCTION_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "plugin/cty/type.h"
#include "plugin/cty/value.h"
#include "plugin/framework/context.h"
#include "plugin/framework/schema.h"

namespace nsxalb::framework {

// One parameter of a function.
struct FunctionParameter {
  std::string name;
  // The type Terraform converts the argument to; Dynamic accepts any value, which then arrives
  // with its own type.
  cty::Type type;
  std::string description;
  DescriptionKind description_kind = DescriptionKind::kPlain;
  // When false (the usual), Terraform reports a null argument itself.
  bool allow_null_value = false;
  // When false (the usual), Terraform does not call the function while this argument is unknown
  // and takes the result as unknown of the return type.
  bool allow_unknown_values = false;
};

// What Terraform needs to know about a function to type-check a call to it.
struct FunctionDefinition {
  std::vector<FunctionParameter> parameters;
  std::optional<FunctionParameter> variadic_parameter;
  cty::Type return_type;
  // One line; the description may be longer.
  std::string summary;
  std::string description;
  DescriptionKind description_kind = DescriptionKind::kPlain;
  // Non-empty for a deprecated function.
  std::string deprecation_message;
};

// A function's failure: Terraform shows `text`, and, with `argument` set, points at that argument
// of the call ("Invalid function argument").
struct FunctionError {
  std::string text;
  // The zero-based index of the argument at fault.
  std::optional<int64_t> argument;
};

// CallFunction: arguments in parameter order, each converted to its parameter's type (a Dynamic
// parameter's argument keeps its own type).
struct CallFunctionRequest {
  Context context;
  std::vector<cty::Value> arguments;
};
struct CallFunctionResponse {
  // Pre-filled with a null of the return type. On success, a wholly known value of that type.
  cty::Value result;
  // Set on failure; the result is then ignored.
  std::optional<FunctionError> error;
};

// A provider-defined function. One instance is made per call by the provider's factory.
class Function {
 public:
  virtual ~Function() = default;

  // The function's definition. Called once when the provider server starts.
  virtual FunctionDefinition Definition() const = 0;
  // Runs the function (CallFunction). Reports bad input as response.error, with the argument.
  virtual void Call(const CallFunctionRequest& request, CallFunctionResponse& response) = 0;
};

// Makes a function instance for one call.
using FunctionFactory = std::function<std::unique_ptr<Function>()>;

// Opt-in provider capability: provider-defined functions.
class ProviderWithFunctions {
 public:
  virtual ~ProviderWithFunctions() = default;
  // Functions by name ("recommend"); called once when the server starts.
  virtual std::map<std::string, FunctionFactory> Functions() = 0;
};

}  // namespace nsxalb::framework

#endif  // NSXALB_PLUGIN_FRAMEWORK_FUNCTION_H_
