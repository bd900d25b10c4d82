// Validation of the nsxalb provider block.
#include "plugin/provider/config.h"

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "plugin/common/limits.h"
#include "plugin/controller/version.h"
#include "plugin/framework/attr.h"
#include "plugin/framework/value_util.h"

namespace nsxalb::provider {
namespace {

using framework::Diagnostics;

// timeout_seconds: the client's default total_timeout, and the largest accepted value.
constexpr int64_t kDefaultTimeoutSeconds = limits::kDefaultTotalTimeoutSeconds;
constexpr int64_t kMaxTimeoutSeconds = limits::kMaxTotalTimeoutSeconds;

using framework::Attr;
using framework::StringAttr;

// True when the attribute holds a value or may hold one after apply (it is not null).
template <typename T>
bool IsSet(const Attr<T>& attr) {
  return !attr.IsNull();
}

bool HasSpace(const std::string& s) {
  for (char c : s) {
    if (absl::ascii_isspace(static_cast<unsigned char>(c))) return true;
  }
  return false;
}

bool LooksLikePem(const std::string& text) {
  return absl::StrContains(text, "-----BEGIN CERTIFICATE-----");
}

// Provider block with the environment defaults of `names` removed.
framework::Block WithoutEnv(framework::Block block, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    auto it = block.attributes.find(n);
    if (it != block.attributes.end()) it->second.env.clear();
  }
  return block;
}

// In Configure, the configuration with the environment defaults applied. A secret or CA written
// in the configuration suppresses the environment default of its alternative, so that a global
// NSXALB_AUTH_TOKEN does not conflict with a written password.
cty::Value WithEnvDefaults(const framework::Block& schema, const cty::Value& config,
                           const framework::EnvLookup& env, Diagnostics& diags) {
  framework::Block block = schema;
  if (IsSet(StringAttr(config, "password")) || IsSet(StringAttr(config, "auth_token"))) {
    block = WithoutEnv(block, {"password", "auth_token"});
  }
  if (IsSet(StringAttr(config, "ca_file")) || IsSet(StringAttr(config, "ca_pem"))) {
    block = WithoutEnv(block, {"ca_file", "ca_pem"});
  }
  return framework::ApplyEnvDefaults(block, config, env, diags);
}

// In Configure, an error for every attribute whose value is not known until apply.
void CheckAllKnown(const framework::Block& schema, const cty::Value& config, Diagnostics& diags) {
  for (const auto& [name, attr] : schema.attributes) {
    if (framework::ValueAttr(config, name).IsUnknown()) {
      diags.AddAttributeError(
          cty::AttributePath::Of(name), "Unknown provider configuration value",
          absl::StrCat("The provider cannot be configured because \"", name,
                       "\" depends on a value that is not known until apply. Use a value that "
                       "is known during plan, or set it in the environment."));
    }
  }
}

// The Controller's address and the user name. `missing` collects what Configure found unset.
void CheckControllerAndUser(const cty::Value& config, bool configure, ProviderConfig& parsed,
                            std::vector<std::string>& missing, Diagnostics& diags) {
  const Attr<std::string> controller = StringAttr(config, "controller");
  if (controller.value().has_value()) {
    // The client's own address parser, so that what validates here is what the client accepts.
    absl::StatusOr<controller::Endpoint> endpoint = controller::ParseEndpoint(*controller.value());
    if (!endpoint.ok()) {
      diags.AddAttributeError(cty::AttributePath::Of("controller"), "Invalid Controller address",
                              absl::StrCat("The Controller address \"", *controller.value(),
                                           "\" is not valid: ", endpoint.status().message(), "."));
    } else {
      parsed.client.controller = endpoint->base_url;
    }
  } else if (configure && controller.IsNull()) {
    missing.push_back("\"controller\" (or NSXALB_CONTROLLER / AVI_CONTROLLER)");
  }

  const Attr<std::string> username = StringAttr(config, "username");
  if (username.value().has_value()) {
    parsed.client.username = *username.value();
    if (parsed.client.username.empty() || HasSpace(parsed.client.username)) {
      diags.AddAttributeError(cty::AttributePath::Of("username"), "Invalid user name",
                              "The user name must not be empty or contain white space.");
    }
  } else if (configure && username.IsNull()) {
    missing.push_back("\"username\" (or NSXALB_USERNAME / AVI_USERNAME)");
  }
}

// password or auth_token: one of them, not both, and not empty. `missing` collects what Configure
// found unset.
void CheckCredentials(const cty::Value& config, bool configure, ProviderConfig& parsed,
                      std::vector<std::string>& missing, Diagnostics& diags) {
  const Attr<std::string> password = StringAttr(config, "password");
  const Attr<std::string> token = StringAttr(config, "auth_token");
  if (password.value().has_value() && token.value().has_value()) {
    diags.AddAttributeError(cty::AttributePath::Of("auth_token"), "Conflicting credentials",
                            "Set either \"password\" or \"auth_token\", not both (the environment "
                            "variables NSXALB_PASSWORD and NSXALB_AUTH_TOKEN count too).");
  } else if (configure && password.IsNull() && token.IsNull()) {
    missing.push_back(
        "\"password\" or \"auth_token\" (or NSXALB_PASSWORD / AVI_PASSWORD, NSXALB_AUTH_TOKEN / "
        "AVI_AUTHTOKEN)");
  }
  if (password.value().has_value()) {
    parsed.client.password = *password.value();
    if (parsed.client.password.empty()) {
      diags.AddAttributeError(cty::AttributePath::Of("password"), "Empty password",
                              "The password must not be empty.");
    }
  }
  if (token.value().has_value()) {
    parsed.client.auth_token = *token.value();
    if (parsed.client.auth_token.empty()) {
      diags.AddAttributeError(cty::AttributePath::Of("auth_token"), "Empty auth token",
                              "The auth_token must not be empty.");
    }
  }
}

// tenant and api_version.
void CheckTenantAndApiVersion(const cty::Value& config, ProviderConfig& parsed,
                              Diagnostics& diags) {
  const Attr<std::string> tenant = StringAttr(config, "tenant");
  if (tenant.value().has_value()) {
    parsed.client.tenant = *tenant.value();
    if (parsed.client.tenant.empty()) {
      diags.AddAttributeError(cty::AttributePath::Of("tenant"), "Invalid tenant",
                              "The tenant must not be empty; leave it unset for \"admin\".");
    }
  }

  const Attr<std::string> api_version = StringAttr(config, "api_version");
  if (api_version.value().has_value()) {
    parsed.client.api_version = *api_version.value();
    if (!controller::ApiVersion::Parse(parsed.client.api_version).ok()) {
      diags.AddAttributeError(cty::AttributePath::Of("api_version"), "Invalid API version",
                              absl::StrCat("The API version \"", parsed.client.api_version,
                                           "\" is not valid: expected numbers separated by "
                                           "dots, such as \"22.1.3\"."));
    }
  }
}

// The TLS settings: ca_file or ca_pem (one of them, holding a PEM certificate), and insecure,
// which contradicts a CA.
void CheckTls(const cty::Value& config, ProviderConfig& parsed, Diagnostics& diags) {
  const Attr<std::string> ca_file = StringAttr(config, "ca_file");
  const Attr<std::string> ca_pem = StringAttr(config, "ca_pem");
  if (ca_file.value().has_value() && ca_pem.value().has_value()) {
    diags.AddAttributeError(cty::AttributePath::Of("ca_pem"), "Conflicting certificate authorities",
                            "Set either \"ca_file\" or \"ca_pem\", not both.");
  }
  if (ca_file.value().has_value()) {
    parsed.client.ca_file = *ca_file.value();
    std::ifstream in(parsed.client.ca_file, std::ios::binary);
    std::stringstream content;
    if (in) content << in.rdbuf();
    if (parsed.client.ca_file.empty() || !in || in.bad()) {
      diags.AddAttributeError(
          cty::AttributePath::Of("ca_file"), "Unreadable CA file",
          framework::ErrorDetail("reading the certificate authority file",
                                 absl::StrCat("the file \"", parsed.client.ca_file,
                                              "\" could not be opened for reading."),
                                 ""));
    } else if (!LooksLikePem(content.str())) {
      diags.AddAttributeError(cty::AttributePath::Of("ca_file"), "Invalid CA file",
                              absl::StrCat("The file \"", parsed.client.ca_file,
                                           "\" contains no PEM certificate (-----BEGIN "
                                           "CERTIFICATE-----)."));
    }
  }
  if (ca_pem.value().has_value()) {
    if (!LooksLikePem(*ca_pem.value())) {
      diags.AddAttributeError(cty::AttributePath::Of("ca_pem"), "Invalid CA certificate",
                              "ca_pem contains no PEM certificate (-----BEGIN CERTIFICATE-----).");
    } else if (!ca_file.value().has_value()) {
      parsed.client.ca_pem = *ca_pem.value();
    }
  }

  if (const std::optional<bool> insecure = framework::BoolAttr(config, "insecure").value()) {
    parsed.client.insecure = *insecure;
    if (parsed.client.insecure && (IsSet(ca_file) || IsSet(ca_pem))) {
      diags.AddAttributeError(cty::AttributePath::Of("insecure"), "Conflicting TLS settings",
                              "insecure = true turns certificate verification off, so the "
                              "certificate authorities in ca_file / ca_pem would never be used. "
                              "Remove insecure to verify the Controller, or remove the CA.");
    }
  }
}

// timeout_seconds: 0 (the default) to kMaxTimeoutSeconds; it bounds each request too.
void CheckTimeout(const cty::Value& config, ProviderConfig& parsed, Diagnostics& diags) {
  if (const std::optional<cty::Number> timeout =
          framework::NumberAttr(config, "timeout_seconds").value()) {
    absl::StatusOr<int64_t> seconds = timeout->AsInt64();
    if (!seconds.ok() || *seconds < 0 || *seconds > kMaxTimeoutSeconds) {
      diags.AddAttributeError(
          cty::AttributePath::Of("timeout_seconds"), "Invalid timeout",
          absl::StrCat("timeout_seconds must be a whole number of seconds from 1 to ",
                       kMaxTimeoutSeconds, " (0 means the default, ", kDefaultTimeoutSeconds,
                       "); got ", timeout->ToString(), "."));
    } else if (*seconds > 0) {
      parsed.client.total_timeout = absl::Seconds(*seconds);
      // One exchange never outlasts the whole operation.
      parsed.client.request_timeout =
          std::min(parsed.client.request_timeout, absl::Seconds(*seconds));
    }
  }
}

// sizing_policy.
void CheckSizingPolicy(const cty::Value& config, ProviderConfig& parsed, Diagnostics& diags) {
  const Attr<std::string> policy = StringAttr(config, "sizing_policy");
  if (policy.value().has_value()) {
    absl::StatusOr<segroup::SizingPolicy> parsed_policy =
        segroup::ParseSizingPolicy(*policy.value());
    if (!parsed_policy.ok()) {
      diags.AddAttributeError(cty::AttributePath::Of("sizing_policy"), "Invalid sizing policy",
                              std::string(parsed_policy.status().message()));
    } else {
      parsed.sizing_policy = *parsed_policy;
    }
  }
}

}  // namespace

Diagnostics CheckConfig(const framework::Block& schema, const cty::Value& raw_config,
                        ConfigPhase phase, const framework::EnvLookup& env, ProviderConfig* out) {
  Diagnostics diags;
  const bool configure = phase == ConfigPhase::kConfigure;
  cty::Value config = raw_config;
  if (config.IsNull()) config = framework::EmptyObject(schema);
  if (configure) {
    config = WithEnvDefaults(schema, config, env, diags);
    CheckAllKnown(schema, config, diags);
  }

  ProviderConfig parsed;
  std::vector<std::string> missing;  // Controller settings Configure found unset
  CheckControllerAndUser(config, configure, parsed, missing, diags);
  CheckCredentials(config, configure, parsed, missing, diags);
  CheckTenantAndApiVersion(config, parsed, diags);
  CheckTls(config, parsed, diags);
  CheckTimeout(config, parsed, diags);
  CheckSizingPolicy(config, parsed, diags);
  if (!missing.empty()) {
    parsed.missing_controller_settings =
        absl::StrCat("No Controller is configured: set ", absl::StrJoin(missing, ", "),
                     " in the provider block or the environment.");
  }
  if (out != nullptr && !diags.HasError()) *out = parsed;
  return diags;
}

}  // namespace nsxalb::provider
