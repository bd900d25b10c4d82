// Implementation of plan_json.h.
#include "plugin/cli/plan_report/plan_json.h"

namespace nsxalb::cli {
namespace {

using Json = nlohmann::json;

// Every resource of a module in a value tree, child modules included.
void CollectResources(const Json& module, std::vector<const Json*>& out) {
  if (!module.is_object()) return;
  if (auto r = module.find("resources"); r != module.end() && r->is_array()) {
    for (const Json& resource : *r) out.push_back(&resource);
  }
  if (auto c = module.find("child_modules"); c != module.end() && c->is_array()) {
    for (const Json& child : *c) CollectResources(child, out);
  }
}

// The resources under `values`' root_module ({"root_module": ...}).
std::vector<const Json*> ResourcesOf(const Json& values) {
  std::vector<const Json*> out;
  if (!values.is_object()) return out;
  if (auto root = values.find("root_module"); root != values.end()) CollectResources(*root, out);
  return out;
}

}  // namespace

std::vector<const Json*> PriorStateResources(const Json& plan) {
  if (!plan.is_object()) return {};
  auto prior = plan.find("prior_state");
  if (prior == plan.end() || !prior->is_object()) return {};
  auto values = prior->find("values");
  return values == prior->end() ? std::vector<const Json*>() : ResourcesOf(*values);
}

std::vector<const Json*> PlannedResources(const Json& plan) {
  if (!plan.is_object()) return {};
  auto planned = plan.find("planned_values");
  return planned == plan.end() ? std::vector<const Json*>() : ResourcesOf(*planned);
}

std::string StringMember(const Json& object, const char* key) {
  if (!object.is_object()) return "";
  auto v = object.find(key);
  return v != object.end() && v->is_string() ? v->get<std::string>() : "";
}

}  // namespace nsxalb::cli
