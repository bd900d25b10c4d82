// Settings of the Controller client (what a provider block configures) and their validation.
//
// Validation errors are InvalidArgument, start with "controller: ", name the setting, and never
// quote a password, token, or anything that may carry one (such as a URL with user info).
#ifndef NSXALB_PLUGIN_CONTROLLER_CONFIG_H_
#define NSXALB_PLUGIN_CONTROLLER_CONFIG_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "plugin/common/limits.h"

namespace nsxalb::controller {

// Everything the client needs to reach and authenticate to one Controller.
struct ClientConfig {
  // The Controller: "host", "host:port", "https://host[:port][/]", an IPv4 literal, or an IPv6
  // literal ("::1", "[::1]", "[::1]:8443", "https://[::1]:8443"). Only HTTPS is spoken.
  std::string controller;
  // The user to log in as (required).
  std::string username;
  // Password for POST /login. Exactly one of password and auth_token must be set.
  std::string password;
  // API token (from POST /api/user-token) used instead of a password.
  std::string auth_token;
  // Tenant sent as X-Avi-Tenant when an operation names none.
  std::string tenant = "admin";
  // X-Avi-Version to speak. Empty: use the Controller's own version from the login response.
  // A version above the Controller's is a FailedPrecondition error at login.
  std::string api_version;
  // PEM file of CA certificates that sign the Controller's certificate.
  std::string ca_file;
  // The same, inline PEM text. At most one of ca_file and ca_pem.
  std::string ca_pem;
  // Skip TLS certificate verification. An explicit opt-out; the client logs a [WARN].
  bool insecure = false;
  // Limit on one HTTP exchange (connect, send, receive).
  absl::Duration request_timeout = absl::Seconds(60);
  // Budget for one operation including every retry, backoff sleep and re-login (at most
  // limits::kMaxTotalTimeoutSeconds).
  absl::Duration total_timeout = absl::Seconds(limits::kDefaultTotalTimeoutSeconds);
  // Retries after the first attempt on connection errors, 429 and 502/503/504 (0 to
  // limits::kMaxRetries).
  int max_retries = limits::kDefaultMaxRetries;
  // First backoff delay; each retry doubles it up to backoff_max. Jitter spreads each delay
  // over [delay/2, delay].
  absl::Duration backoff_initial = absl::Milliseconds(500);
  // Upper bound of one backoff delay.
  absl::Duration backoff_max = absl::Seconds(30);
  // Objects per page when listing (the Controller accepts 1-200). The largest: an estate's
  // listings (200 groups, 400 SEs) then take the fewest requests.
  int page_size = 200;
};

// Where the Controller is, derived from ClientConfig::controller.
struct Endpoint {
  std::string host;      // without brackets, e.g. "10.0.0.1", "ctrl.example.com", "::1"
  int port = 443;        // 443 when not given
  bool ipv6 = false;     // host is an IPv6 literal
  std::string base_url;  // "https://host[:port]", brackets around IPv6 literals, no trailing '/'
};

// Parses the controller address. Errors name the "controller" setting.
absl::StatusOr<Endpoint> ParseEndpoint(std::string_view controller);

// Checks every setting (presence, ranges, mutually exclusive ones, that ca_file is readable and
// ca_pem holds a certificate) and returns the parsed endpoint.
absl::StatusOr<Endpoint> ValidateConfig(const ClientConfig& config);

}  // namespace nsxalb::controller

#endif  // NSXALB_PLUGIN_CONTROLLER_CONFIG_H_
