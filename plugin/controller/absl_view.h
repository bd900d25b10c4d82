// Internal to plugin/controller: a std::string_view handed to Abseil's string functions. Debian's
// Abseil has a string_view of its own rather than an alias of the standard one.
#ifndef NSXALB_PLUGIN_CONTROLLER_ABSL_VIEW_H_
#define NSXALB_PLUGIN_CONTROLLER_ABSL_VIEW_H_

#include <string_view>

#include "absl/strings/string_view.h"

namespace nsxalb::controller::internal {

// The same characters, viewed as an absl::string_view.
inline absl::string_view AbslView(std::string_view s) {
  return absl::string_view(s.data(), s.size());
}

}  // namespace nsxalb::controller::internal

#endif  // NSXALB_PLUGIN_CONTROLLER_ABSL_VIEW_H_
