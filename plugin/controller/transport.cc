// Implementation of transport.h.
#include "plugin/controller/transport.h"

#include <string>

namespace nsxalb::controller {

std::string HttpResponse::Header(const std::string& name) const {
  for (const auto& [k, v] : headers) {
    if (k == name) return v;
  }
  return "";
}

}  // namespace nsxalb::controller
