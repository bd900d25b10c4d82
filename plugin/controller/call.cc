#include "plugin/controller/call.h"

#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "plugin/common/status_macros.h"
#include "plugin/controller/refs.h"

namespace nsxalb::controller::internal {

absl::Status MarkMayHaveTakenEffect(absl::Status status) {
  status.SetPayload(kMayHaveTakenEffectPayload, absl::Cord("true"));
  return status;
}

std::string Dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

absl::StatusOr<std::string> IdFromRefOrUuid(std::string_view text, const std::string& type,
                                            const std::string& field) {
  std::string s(absl::StripAsciiWhitespace(std::string(text)));
  if (s.find('/') != std::string::npos) {
    NSXALB_ASSIGN_OR_RETURN(auto ref, ParseRef(s, type, field));
    if (ref.uuid.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("controller: ", field, " must name a ", type, " by uuid"));
    }
    s = ref.uuid;
  }
  if (s.empty())
    return absl::InvalidArgumentError(absl::StrCat("controller: ", field, " is empty"));
  if (s.size() > 256) {
    return absl::InvalidArgumentError(absl::StrCat("controller: ", field, " is too long"));
  }
  for (char c : s) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.' &&
        c != ':') {
      return absl::InvalidArgumentError(
          absl::StrCat("controller: ", field, " has characters a uuid cannot contain"));
    }
  }
  return s;
}

Call MakeCall(std::string method, std::string path, std::string_view tenant) {
  Call call;
  call.what = absl::StrCat(method, " ", path.substr(0, path.find('?')));
  call.method = std::move(method);
  call.path = std::move(path);
  call.tenant = std::string(tenant);
  return call;
}

}  // namespace nsxalb::controller::internal
