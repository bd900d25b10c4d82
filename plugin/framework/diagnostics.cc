// Diagnostics implementation.
#include "plugin/framework/diagnostics.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace nsxalb::framework {

void Diagnostics::AddError(std::string summary, std::string detail) {
  items_.push_back({Severity::kError, std::move(summary), std::move(detail), std::nullopt});
}

void Diagnostics::AddWarning(std::string summary, std::string detail) {
  items_.push_back({Severity::kWarning, std::move(summary), std::move(detail), std::nullopt});
}

void Diagnostics::AddAttributeError(cty::AttributePath path, std::string summary,
                                    std::string detail) {
  items_.push_back({Severity::kError, std::move(summary), std::move(detail), std::move(path)});
}

void Diagnostics::AddAttributeWarning(cty::AttributePath path, std::string summary,
                                      std::string detail) {
  items_.push_back({Severity::kWarning, std::move(summary), std::move(detail), std::move(path)});
}

void Diagnostics::AddStatusError(std::string summary, const absl::Status& status) {
  Diagnostic d;
  d.severity = Severity::kError;
  d.summary = std::move(summary);
  d.detail = std::string(status.message());
  d.path = cty::ErrorPath(status);
  if (d.path.has_value() && d.path->empty()) d.path.reset();
  items_.push_back(std::move(d));
}

void Diagnostics::AddStatusError(std::string summary, std::string detail,
                                 const absl::Status& status) {
  Diagnostic d;
  d.severity = Severity::kError;
  d.summary = std::move(summary);
  d.detail = std::move(detail);
  d.path = cty::ErrorPath(status);
  if (d.path.has_value() && d.path->empty()) d.path.reset();
  items_.push_back(std::move(d));
}

void Diagnostics::Add(Diagnostic diagnostic) { items_.push_back(std::move(diagnostic)); }

void Diagnostics::Append(const Diagnostics& other) {
  items_.insert(items_.end(), other.items_.begin(), other.items_.end());
}

bool Diagnostics::HasError() const {
  for (const Diagnostic& d : items_) {
    if (d.severity == Severity::kError) return true;
  }
  return false;
}

std::string Diagnostics::ToString() const {
  std::string out;
  for (const Diagnostic& d : items_) {
    absl::StrAppend(&out, d.severity == Severity::kError ? "error" : "warning", ": ", d.summary);
    if (d.path.has_value()) absl::StrAppend(&out, " at ", d.path->ToString());
    if (!d.detail.empty()) absl::StrAppend(&out, ": ", d.detail);
    absl::StrAppend(&out, "\n");
  }
  return out;
}

std::string ErrorDetail(std::string_view action, std::string_view explanation,
                        std::string_view original) {
  std::string out = absl::StrCat("While ", std::string(action));
  if (!explanation.empty()) {
    absl::StrAppend(&out, ", ", std::string(explanation));
  } else {
    absl::StrAppend(&out, ", an unexpected error occurred.");
  }
  if (!original.empty()) absl::StrAppend(&out, "\n\nOriginal Error: ", std::string(original));
  return out;
}

}  // namespace nsxalb::framework
