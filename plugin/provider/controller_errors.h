// Errors of Controller calls as diagnostics, in one place for the resource and the data sources.
// A set-up problem (the Controller unreachable, its certificate untrusted, the login rejected;
// see controller/errors.h) is about the provider block, not the attribute being worked on: it gets
// its own summary, no attribute path, and the client's remedy as the explanation.
#ifndef NSXALB_PLUGIN_PROVIDER_CONTROLLER_ERRORS_H_
#define NSXALB_PLUGIN_PROVIDER_CONTROLLER_ERRORS_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "plugin/cty/path.h"
#include "plugin/framework/diagnostics.h"

namespace nsxalb::provider {

// Adds an error for `status`, the failure of a Controller call made while `action` ("reading
// cloud \"x\""). Other than for set-up problems, the error has `summary`, the attribute `path`
// when given, and the detail "While <action>, <explanation>\n\nOriginal Error: <message>"
// (explanation empty: "an unexpected error occurred.").
void AddControllerError(framework::Diagnostics& diagnostics, const std::string& summary,
                        const std::string& action, const std::string& explanation,
                        const absl::Status& status,
                        std::optional<cty::AttributePath> path = std::nullopt);

}  // namespace nsxalb::provider

#endif  // NSXALB_PLUGIN_PROVIDER_CONTROLLER_ERRORS_H_
