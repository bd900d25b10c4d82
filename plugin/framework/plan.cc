// Terraform's plan rules, implemented once for every resource, and PlanResourceChange, the engine
// method that applies them around a resource's ModifyPlan.
#include "plugin/framework/plan.h"

#include <map>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "plugin/framework/provider_server.h"
#include "plugin/framework/resource_with_modify_plan.h"
#include "plugin/framework/value_util.h"

namespace nsxalb::framework {
namespace plan {
namespace {

using Kind = cty::Type::Kind;
using Nesting = NestedBlock::Nesting;

bool Usable(const cty::Value& v) { return v.IsKnown() && !v.IsNull(); }

// Equality ignoring computed attributes: how Terraform pairs set elements with prior ones.
bool EqualIgnoringComputed(const Block& block, const cty::Value& a, const cty::Value& b) {
  if (!Usable(a) || !Usable(b)) return RawEquals(a, b);
  for (const auto& [name, attr] : block.attributes) {
    if (attr.computed) continue;
    if (!RawEquals(GetAttr(a, name, attr.type), GetAttr(b, name, attr.type))) return false;
  }
  for (const auto& [name, nested] : block.block_types) {
    const cty::Type t = ImpliedType(nested.block);
    if (!RawEquals(GetAttr(a, name, t), GetAttr(b, name, t))) return false;
  }
  return true;
}

const cty::Value* FindSetMatch(const Block& block, const cty::Value& set, const cty::Value& e) {
  if (!Usable(set)) return nullptr;
  for (const cty::Value& candidate : set.elements()) {
    if (EqualIgnoringComputed(block, candidate, e)) return &candidate;
  }
  return nullptr;
}

cty::Value Element(const cty::Value& list, size_t i, const cty::Type& type) {
  if (!list.IsKnown()) return cty::Value::Unknown(type);
  if (list.IsNull() || i >= list.elements().size()) return cty::Value::Null(type);
  return list.elements()[i];
}

cty::Value Entry(const cty::Value& map, const std::string& key, const cty::Type& type) {
  if (!map.IsKnown()) return cty::Value::Unknown(type);
  if (map.IsNull()) return cty::Value::Null(type);
  auto it = map.entries().find(key);
  return it == map.entries().end() ? cty::Value::Null(type) : it->second;
}

std::string Show(const Attribute* attr, const cty::Value& v) {
  return (attr != nullptr && attr->sensitive) ? "(sensitive value)" : v.DebugString();
}

}  // namespace

cty::Value MarkComputedUnknown(const Block& block, const cty::Value& proposed,
                               const cty::Value& config, const cty::Value& prior) {
  if (!Usable(proposed)) return proposed;
  cty::Value out = proposed;
  const bool has_prior = Usable(prior);
  for (const auto& [name, attr] : block.attributes) {
    if (!attr.computed || has_prior) continue;
    const cty::Value c = GetAttr(config, name, attr.type);
    if (c.IsKnown() && c.IsNull()) out = out.WithAttribute(name, cty::Value::Unknown(attr.type));
  }
  for (const auto& [name, nested] : block.block_types) {
    const cty::Type inner = ImpliedType(nested.block);
    const cty::Value* p = proposed.GetAttribute(name);
    if (p == nullptr || !Usable(*p)) continue;
    cty::Value c = GetAttr(config, name, p->type());
    cty::Value pr = GetAttr(prior, name, p->type());
    switch (nested.nesting) {
      case Nesting::kSingle:
      case Nesting::kGroup:
        out = out.WithAttribute(name, MarkComputedUnknown(nested.block, *p, c, pr));
        break;
      case Nesting::kList: {
        std::vector<cty::Value> elems;
        for (size_t i = 0; i < p->elements().size(); ++i) {
          elems.push_back(MarkComputedUnknown(nested.block, p->elements()[i], Element(c, i, inner),
                                              Element(pr, i, inner)));
        }
        out = out.WithAttribute(name, cty::Value::List(inner, std::move(elems)));
        break;
      }
      case Nesting::kMap: {
        std::map<std::string, cty::Value> elems;
        for (const auto& [key, e] : p->entries()) {
          elems.emplace(key, MarkComputedUnknown(nested.block, e, Entry(c, key, inner),
                                                 Entry(pr, key, inner)));
        }
        out = out.WithAttribute(name, cty::Value::Map(inner, std::move(elems)));
        break;
      }
      case Nesting::kSet: {
        std::vector<cty::Value> elems;
        for (const cty::Value& e : p->elements()) {
          if (FindSetMatch(nested.block, pr, e) != nullptr) {
            elems.push_back(e);
            continue;
          }
          const cty::Value* ce = FindSetMatch(nested.block, c, e);
          elems.push_back(MarkComputedUnknown(nested.block, e, ce != nullptr ? *ce : e,
                                              cty::Value::Null(inner)));
        }
        out = out.WithAttribute(name, cty::Value::Set(inner, std::move(elems)));
        break;
      }
    }
  }
  return out;
}

namespace {

bool HasReplaceInside(const Block& block) {
  for (const auto& [name, attr] : block.attributes) {
    if (attr.requires_replace) return true;
  }
  for (const auto& [name, nested] : block.block_types) {
    if (nested.requires_replace || HasReplaceInside(nested.block)) return true;
  }
  return false;
}

void CollectReplace(const Block& block, const cty::Value& prior, const cty::Value& planned,
                    const cty::AttributePath& path, std::vector<cty::AttributePath>& out) {
  for (const auto& [name, attr] : block.attributes) {
    if (attr.requires_replace) out.push_back(path.Attribute(name));
  }
  for (const auto& [name, nested] : block.block_types) {
    const cty::AttributePath at = path.Attribute(name);
    if (nested.requires_replace) {
      out.push_back(at);
      continue;
    }
    if (!HasReplaceInside(nested.block)) continue;
    const cty::Type inner = ImpliedType(nested.block);
    const cty::Value pr = GetAttr(prior, name, cty::Type::Dynamic());
    const cty::Value pl = GetAttr(planned, name, cty::Type::Dynamic());
    switch (nested.nesting) {
      case Nesting::kSingle:
      case Nesting::kGroup:
        CollectReplace(nested.block, pr, pl, at, out);
        break;
      case Nesting::kList: {
        size_t n = 0;
        if (Usable(pr)) n = std::max(n, pr.elements().size());
        if (Usable(pl)) n = std::max(n, pl.elements().size());
        for (size_t i = 0; i < n; ++i) {
          CollectReplace(nested.block, Element(pr, i, inner), Element(pl, i, inner),
                         at.Index(static_cast<int64_t>(i)), out);
        }
        break;
      }
      case Nesting::kMap: {
        std::set<std::string> keys;
        if (Usable(pr)) {
          for (const auto& [k, v] : pr.entries()) keys.insert(k);
        }
        if (Usable(pl)) {
          for (const auto& [k, v] : pl.entries()) keys.insert(k);
        }
        for (const std::string& k : keys) {
          CollectReplace(nested.block, Entry(pr, k, inner), Entry(pl, k, inner), at.ElementKey(k),
                         out);
        }
        break;
      }
      case Nesting::kSet:
        // tfplugin5 paths cannot address a set element: the whole set is the unit.
        out.push_back(at);
        break;
    }
  }
}

}  // namespace

std::vector<cty::AttributePath> SchemaRequiresReplace(const Block& block, const cty::Value& prior,
                                                      const cty::Value& planned) {
  std::vector<cty::AttributePath> out;
  CollectReplace(block, prior, planned, cty::AttributePath(), out);
  return out;
}

std::vector<cty::AttributePath> FilterRequiresReplace(const std::vector<cty::AttributePath>& paths,
                                                      const cty::Value& prior,
                                                      const cty::Value& planned) {
  std::vector<cty::AttributePath> out;
  if (prior.IsNull()) return out;
  for (const cty::AttributePath& p : paths) {
    if (p.empty()) continue;
    bool seen = false;
    for (const cty::AttributePath& q : out) seen = seen || q == p;
    if (seen) continue;
    const std::optional<cty::Value> a = ValueAtPath(prior, p);
    const std::optional<cty::Value> b = ValueAtPath(planned, p);
    const bool differ = a.has_value() != b.has_value() || (a.has_value() && !RawEquals(*a, *b));
    if (differ) out.push_back(p);
  }
  return out;
}

namespace {

class PlanChecker {
 public:
  PlanChecker(const std::string& type_name, Diagnostics& diags)
      : type_name_(type_name), diags_(diags) {}

  void Object(const Block& block, const cty::Value& prior, const cty::Value& config,
              const cty::Value& planned, const cty::AttributePath& path) {
    if (!planned.IsKnown()) {
      Fail(path, "planned an unknown value for a whole block; only its attributes may be unknown");
      return;
    }
    if (planned.IsNull()) {
      Fail(path, "planned a null object");
      return;
    }
    for (const auto& [name, attr] : block.attributes) {
      AttributeValue(attr, GetAttr(prior, name, attr.type), GetAttr(config, name, attr.type),
                     GetAttr(planned, name, attr.type), path.Attribute(name));
    }
    for (const auto& [name, nested] : block.block_types) {
      const cty::Type inner = ImpliedType(nested.block);
      const cty::Type t = ImpliedType(block).attributes().at(name);
      NestedValue(nested, inner, GetAttr(prior, name, t), GetAttr(config, name, t),
                  GetAttr(planned, name, t), path.Attribute(name));
    }
  }

 private:
  void Fail(const cty::AttributePath& path, const std::string& problem) {
    diags_.AddAttributeError(
        path, "Provider produced invalid plan",
        absl::StrCat("The provider planned an invalid value for ", type_name_, path.ToString(),
                     ": ", problem,
                     ".\n\nThis is a bug in the provider; the plan was not sent to Terraform."));
  }

  void AttributeValue(const Attribute& attr, const cty::Value& prior, const cty::Value& config,
                      const cty::Value& planned, const cty::AttributePath& path) {
    if (RawEquals(planned, config)) return;
    if (!prior.IsNull() && !config.IsNull() && RawEquals(planned, prior)) return;
    if (attr.computed && !attr.optional) return;
    if (config.IsNull() && attr.computed) return;
    if (config.IsNull() && !planned.IsNull()) {
      Fail(path, absl::StrCat("planned value ", Show(&attr, planned),
                              " for a non-computed attribute that is not configured"));
      return;
    }
    if (prior.IsNull()) {
      Fail(path, absl::StrCat("planned value ", Show(&attr, planned),
                              " does not match config value ", Show(&attr, config)));
    } else {
      Fail(path,
           absl::StrCat("planned value ", Show(&attr, planned), " does not match config value ",
                        Show(&attr, config), " nor prior value ", Show(&attr, prior)));
    }
  }

  void NestedValue(const NestedBlock& nested, const cty::Type& inner, const cty::Value& prior,
                   const cty::Value& config, const cty::Value& planned,
                   const cty::AttributePath& path) {
    // A wholly unknown config block is a dynamic block whose for_each is unknown: the plan must
    // keep it as it is (Terraform's AssertPlanValid).
    if (!config.IsKnown()) {
      if (!RawEquals(planned, config)) {
        Fail(path,
             "planned a value for a dynamic block whose configuration is unknown; it must "
             "stay unknown");
      }
      return;
    }
    if (!planned.IsKnown()) {
      Fail(path, "planned an unknown value for a whole block; only its attributes may be unknown");
      return;
    }
    switch (nested.nesting) {
      case Nesting::kSingle:
        if (planned.IsNull()) {
          if (Usable(config)) Fail(path, "planned the block as absent but it is configured");
          return;
        }
        if (config.IsKnown() && config.IsNull()) {
          Fail(path, "planned the block as present but it is not configured");
          return;
        }
        Object(nested.block, prior, config, planned, path);
        return;
      case Nesting::kGroup:
        Object(nested.block, prior, config, planned, path);
        return;
      case Nesting::kList: {
        if (planned.IsNull()) {
          Fail(path, "planned a null list of blocks; use an empty list");
          return;
        }
        const size_t n = planned.elements().size();
        if (Usable(config) && config.elements().size() != n) {
          Fail(path, absl::StrCat("planned ", n, " blocks but ", config.elements().size(),
                                  " are configured"));
          return;
        }
        for (size_t i = 0; i < n; ++i) {
          Object(nested.block, Element(prior, i, inner), Element(config, i, inner),
                 planned.elements()[i], path.Index(static_cast<int64_t>(i)));
        }
        return;
      }
      case Nesting::kMap: {
        if (planned.IsNull()) {
          Fail(path, "planned a null map of blocks; use an empty map");
          return;
        }
        if (Usable(config)) {
          for (const auto& [k, v] : config.entries()) {
            if (planned.entries().count(k) == 0) {
              Fail(path.ElementKey(k), "a configured block is missing from the plan");
            }
          }
          for (const auto& [k, v] : planned.entries()) {
            if (config.entries().count(k) == 0) {
              Fail(path.ElementKey(k), "planned a block that is not configured");
            }
          }
        }
        for (const auto& [k, v] : planned.entries()) {
          Object(nested.block, Entry(prior, k, inner), Entry(config, k, inner), v,
                 path.ElementKey(k));
        }
        return;
      }
      case Nesting::kSet:
        if (planned.IsNull()) Fail(path, "planned a null set of blocks; use an empty set");
        return;
    }
  }

  const std::string& type_name_;
  Diagnostics& diags_;
};

class CompatChecker {
 public:
  CompatChecker(const std::string& what, Diagnostics& diags) : what_(what), diags_(diags) {}

  void Object(const Block& block, const cty::Value& planned, const cty::Value& actual,
              const cty::AttributePath& path) {
    if (!planned.IsKnown()) return;
    if (planned.IsNull() || !Usable(actual)) {
      if (planned.IsNull() != actual.IsNull()) {
        Fail(path, nullptr, planned, actual);
      }
      return;
    }
    for (const auto& [name, attr] : block.attributes) {
      Value(&attr, GetAttr(planned, name, attr.type), GetAttr(actual, name, attr.type),
            path.Attribute(name));
    }
    for (const auto& [name, nested] : block.block_types) {
      const cty::Type inner = ImpliedType(nested.block);
      const cty::Type t = ImpliedType(block).attributes().at(name);
      const cty::Value p = GetAttr(planned, name, t);
      const cty::Value a = GetAttr(actual, name, t);
      const cty::AttributePath at = path.Attribute(name);
      if (!p.IsKnown()) continue;
      switch (nested.nesting) {
        case Nesting::kSingle:
        case Nesting::kGroup:
          Object(nested.block, p, a, at);
          break;
        case Nesting::kList:
          if (!Usable(p) || !Usable(a) || p.elements().size() != a.elements().size()) {
            if (!(p.IsNull() && a.IsNull())) {
              FailText(at, absl::StrCat("the number of blocks changed from ",
                                        Usable(p) ? p.elements().size() : 0, " to ",
                                        Usable(a) ? a.elements().size() : 0));
            }
            break;
          }
          for (size_t i = 0; i < p.elements().size(); ++i) {
            Object(nested.block, p.elements()[i], a.elements()[i],
                   at.Index(static_cast<int64_t>(i)));
          }
          break;
        case Nesting::kMap:
          if (!Usable(p) || !Usable(a)) break;
          for (const auto& [k, v] : p.entries()) {
            Object(nested.block, v, Entry(a, k, inner), at.ElementKey(k));
          }
          for (const auto& [k, v] : a.entries()) {
            if (p.entries().count(k) == 0) FailText(at.ElementKey(k), "a block appeared");
          }
          break;
        case Nesting::kSet:
          if (p.IsWhollyKnown() && !RawEquals(p, a)) Fail(at, nullptr, p, a);
          break;
      }
    }
  }

 private:
  void Value(const Attribute* attr, const cty::Value& planned, const cty::Value& actual,
             const cty::AttributePath& path) {
    if (!planned.IsKnown()) return;
    if (planned.IsNull() || actual.IsNull() || !actual.IsKnown()) {
      if (!RawEquals(planned, actual)) Fail(path, attr, planned, actual);
      return;
    }
    if (planned.IsWhollyKnown()) {
      if (!RawEquals(planned, actual)) Fail(path, attr, planned, actual);
      return;
    }
    // Partly unknown collection or object: compare what is known.
    const Kind kind = planned.type().kind();
    if (kind != actual.type().kind()) {
      Fail(path, attr, planned, actual);
      return;
    }
    switch (kind) {
      case Kind::kList:
      case Kind::kTuple:
        if (planned.elements().size() != actual.elements().size()) {
          Fail(path, attr, planned, actual);
          return;
        }
        for (size_t i = 0; i < planned.elements().size(); ++i) {
          Value(attr, planned.elements()[i], actual.elements()[i],
                path.Index(static_cast<int64_t>(i)));
        }
        return;
      case Kind::kMap:
      case Kind::kObject:
        if (planned.entries().size() != actual.entries().size()) {
          Fail(path, attr, planned, actual);
          return;
        }
        for (const auto& [k, v] : planned.entries()) {
          auto it = actual.entries().find(k);
          if (it == actual.entries().end()) {
            Fail(path, attr, planned, actual);
            return;
          }
          Value(attr, v, it->second, kind == Kind::kMap ? path.ElementKey(k) : path.Attribute(k));
        }
        return;
      default:
        return;  // sets with unknowns: elements may merge, nothing reliable to compare
    }
  }

  void Fail(const cty::AttributePath& path, const Attribute* attr, const cty::Value& planned,
            const cty::Value& actual) {
    if (attr != nullptr && attr->sensitive) {
      FailText(path, "inconsistent values for sensitive attribute");
      return;
    }
    FailText(path, absl::StrCat("was ", planned.DebugString(), ", but now ", actual.DebugString()));
  }

  void FailText(const cty::AttributePath& path, const std::string& problem) {
    diags_.AddAttributeError(
        path, "Provider produced inconsistent result",
        absl::StrCat("When ", what_, ", the provider produced an unexpected new value: ",
                     path.ToString(), ": ", problem,
                     ".\n\nThis is a bug in the provider; the engine caught it before Terraform "
                     "did."));
  }

  const std::string& what_;
  Diagnostics& diags_;
};

}  // namespace

void AssertPlanValid(const std::string& type_name, const Block& block, const cty::Value& prior,
                     const cty::Value& config, const cty::Value& planned,
                     Diagnostics& diagnostics) {
  PlanChecker(type_name, diagnostics).Object(block, prior, config, planned, cty::AttributePath());
}

void AssertObjectCompatible(const std::string& what, const Block& block, const cty::Value& planned,
                            const cty::Value& actual, Diagnostics& diagnostics) {
  CompatChecker(what, diagnostics).Object(block, planned, actual, cty::AttributePath());
}

}  // namespace plan

PlanResourceChangeResult ProviderServer::PlanResourceChange(const std::string& type_name,
                                                            const cty::Value& prior_state,
                                                            const cty::Value& proposed_new_state,
                                                            const cty::Value& config,
                                                            const std::string& prior_private) {
  PlanResourceChangeResult result;
  result.planned_private = prior_private;
  const Schema* schema = nullptr;
  std::unique_ptr<Resource> resource = NewResource(type_name, &schema, result.diagnostics);
  if (resource == nullptr) return result;
  const cty::Type type = ImpliedType(schema->block);

  // Destroy: the planned state is null.
  if (proposed_new_state.IsNull()) {
    result.planned_state = cty::Value::Null(type);
    return result;
  }
  if (!proposed_new_state.IsKnown() || config.IsNull() || !config.IsKnown()) {
    result.diagnostics.AddError(
        "Invalid plan request",
        absl::StrCat("Terraform sent a plan request for ", type_name,
                     " with an unknown proposed state or a null configuration."));
    result.planned_state = proposed_new_state;
    return result;
  }
  const bool create = prior_state.IsNull();
  const cty::Value prior = create ? cty::Value::Null(type) : prior_state;

  ModifyPlanResponse response;
  response.planned_state = NormalizeBlocks(
      schema->block, plan::MarkComputedUnknown(schema->block, proposed_new_state, config, prior));
  if (!create) {
    response.requires_replace =
        plan::SchemaRequiresReplace(schema->block, prior, response.planned_state);
  }
  response.planned_private = prior_private;

  if (auto* modifier = dynamic_cast<ResourceWithModifyPlan*>(resource.get())) {
    ModifyPlanRequest request;
    request.context = context();
    request.config = config;
    request.prior_state = prior;
    request.proposed_new_state = proposed_new_state;
    request.prior_private = prior_private;
    modifier->ModifyPlan(request, response);
  }
  result.diagnostics.Append(response.diagnostics);
  result.planned_private = response.planned_private;
  if (result.diagnostics.HasError()) {
    result.planned_state = cty::CheckConformance(response.planned_state, type).ok()
                               ? response.planned_state
                               : proposed_new_state;
    return result;
  }
  if (absl::Status s = cty::CheckConformance(response.planned_state, type); !s.ok()) {
    result.diagnostics.AddStatusError("Provider produced invalid plan",
                                      absl::StrCat("The planned state for ", type_name,
                                                   " does not conform to the schema: ", s.message(),
                                                   "\n\nThis is a bug in the provider."),
                                      s);
    result.planned_state = proposed_new_state;
    return result;
  }
  plan::AssertPlanValid(type_name, schema->block, prior, config, response.planned_state,
                        result.diagnostics);
  result.planned_state = response.planned_state;
  if (result.diagnostics.HasError()) {
    result.planned_state = proposed_new_state;
    return result;
  }
  result.requires_replace =
      plan::FilterRequiresReplace(response.requires_replace, prior, response.planned_state);
  return result;
}

}  // namespace nsxalb::framework
