// Implementation of controller_errors.h.
#include "plugin/provider/controller_errors.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "plugin/controller/errors.h"

namespace nsxalb::provider {
namespace {

// `explanation` (may be empty), followed by what to do when `status` says that the Controller
// did not answer within the provider's timeout_seconds.
std::string WithTimeoutHint(std::string explanation, const absl::Status& status) {
  if (status.code() != absl::StatusCode::kDeadlineExceeded) return explanation;
  const char* hint =
      "did not answer within timeout_seconds: check that it is up and reachable, or raise "
      "timeout_seconds if it is only slow.";
  if (explanation.empty()) return absl::StrCat("the Controller ", hint);
  return absl::StrCat(explanation, " The Controller ", hint);
}

}  // namespace

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
  std::string detail =
      framework::ErrorDetail(action, WithTimeoutHint(explanation, status), original);
  if (path.has_value()) {
    diagnostics.AddAttributeError(*std::move(path), summary, std::move(detail));
  } else {
    diagnostics.AddError(summary, std::move(detail));
  }
}

}  // namespace nsxalb::provider
