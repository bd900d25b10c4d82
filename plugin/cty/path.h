// Attribute paths: where in a value something is (".vcpus_per_se", ".vcenters[0].name",
// ".labels[\"env\"]"). Codec and validation errors carry one so that Terraform can point at the
// exact line of HCL.
#ifndef NSXALB_PLUGIN_CTY_PATH_H_
#define NSXALB_PLUGIN_CTY_PATH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"

namespace nsxalb::cty {

// A sequence of steps from the root of a value. Immutable-style: the builders return copies.
class AttributePath {
 public:
  // One step: an attribute name, a map/string key, or a list/tuple/set index.
  struct Step {
    enum class Kind { kAttribute, kElementKeyString, kElementKeyInt };
    Kind kind = Kind::kAttribute;
    std::string name;   // attribute name or string key
    int64_t index = 0;  // integer key
    friend bool operator==(const Step& a, const Step& b) {
      return a.kind == b.kind && a.name == b.name && a.index == b.index;
    }
  };

  AttributePath() = default;
  explicit AttributePath(std::vector<Step> steps) : steps_(std::move(steps)) {}

  // The path of a top-level attribute: AttributePath().Attribute(name).
  static AttributePath Of(std::string name);
  // Returns this path extended by one step.
  AttributePath Attribute(std::string name) const;
  AttributePath ElementKey(std::string key) const;
  AttributePath Index(int64_t index) const;

  const std::vector<Step>& steps() const { return steps_; }
  bool empty() const { return steps_.empty(); }
  // Terraform-like rendering: ".a.b[0][\"k\"]"; the empty path renders as "(root)".
  std::string ToString() const;

  friend bool operator==(const AttributePath& a, const AttributePath& b) {
    return a.steps_ == b.steps_;
  }

 private:
  std::vector<Step> steps_;
};

// An error about the value at `path`: code kInvalidArgument, message "<path>: <message>", and the
// path attached as a payload so that ErrorPath can recover it.
absl::Status PathError(const AttributePath& path, std::string_view message);

// The attribute path attached by PathError, if any.
std::optional<AttributePath> ErrorPath(const absl::Status& status);

}  // namespace nsxalb::cty

#endif  // NSXALB_PLUGIN_CTY_PATH_H_
