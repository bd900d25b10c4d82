// Implementation of se_inventory.h.
#include "plugin/controller/se_inventory.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "plugin/controller/absl_view.h"
#include "plugin/controller/refs.h"

namespace nsxalb::controller {
namespace {

using Json = nlohmann::json;

using internal::AbslView;

}  // namespace

absl::StatusOr<ServiceEnginePlacement> ToServiceEnginePlacement(const Json& entry,
                                                                std::string_view what) {
  const auto bad = [what](std::string_view field, std::string_view expected) {
    return absl::InternalError(absl::StrCat("controller: ", AbslView(what), ": SE inventory ",
                                            AbslView(field), ": expected ", AbslView(expected)));
  };
  if (!entry.is_object()) return bad("entry", "an object");
  static const Json kEmpty = Json::object();
  const Json& config = entry.contains("config") ? entry["config"] : kEmpty;
  if (!config.is_object()) return bad("config", "an object");
  const auto text = [&bad](const Json& obj, const char* key, std::string_view field,
                           std::string* slot) -> absl::Status {
    if (!obj.contains(key) || obj[key].is_null()) return absl::OkStatus();
    if (!obj[key].is_string()) return bad(field, "a string");
    *slot = obj[key].get<std::string>();
    return absl::OkStatus();
  };
  ServiceEnginePlacement out;
  absl::Status s = text(entry, "uuid", "uuid", &out.uuid);
  if (s.ok() && out.uuid.empty()) s = text(config, "uuid", "config.uuid", &out.uuid);
  if (s.ok()) s = text(config, "name", "config.name", &out.name);
  if (s.ok()) s = text(config, "se_group_ref", "config.se_group_ref", &out.se_group_ref);
  if (s.ok()) s = text(config, "enable_state", "config.enable_state", &out.enable_state);
  if (!s.ok()) return s;
  if (out.uuid.empty()) return bad("uuid", "a non-empty string");
  if (config.contains("vs_refs") && !config["vs_refs"].is_null()) {
    if (!config["vs_refs"].is_array()) return bad("config.vs_refs", "a list");
    for (const Json& ref : config["vs_refs"]) {
      if (!ref.is_string()) return bad("config.vs_refs", "a list of refs");
      auto parsed = ParseRef(ref.get<std::string>(), "virtualservice", "vs_refs");
      if (!parsed.ok() || parsed->uuid.empty()) {
        return bad("config.vs_refs", "virtualservice refs with a uuid");
      }
      out.virtual_services.push_back({parsed->uuid, parsed->name});
    }
  }
  if (entry.contains("runtime") && !entry["runtime"].is_null()) {
    const Json& runtime = entry["runtime"];
    if (!runtime.is_object()) return bad("runtime", "an object");
    if (runtime.contains("oper_status") && !runtime["oper_status"].is_null()) {
      if (!runtime["oper_status"].is_object()) return bad("runtime.oper_status", "an object");
      s = text(runtime["oper_status"], "state", "runtime.oper_status.state", &out.oper_state);
      if (!s.ok()) return s;
    }
  }
  return out;
}

}  // namespace nsxalb::controller
