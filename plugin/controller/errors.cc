// Implementation of errors.h.
#include "plugin/controller/errors.h"

#include <cstdint>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/call.h"
#include "plugin/controller/response.h"

namespace nsxalb::controller {
namespace {

using internal::Dump;

constexpr size_t kMaxErrorText = 500;

// Length of the UTF-8 sequence at the start of `s` (non-empty), or 0 when it is not valid UTF-8
// (a stray continuation byte, a truncated or overlong sequence, a surrogate, or past U+10FFFF).
size_t Utf8SequenceLength(absl::string_view s) {
  const auto byte = [&s](size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  size_t n = 0;
  uint32_t code_point = 0;
  if ((lead & 0xE0) == 0xC0) {
    n = 2;
    code_point = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    n = 3;
    code_point = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    n = 4;
    code_point = lead & 0x07;
  } else {
    return 0;
  }
  if (s.size() < n) return 0;
  for (size_t i = 1; i < n; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
    code_point = (code_point << 6) | (byte(i) & 0x3F);
  }
  constexpr uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code_point < kSmallest[n] || (code_point >= 0xD800 && code_point <= 0xDFFF) ||
      code_point > 0x10FFFF) {
    return 0;
  }
  return n;
}

// One line of valid UTF-8: runs of whitespace and control characters become one space, invalid
// bytes become U+FFFD (Terraform drops a whole RPC answer whose strings are not UTF-8), and the
// text is cut at a character boundary after kMaxErrorText bytes, marked by "...".
std::string Collapse(absl::string_view text) {
  std::string out;
  bool space = false;
  size_t i = 0;
  while (i < text.size()) {
    const size_t n = Utf8SequenceLength(text.substr(i));
    const unsigned char u = static_cast<unsigned char>(text[i]);
    if (n == 1 && (absl::ascii_isspace(u) || u < 0x20 || u == 0x7f)) {
      space = !out.empty();
      ++i;
      continue;
    }
    if (out.size() >= kMaxErrorText) {
      out += "...";
      break;
    }
    if (space) out.push_back(' ');
    space = false;
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      ++i;
    } else {
      out.append(text.data() + i, n);
      i += n;
    }
  }
  return out;
}

}  // namespace

absl::StatusCode CodeForHttpStatus(int http_status) {
  switch (http_status) {
    case 400:
      return absl::StatusCode::kInvalidArgument;
    case 401:
    case 419:
      return absl::StatusCode::kUnauthenticated;
    case 403:
      return absl::StatusCode::kPermissionDenied;
    case 404:
      return absl::StatusCode::kNotFound;
    case 409:
      return absl::StatusCode::kAlreadyExists;
    case 412:
      return absl::StatusCode::kAborted;
    case 429:
    case 502:
    case 503:
    case 504:
      return absl::StatusCode::kUnavailable;
    case 501:
      return absl::StatusCode::kUnimplemented;
    default:
      break;
  }
  if (http_status >= 500) return absl::StatusCode::kInternal;
  if (http_status >= 400) return absl::StatusCode::kFailedPrecondition;
  return absl::StatusCode::kUnknown;
}

std::string ControllerErrorText(absl::string_view body) {
  absl::StatusOr<nlohmann::json> parsed =
      ParseJsonLimited(std::string_view(body.data(), body.size()));
  if (!parsed.ok()) return Collapse(body);
  const nlohmann::json& j = *parsed;
  if (j.is_object()) {
    for (const char* key : {"error", "detail", "msg"}) {
      auto it = j.find(key);
      if (it == j.end()) continue;
      if (it->is_string()) return Collapse(it->get<std::string>());
      return Collapse(Dump(*it));
    }
    return Collapse(Dump(j));
  }
  if (j.is_string()) return Collapse(j.get<std::string>());
  return Collapse(body);
}

absl::Status HttpError(int http_status, absl::string_view what, absl::string_view body) {
  std::string text = ControllerErrorText(body);
  std::string message = absl::StrCat("controller: ", what, ": HTTP ", http_status);
  if (!text.empty()) absl::StrAppend(&message, ": ", text);
  absl::Status status(CodeForHttpStatus(http_status), message);
  status.SetPayload(kHttpStatusPayload, absl::Cord(absl::StrCat(http_status)));
  return status;
}

std::optional<int> HttpStatusOf(const absl::Status& status) {
  auto payload = status.GetPayload(kHttpStatusPayload);
  if (!payload.has_value()) return std::nullopt;
  int code = 0;
  if (!absl::SimpleAtoi(std::string(*payload), &code)) return std::nullopt;
  return code;
}

absl::Status WithMessage(const absl::Status& status, absl::string_view message) {
  absl::Status out(status.code(), message);
  status.ForEachPayload(
      [&out](absl::string_view url, const absl::Cord& payload) { out.SetPayload(url, payload); });
  return out;
}

absl::Status WithSetupProblem(const absl::Status& status, SetupProblem problem) {
  absl::Status out = status;
  out.SetPayload(kSetupProblemPayload, absl::Cord(absl::StrCat(static_cast<int>(problem))));
  return out;
}

SetupProblem SetupProblemOf(const absl::Status& status) {
  auto payload = status.GetPayload(kSetupProblemPayload);
  int value = 0;
  if (!payload.has_value() || !absl::SimpleAtoi(std::string(*payload), &value)) {
    return SetupProblem::kNone;
  }
  switch (value) {
    case static_cast<int>(SetupProblem::kUnreachable):
      return SetupProblem::kUnreachable;
    case static_cast<int>(SetupProblem::kUntrustedCertificate):
      return SetupProblem::kUntrustedCertificate;
    case static_cast<int>(SetupProblem::kLoginRejected):
      return SetupProblem::kLoginRejected;
    default:
      return SetupProblem::kNone;
  }
}

const char* SetupProblemSummary(SetupProblem problem) {
  switch (problem) {
    case SetupProblem::kUnreachable:
      return "Cannot connect to the Controller";
    case SetupProblem::kUntrustedCertificate:
      return "The Controller's certificate is not trusted";
    case SetupProblem::kLoginRejected:
      return "The Controller rejected the login";
    case SetupProblem::kNone:
      break;
  }
  return "";
}

std::string SetupRemedy(SetupProblem problem, const Endpoint& endpoint,
                        absl::string_view username) {
  const std::string host_port = absl::StrCat(
      endpoint.ipv6 ? absl::StrCat("[", endpoint.host, "]") : endpoint.host, ":", endpoint.port);
  switch (problem) {
    case SetupProblem::kUnreachable:
      return absl::StrCat(
          "nothing answered at ", endpoint.base_url,
          ". Check the provider's controller argument (or NSXALB_CONTROLLER): the Controller's "
          "host name or IP address, with :PORT when it is not 443 (only HTTPS is spoken); then "
          "check that the Controller is up and reachable from this machine. "
          "`terraform-provider-nsxalb controller check` tries the same settings in a second.");
    case SetupProblem::kUntrustedCertificate:
      return absl::StrCat(
          "the certificate ", endpoint.base_url,
          " presents is not signed by a CA this machine trusts; a fresh Controller presents a "
          "self-signed one. Save it, compare its SHA-256 fingerprint with the one the "
          "Controller's UI shows for its portal certificate, and point ca_file (or "
          "NSXALB_CA_FILE) at the file:\n\n  openssl s_client -connect ",
          host_port, " -showcerts </dev/null | openssl x509 > controller-ca.pem\n",
          "  openssl x509 -noout -fingerprint -sha256 -in controller-ca.pem\n\n"
          "For a lab only, insecure = true (or NSXALB_INSECURE=true) skips the verification.");
    case SetupProblem::kLoginRejected:
      return absl::StrCat(
          "the Controller at ", endpoint.base_url, " does not accept user \"", username,
          "\" with the password or token given. Check the provider's username and password "
          "(or NSXALB_USERNAME and NSXALB_PASSWORD), or auth_token (NSXALB_AUTH_TOKEN); a "
          "fresh Controller accepts only the admin password set at its first login.");
    case SetupProblem::kNone:
      break;
  }
  return "";
}

absl::Status WithRemedy(const absl::Status& status, absl::string_view remedy) {
  absl::Status out = status;
  out.SetPayload(kRemedyPayload, absl::Cord(remedy));
  return out;
}

std::string RemedyOf(const absl::Status& status) {
  auto payload = status.GetPayload(kRemedyPayload);
  return payload.has_value() ? std::string(*payload) : std::string();
}

}  // namespace nsxalb::controller
