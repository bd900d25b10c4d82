// Diagnostics: the only error channel between a provider and Terraform. A diagnostic is an error
// or a warning with a summary, a detail and optionally the attribute path it is about, so that
// Terraform can underline the offending line of configuration.
#ifndef NSXALB_PLUGIN_FRAMEWORK_DIAGNOSTICS_H_
#define NSXALB_PLUGIN_FRAMEWORK_DIAGNOSTICS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "plugin/cty/path.h"

namespace nsxalb::framework {

// How serious a diagnostic is. Terraform stops on errors and prints warnings.
enum class Severity { kError, kWarning };

// One message for the user.
struct Diagnostic {
  Severity severity = Severity::kError;
  std::string summary;
  std::string detail;
  // The attribute the diagnostic is about; unset means the whole block.
  std::optional<cty::AttributePath> path;

  friend bool operator==(const Diagnostic& a, const Diagnostic& b) {
    return a.severity == b.severity && a.summary == b.summary && a.detail == b.detail &&
           a.path == b.path;
  }
};

// An ordered collection of diagnostics.
class Diagnostics {
 public:
  // Adds an error about the whole block.
  void AddError(std::string summary, std::string detail);
  // Adds a warning about the whole block.
  void AddWarning(std::string summary, std::string detail);
  // Adds an error about the attribute at `path`.
  void AddAttributeError(cty::AttributePath path, std::string summary, std::string detail);
  // Adds a warning about the attribute at `path`.
  void AddAttributeWarning(cty::AttributePath path, std::string summary, std::string detail);
  // Adds an error made from a failed status: the status message becomes the detail and, when the
  // status carries a cty attribute path (cty::PathError), that path is attached.
  void AddStatusError(std::string summary, const absl::Status& status);
  // Adds an error with the given detail and the cty attribute path carried by `status`, if any.
  void AddStatusError(std::string summary, std::string detail, const absl::Status& status);
  // Appends a diagnostic as is.
  void Add(Diagnostic diagnostic);
  // Appends all of `other`.
  void Append(const Diagnostics& other);

  // True when at least one diagnostic is an error.
  bool HasError() const;
  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }
  const std::vector<Diagnostic>& items() const { return items_; }
  std::vector<Diagnostic>::const_iterator begin() const { return items_.begin(); }
  std::vector<Diagnostic>::const_iterator end() const { return items_.end(); }
  // One line per diagnostic, for logs and test failure messages.
  std::string ToString() const;

 private:
  std::vector<Diagnostic> items_;
};

// The detail text of an error raised while doing something, in the style of
// terraform-provider-random: "While <action>, <explanation>\n\nOriginal Error: <original>".
// `explanation` may be empty; `original` is omitted when empty.
std::string ErrorDetail(std::string_view action, std::string_view explanation,
                        std::string_view original);

}  // namespace nsxalb::framework

#endif  // NSXALB_PLUGIN_FRAMEWORK_DIAGNOSTICS_H_
