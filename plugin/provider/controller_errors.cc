// Implementation of controller_errors.h.
#include "plugin/provider/controller_errors.h"

#include <string>
#include <utility>

#include "plugin/controller/errors.h"

namespace nsxalb::provider {

void AddControllerError(framework::Diagnostics& diagnostics, const std::string& summary,
                        const std::string& action, const std::string& explanation,
                        const absl::Status& status, std::optional<cty::AttributePath> path) {
  const std::string original(status.message());
  const controller::SetupProblem problem = controller::SetupProblemOf(status);
  if (problem != controller::SetupProblem::kNone) {
    diagnostics.AddError(controller::SetupProblemSummary(problem),
                         framework::ErrorDetail(action, controller::RemedyOf(status), original));
    return;
  }
  std::string detail = framework::ErrorDetail(action, explanation, original);
  if (path.has_value()) {
    diagnostics.AddAttributeError(*std::move(path), summary, std::move(detail));
  } else {
    diagnostics.AddError(summary, std::move(detail));
  }
}

}  // namespace nsxalb::provider
