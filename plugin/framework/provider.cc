// Environment defaults for provider configuration.
#include "plugin/framework/provider.h"

#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace nsxalb::framework {

EnvLookup ProcessEnv() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    if (v == nullptr || *v == '\0') return std::nullopt;
    return std::string(v);
  };
}

cty::Value ApplyEnvDefaults(const Block& block, const cty::Value& config, const EnvLookup& env,
                            Diagnostics& diagnostics) {
  if (!config.IsKnown() || config.IsNull() || !env) return config;
  cty::Value out = config;
  for (const auto& [name, attr] : block.attributes) {
    if (attr.env.empty()) continue;
    const cty::Value* current = config.GetAttribute(name);
    if (current == nullptr || !current->IsKnown() || !current->IsNull()) continue;
    for (const std::string& var : attr.env) {
      std::optional<std::string> text = env(var);
      if (!text.has_value()) continue;
      const cty::AttributePath path = cty::AttributePath::Of(name);
      switch (attr.type.kind()) {
        case cty::Type::Kind::kString:
          out = out.WithAttribute(name, cty::Value::String(*text));
          break;
        case cty::Type::Kind::kBool: {
          const std::string lower = absl::AsciiStrToLower(*text);
          if (lower == "1" || lower == "true") {
            out = out.WithAttribute(name, cty::Value::Bool(true));
          } else if (lower == "0" || lower == "false") {
            out = out.WithAttribute(name, cty::Value::Bool(false));
          } else {
            diagnostics.AddAttributeError(
                path, "Invalid environment variable",
                absl::StrCat("The environment variable ", var, " (used for \"", name,
                             "\") must be true, false, 1 or 0."));
          }
          break;
        }
        case cty::Type::Kind::kNumber: {
          absl::StatusOr<cty::Number> n = cty::Number::FromDecimal(*text);
          if (n.ok()) {
            out = out.WithAttribute(name, cty::Value::NumberVal(*n));
          } else {
            diagnostics.AddAttributeError(
                path, "Invalid environment variable",
                absl::StrCat("The environment variable ", var, " (used for \"", name,
                             "\") must be a number."));
          }
          break;
        }
        default:
          break;
      }
      break;  // the first variable that is set wins
    }
  }
  return out;
}

}  // namespace nsxalb::framework
