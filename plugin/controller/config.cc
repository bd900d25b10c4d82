// Implementation of config.h.
#include "plugin/controller/config.h"

#include <algorithm>
#include <fstream>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "plugin/common/status_macros.h"
#include "plugin/controller/version.h"

namespace nsxalb::controller {
namespace {

absl::Status Invalid(absl::string_view setting, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("controller: ", setting, " ", why));
}

bool IsHostnameChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
}

bool IsIpv6Char(char c) {
  return absl::ascii_isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.';
}

absl::StatusOr<int> ParsePort(std::string_view text) {
  int port = 0;
  if (text.empty() || text.size() > 5 || !absl::SimpleAtoi(std::string(text), &port) || port < 1 ||
      port > 65535) {
    return Invalid("controller", "has an invalid port (want 1-65535)");
  }
  return port;
}

}  // namespace

absl::StatusOr<Endpoint> ParseEndpoint(std::string_view controller) {
  std::string s(absl::StripAsciiWhitespace(std::string(controller)));
  if (s.empty()) return Invalid("controller", "is required (the Controller's address)");
  if (s.find('@') != std::string::npos) {
    return Invalid("controller",
                   "must not contain user information; set username and password instead");
  }
  if (absl::StartsWithIgnoreCase(s, "http://")) {
    return Invalid("controller", "must use https:// (the Controller API is HTTPS only)");
  }
  if (absl::StartsWithIgnoreCase(s, "https://")) {
    s = s.substr(8);
  } else if (s.find("://") != std::string::npos) {
    return Invalid("controller", "has an unsupported scheme (want https:// or a bare host)");
  }
  if (size_t slash = s.find('/'); slash != std::string::npos) {
    std::string path = s.substr(slash);
    if (path != "/") {
      return Invalid("controller", "must not have a path (give only the host and port)");
    }
    s.resize(slash);
  }
  Endpoint ep;
  if (s.empty()) return Invalid("controller", "has no host");
  if (s.front() == '[') {
    size_t close = s.find(']');
    if (close == std::string::npos)
      return Invalid("controller", "has an unclosed '[' around an IPv6 address");
    ep.host = s.substr(1, close - 1);
    ep.ipv6 = true;
    std::string rest = s.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return Invalid("controller", "has text after the IPv6 address");
      NSXALB_ASSIGN_OR_RETURN(auto port, ParsePort(rest.substr(1)));
      ep.port = port;
    }
  } else if (std::count(s.begin(), s.end(), ':') > 1) {
    ep.host = s;  // bare IPv6 literal, no port
    ep.ipv6 = true;
  } else if (size_t colon = s.find(':'); colon != std::string::npos) {
    ep.host = s.substr(0, colon);
    NSXALB_ASSIGN_OR_RETURN(auto port, ParsePort(s.substr(colon + 1)));
    ep.port = port;
  } else {
    ep.host = s;
  }
  if (ep.host.empty()) return Invalid("controller", "has no host");
  if (ep.ipv6) {
    if (ep.host.find(':') == std::string::npos)
      return Invalid("controller", "has an invalid IPv6 address");
    for (char c : ep.host) {
      if (!IsIpv6Char(c)) return Invalid("controller", "has an invalid IPv6 address");
    }
  } else {
    if (ep.host.size() > 253)
      return Invalid("controller", "has a host name longer than 253 characters");
    for (char c : ep.host) {
      if (!IsHostnameChar(c))
        return Invalid("controller", "has an invalid character in the host name");
    }
  }
  std::string host = ep.ipv6 ? absl::StrCat("[", ep.host, "]") : ep.host;
  ep.base_url = ep.port == 443 ? absl::StrCat("https://", host)
                               : absl::StrCat("https://", host, ":", ep.port);
  return ep;
}

absl::StatusOr<Endpoint> ValidateConfig(const ClientConfig& config) {
  NSXALB_ASSIGN_OR_RETURN(auto ep, ParseEndpoint(config.controller));
  if (config.username.empty()) return Invalid("username", "is required");
  if (config.username.size() > 256) return Invalid("username", "is longer than 256 characters");
  if (config.password.empty() && config.auth_token.empty()) {
    return Invalid("password", "or auth_token is required");
  }
  if (!config.password.empty() && !config.auth_token.empty()) {
    return Invalid("password", "and auth_token are mutually exclusive; set only one");
  }
  for (char c : config.tenant) {
    if (static_cast<unsigned char>(c) < 0x20)
      return Invalid("tenant", "contains control characters");
  }
  if (config.tenant.empty())
    return Invalid("tenant", "must not be empty (the default is \"admin\")");
  for (const std::string* secret : {&config.username, &config.password, &config.auth_token}) {
    for (char c : *secret) {
      if (c == '\r' || c == '\n' || c == '\0') {
        return Invalid(secret == &config.username   ? "username"
                       : secret == &config.password ? "password"
                                                    : "auth_token",
                       "contains a line break or NUL character");
      }
    }
  }
  if (!config.api_version.empty()) {
    auto v = ApiVersion::Parse(config.api_version);
    if (!v.ok()) return Invalid("api_version", v.status().message());
  }
  if (!config.ca_file.empty() && !config.ca_pem.empty()) {
    return Invalid("ca_file", "and ca_pem are mutually exclusive; set only one");
  }
  if (config.insecure && (!config.ca_file.empty() || !config.ca_pem.empty())) {
    return Invalid("insecure", "cannot be combined with ca_file or ca_pem");
  }
  if (!config.ca_file.empty()) {
    std::ifstream in(config.ca_file);
    if (!in) return Invalid("ca_file", absl::StrCat("cannot be read: ", config.ca_file));
  }
  if (!config.ca_pem.empty() &&
      config.ca_pem.find("-----BEGIN CERTIFICATE-----") == std::string::npos) {
    return Invalid("ca_pem", "holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
  }
  if (config.request_timeout <= absl::ZeroDuration()) {
    return Invalid("request_timeout", "must be positive");
  }
  if (config.total_timeout <= absl::ZeroDuration() ||
      config.total_timeout > absl::Seconds(limits::kMaxTotalTimeoutSeconds)) {
    return Invalid("total_timeout", absl::StrCat("must be positive and at most ",
                                                 limits::kMaxTotalTimeoutSeconds, " seconds"));
  }
  if (config.max_retries < 0 || config.max_retries > limits::kMaxRetries) {
    return Invalid("max_retries", absl::StrCat("must be between 0 and ", limits::kMaxRetries));
  }
  if (config.backoff_initial <= absl::ZeroDuration() ||
      config.backoff_max < config.backoff_initial) {
    return Invalid("backoff_initial", "must be positive and not above backoff_max");
  }
  if (config.page_size < 1 || config.page_size > 200) {
    return Invalid("page_size", "must be between 1 and 200");
  }
  return ep;
}

}  // namespace nsxalb::controller
