// Implementation of Terraform core's rules for provider answers (see the header and reference §4).
#include "tests/harness/terraform_rules.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/common/status_macros.h"

namespace nsxalb::harness {
namespace {

using cty::AttributePath;
using cty::Type;
using cty::Value;

// One broken rule at a path inside the checked object.
struct Problem {
  AttributePath path;
  std::string message;
};

// Terraform's tfdiags.FormatErrorPrefixed: "ADDR.path: message" or "ADDR: message".
std::string Prefixed(std::string_view address, const Problem& p) {
  if (p.path.empty()) return absl::StrCat(std::string(address), ": ", p.message);
  return absl::StrCat(std::string(address), p.path.ToString(), ": ", p.message);
}

// Terraform's tfdiags.FormatError: ".path: message" or "message" at the root.
std::string Unprefixed(const Problem& p) {
  if (p.path.empty()) return p.message;
  return absl::StrCat(p.path.ToString(), ": ", p.message);
}

absl::Status Failure(std::string_view summary, const std::vector<std::string>& details) {
  std::vector<std::string> lines;
  for (const std::string& d : details) lines.push_back(absl::StrCat(std::string(summary), ": ", d));
  return absl::FailedPreconditionError(absl::StrJoin(lines, "\n"));
}

std::string Quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

Type NestedType(const NestedBlock& nb) {
  Type inner = ImpliedType(nb.block);
  switch (nb.nesting) {
    case NestedBlock::Nesting::kSingle:
    case NestedBlock::Nesting::kGroup:
      return inner;
    case NestedBlock::Nesting::kList:
      return inner.HasDynamic() ? Type::Dynamic() : Type::List(inner);
    case NestedBlock::Nesting::kSet:
      return Type::Set(inner);
    case NestedBlock::Nesting::kMap:
      return inner.HasDynamic() ? Type::Dynamic() : Type::Map(inner);
    case NestedBlock::Nesting::kInvalid:
      break;
  }
  return Type::Dynamic();
}

// cty's GetAttr, tolerant of null, unknown and missing: null/unknown of `type` then.
Value GetAttr(const Value& object, const std::string& name, const Type& type) {
  if (!object.IsKnown()) return Value::Unknown(type);
  if (object.IsNull()) return Value::Null(type);
  const Value* v = object.GetAttribute(name);
  return v == nullptr ? Value::Null(type) : *v;
}

bool IsKnownNonNull(const Value& v) { return v.IsKnown() && !v.IsNull(); }

size_t Length(const Value& v) {
  if (!IsKnownNonNull(v)) return 0;
  const Type::Kind k = v.type().kind();
  if (k == Type::Kind::kMap || k == Type::Kind::kObject) return v.entries().size();
  return v.elements().size();
}

// ---- ProposedNewObject ----

Value ProposedNewInner(const Block& block, const Value& prior, const Value& config);

Value ProposedNewTop(const Block& block, const Value& prior, const Value& config) {
  if (config.IsNull() && prior.IsNull()) return prior;
  return ProposedNewInner(block, prior.IsNull() ? EmptyValue(block) : prior, config);
}

// A set element with everything computed nulled out, so prior elements can be matched to config
// elements by what the user wrote (objchange.setElementCompareValue).
Value SetCompareValue(const Block& block, const Value& v, bool is_config) {
  if (!IsKnownNonNull(v)) return v;
  std::map<std::string, Value> attrs;
  for (const Attribute& a : block.attributes) {
    Value av = GetAttr(v, a.name, a.type);
    if (a.computed && a.optional) {
      attrs[a.name] = is_config ? av : Value::Null(a.type);
    } else if (a.computed) {
      attrs[a.name] = Value::Null(a.type);
    } else {
      attrs[a.name] = av;
    }
  }
  for (const NestedBlock& nb : block.block_types) {
    Value bv = GetAttr(v, nb.type_name, NestedType(nb));
    switch (nb.nesting) {
      case NestedBlock::Nesting::kSingle:
      case NestedBlock::Nesting::kGroup:
        attrs[nb.type_name] = SetCompareValue(nb.block, bv, is_config);
        break;
      case NestedBlock::Nesting::kList:
      case NestedBlock::Nesting::kSet: {
        if (!IsKnownNonNull(bv)) {
          attrs[nb.type_name] = bv;
          break;
        }
        std::vector<Value> elems;
        for (const Value& e : bv.elements())
          elems.push_back(SetCompareValue(nb.block, e, is_config));
        if (bv.type().kind() == Type::Kind::kTuple) {
          attrs[nb.type_name] = Value::Tuple(std::move(elems));
        } else if (nb.nesting == NestedBlock::Nesting::kSet) {
          attrs[nb.type_name] = Value::Set(ImpliedType(nb.block), std::move(elems));
        } else {
          attrs[nb.type_name] = Value::List(ImpliedType(nb.block), std::move(elems));
        }
        break;
      }
      case NestedBlock::Nesting::kMap: {
        if (!IsKnownNonNull(bv)) {
          attrs[nb.type_name] = bv;
          break;
        }
        std::map<std::string, Value> entries;
        for (const auto& [k, e] : bv.entries()) {
          entries[k] = SetCompareValue(nb.block, e, is_config);
        }
        attrs[nb.type_name] = bv.type().kind() == Type::Kind::kObject
                                  ? Value::Object(std::move(entries))
                                  : Value::Map(ImpliedType(nb.block), std::move(entries));
        break;
      }
      case NestedBlock::Nesting::kInvalid:
        break;
    }
  }
  return Value::Object(std::move(attrs));
}

Value ProposedNewNested(const NestedBlock& nb, const Value& prior, const Value& config) {
  const Type element_type = ImpliedType(nb.block);
  switch (nb.nesting) {
    case NestedBlock::Nesting::kSingle:
    case NestedBlock::Nesting::kGroup:
      return ProposedNewTop(nb.block, prior, config);
    case NestedBlock::Nesting::kList: {
      const bool tuple = config.type().kind() == Type::Kind::kTuple;
      std::vector<Value> out;
      if (Length(config) > 0) {
        for (size_t i = 0; i < config.elements().size(); ++i) {
          const Value& config_ev = config.elements()[i];
          if (prior.IsKnown() && (prior.IsNull() || i >= prior.elements().size())) {
            out.push_back(config_ev);
            continue;
          }
          Value prior_ev = prior.IsKnown() ? prior.elements()[i] : Value::Unknown(element_type);
          out.push_back(ProposedNewInner(nb.block, prior_ev, config_ev));
        }
      }
      return tuple ? Value::Tuple(std::move(out)) : Value::List(element_type, std::move(out));
    }
    case NestedBlock::Nesting::kMap: {
      const bool object = config.type().kind() == Type::Kind::kObject;
      std::map<std::string, Value> out;
      if (Length(config) > 0) {
        for (const auto& [key, config_ev] : config.entries()) {
          const Value* prior_ev = nullptr;
          if (IsKnownNonNull(prior)) {
            auto it = prior.entries().find(key);
            if (it != prior.entries().end()) prior_ev = &it->second;
          }
          if (prior_ev == nullptr) {
            out[key] = config_ev;
            continue;
          }
          out[key] = ProposedNewInner(nb.block, *prior_ev, config_ev);
        }
      }
      return object ? Value::Object(std::move(out)) : Value::Map(element_type, std::move(out));
    }
    case NestedBlock::Nesting::kSet: {
      std::vector<std::pair<Value, Value>> compare;  // prior element, its compare value
      if (IsKnownNonNull(prior)) {
        for (const Value& e : prior.elements()) {
          compare.emplace_back(e, SetCompareValue(nb.block, e, false));
        }
      }
      std::vector<bool> used(compare.size(), false);
      std::vector<Value> out;
      if (Length(config) > 0) {
        for (const Value& config_ev : config.elements()) {
          Value prior_ev = Value::Null(element_type);
          for (size_t i = 0; i < compare.size(); ++i) {
            if (!used[i] && compare[i].second.Equals(config_ev)) {
              prior_ev = compare[i].first;
              used[i] = true;
              break;
            }
          }
          out.push_back(ProposedNewTop(nb.block, prior_ev, config_ev));
        }
      }
      return Value::Set(element_type, std::move(out));
    }
    case NestedBlock::Nesting::kInvalid:
      break;
  }
  return config;
}

Value ProposedNewInner(const Block& block, const Value& prior, const Value& config) {
  if (config.IsNull() || !config.IsKnown()) return prior;
  std::map<std::string, Value> out;
  for (const Attribute& a : block.attributes) {
    Value prior_v = GetAttr(prior, a.name, a.type);
    Value config_v = GetAttr(config, a.name, a.type);
    if (a.computed && a.optional) {
      out[a.name] = config_v.IsNull() ? prior_v : config_v;
    } else if (a.computed) {
      out[a.name] = prior_v;
    } else {
      out[a.name] = config_v;
    }
  }
  for (const NestedBlock& nb : block.block_types) {
    const Type t = NestedType(nb);
    out[nb.type_name] =
        ProposedNewNested(nb, GetAttr(prior, nb.type_name, t), GetAttr(config, nb.type_name, t));
  }
  return Value::Object(std::move(out));
}

// ---- AssertPlanValid ----

void PlanValueProblems(const Attribute& a, const Value& prior_v, const Value& config_v,
                       const Value& planned_v, const AttributePath& path,
                       std::vector<Problem>* out) {
  if (planned_v.Equals(config_v)) return;
  if (planned_v.Equals(prior_v) && !prior_v.IsNull() && !config_v.IsNull()) return;
  if (a.computed && !a.optional) return;
  if (config_v.IsNull() && a.computed) return;
  if (config_v.IsNull() && !planned_v.IsNull()) {
    out->push_back({path, a.sensitive ? "planned value for a non-computed attribute"
                                      : absl::StrCat("planned value ", planned_v.DebugString(),
                                                     " for a non-computed attribute")});
    return;
  }
  if (prior_v.IsNull()) {
    out->push_back({path, a.sensitive ? "sensitive planned value does not match config value"
                                      : absl::StrCat("planned value ", planned_v.DebugString(),
                                                     " does not match config value ",
                                                     config_v.DebugString())});
    return;
  }
  out->push_back({path, a.sensitive
                            ? "sensitive planned value does not match config value nor prior value"
                            : absl::StrCat("planned value ", planned_v.DebugString(),
                                           " does not match config value ", config_v.DebugString(),
                                           " nor prior value ", prior_v.DebugString())});
}

void PlanProblems(const Block& block, const Value& prior, const Value& config, const Value& planned,
                  const AttributePath& path, std::vector<Problem>* out) {
  if (planned.IsNull() && !config.IsNull()) {
    out->push_back({path, "planned for absence but config wants existence"});
    return;
  }
  if (config.IsNull() && !planned.IsNull()) {
    out->push_back({path, "planned for existence but config wants absence"});
    return;
  }
  if (planned.IsNull()) return;
  if (!planned.IsKnown()) {
    out->push_back({path, "planned value is unknown as a whole"});
    return;
  }

  for (const Attribute& a : block.attributes) {
    Value planned_v = GetAttr(planned, a.name, a.type);
    Value config_v = GetAttr(config, a.name, a.type);
    Value prior_v = GetAttr(prior, a.name, a.type);
    if (a.write_only && !planned_v.IsNull()) {
      out->push_back(
          {path.Attribute(a.name), "planned value for write-only attribute is not null"});
      continue;
    }
    PlanValueProblems(a, prior_v, config_v, planned_v, path.Attribute(a.name), out);
  }

  for (const NestedBlock& nb : block.block_types) {
    const AttributePath bpath = path.Attribute(nb.type_name);
    const Type t = NestedType(nb);
    const Type element_type = ImpliedType(nb.block);
    Value planned_v = GetAttr(planned, nb.type_name, t);
    Value config_v = GetAttr(config, nb.type_name, t);
    Value prior_v = GetAttr(prior, nb.type_name, t);
    if (planned_v.Equals(config_v)) continue;
    if (!config_v.IsKnown()) {
      out->push_back({bpath, absl::StrCat("planned value ", planned_v.DebugString(),
                                          " for unknown dynamic block")});
      continue;
    }
    if (!planned_v.IsKnown()) {
      out->push_back({bpath,
                      "attribute representing nested block must not be unknown itself; "
                      "set nested attribute values to unknown instead"});
      continue;
    }
    auto unknown_element = [&](const AttributePath& p) {
      out->push_back({p,
                      "element representing nested block must not be unknown itself; set "
                      "nested attribute values to unknown instead"});
    };
    switch (nb.nesting) {
      case NestedBlock::Nesting::kSingle:
      case NestedBlock::Nesting::kGroup:
        PlanProblems(nb.block, prior_v, config_v, planned_v, bpath, out);
        break;
      case NestedBlock::Nesting::kList: {
        if (planned_v.IsNull()) {
          out->push_back({bpath,
                          "attribute representing a list of nested blocks must be empty to "
                          "indicate no blocks, not null"});
          break;
        }
        const size_t planned_n = Length(planned_v);
        const size_t config_n = Length(config_v);
        if (planned_n != config_n) {
          out->push_back(
              {bpath, absl::StrCat("block count in plan (", planned_n,
                                   ") disagrees with count in config (", config_n, ")")});
          break;
        }
        for (size_t i = 0; i < planned_n; ++i) {
          const AttributePath epath = bpath.Index(static_cast<int64_t>(i));
          const Value& planned_ev = planned_v.elements()[i];
          if (!planned_ev.IsKnown()) {
            unknown_element(epath);
            continue;
          }
          Value prior_ev = Value::Null(element_type);
          if (IsKnownNonNull(prior_v) && i < prior_v.elements().size()) {
            prior_ev = prior_v.elements()[i];
          }
          PlanProblems(nb.block, prior_ev, config_v.elements()[i], planned_ev, epath, out);
        }
        break;
      }
      case NestedBlock::Nesting::kMap: {
        if (planned_v.IsNull()) {
          out->push_back({bpath,
                          "attribute representing a map of nested blocks must be empty to "
                          "indicate no blocks, not null"});
          break;
        }
        const bool object = planned_v.type().kind() == Type::Kind::kObject;
        if (!object && Length(planned_v) != Length(config_v)) {
          out->push_back(
              {bpath, absl::StrCat("block count in plan (", Length(planned_v),
                                   ") disagrees with count in config (", Length(config_v), ")")});
          break;
        }
        static const std::map<std::string, Value> kNoEntries;
        const auto& config_entries = IsKnownNonNull(config_v) ? config_v.entries() : kNoEntries;
        for (const auto& [key, planned_ev] : planned_v.entries()) {
          auto cit = config_entries.find(key);
          if (cit == config_entries.end()) {
            out->push_back({bpath, absl::StrCat("block key ", Quote(key),
                                                " from plan is not present in config")});
            continue;
          }
          const AttributePath epath = object ? bpath.Attribute(key) : bpath.ElementKey(key);
          if (!planned_ev.IsKnown()) {
            unknown_element(epath);
            continue;
          }
          Value prior_ev = Value::Null(element_type);
          if (IsKnownNonNull(prior_v)) {
            auto pit = prior_v.entries().find(key);
            if (pit != prior_v.entries().end()) prior_ev = pit->second;
          }
          PlanProblems(nb.block, prior_ev, cit->second, planned_ev, epath, out);
        }
        for (const auto& [key, config_ev] : config_entries) {
          if (planned_v.entries().count(key) == 0) {
            out->push_back({bpath, absl::StrCat("block key ", Quote(key),
                                                " from config is not present in plan")});
          }
        }
        break;
      }
      case NestedBlock::Nesting::kSet: {
        if (planned_v.IsNull()) {
          out->push_back({bpath,
                          "attribute representing a set of nested blocks must be empty to "
                          "indicate no blocks, not null"});
          break;
        }
        // Set elements cannot be correlated, so Terraform only checks they are not unknown.
        for (size_t i = 0; i < planned_v.elements().size(); ++i) {
          if (!planned_v.elements()[i].IsKnown()) {
            unknown_element(bpath.Index(static_cast<int64_t>(i)));
          }
        }
        break;
      }
      case NestedBlock::Nesting::kInvalid:
        out->push_back({bpath, "invalid nesting mode"});
        break;
    }
  }
}

// ---- AssertObjectCompatible ----

std::string IndexForErrors(const std::string& key) { return Quote(key); }

void ValueCompatProblems(const Value& planned, const Value& actual, const AttributePath& path,
                         std::vector<Problem>* out) {
  if (planned.type().kind() == Type::Kind::kDynamic) return;
  if (!actual.type().ConformsTo(planned.type())) {
    out->push_back({path, absl::StrCat("wrong final value type: ", planned.type().FriendlyName(),
                                       " required, got ", actual.type().FriendlyName())});
    return;
  }
  if (!planned.IsKnown()) return;
  if (actual.IsNull()) {
    if (!planned.IsNull()) {
      out->push_back({path, absl::StrCat("was ", planned.DebugString(), ", but now null")});
    }
    return;
  }
  if (planned.IsNull()) {
    out->push_back({path, absl::StrCat("was null, but now ", actual.DebugString())});
    return;
  }
  if (!actual.IsKnown()) {
    out->push_back({path, "was known, but now unknown"});
    return;
  }
  switch (planned.type().kind()) {
    case Type::Kind::kString:
    case Type::Kind::kNumber:
    case Type::Kind::kBool:
      if (!actual.Equals(planned)) {
        out->push_back({path, absl::StrCat("was ", planned.DebugString(), ", but now ",
                                           actual.DebugString())});
      }
      return;
    case Type::Kind::kList:
    case Type::Kind::kTuple: {
      const auto& p = planned.elements();
      const auto& a = actual.elements();
      for (size_t i = 0; i < p.size(); ++i) {
        if (i >= a.size()) {
          out->push_back({path, absl::StrCat("element ", i, " has vanished")});
          continue;
        }
        ValueCompatProblems(p[i], a[i], path.Index(static_cast<int64_t>(i)), out);
      }
      for (size_t i = p.size(); i < a.size(); ++i) {
        out->push_back({path, absl::StrCat("new element ", i, " has appeared")});
      }
      return;
    }
    case Type::Kind::kMap: {
      for (const auto& [k, pv] : planned.entries()) {
        auto it = actual.entries().find(k);
        if (it == actual.entries().end()) {
          out->push_back({path, absl::StrCat("element ", IndexForErrors(k), " has vanished")});
          continue;
        }
        ValueCompatProblems(pv, it->second, path.ElementKey(k), out);
      }
      for (const auto& [k, av] : actual.entries()) {
        if (planned.entries().count(k) == 0) {
          out->push_back({path, absl::StrCat("new element ", IndexForErrors(k), " has appeared")});
        }
      }
      return;
    }
    case Type::Kind::kObject:
      for (const auto& [name, pv] : planned.entries()) {
        const Value* av = actual.GetAttribute(name);
        ValueCompatProblems(pv, av ? *av : Value::Null(pv.type()), path.Attribute(name), out);
      }
      return;
    case Type::Kind::kSet: {
      if (!planned.IsWhollyKnown() || !actual.IsWhollyKnown()) return;
      if (planned.elements().size() != actual.elements().size()) {
        out->push_back({path, absl::StrCat("set length changed from ", planned.elements().size(),
                                           " to ", actual.elements().size())});
        return;
      }
      for (const Value& pe : planned.elements()) {
        bool found = false;
        for (const Value& ae : actual.elements()) found = found || ae.Equals(pe);
        if (!found) {
          out->push_back({path, absl::StrCat("planned set element ", pe.DebugString(),
                                             " does not correlate with any element in actual")});
        }
      }
      return;
    }
    case Type::Kind::kDynamic:
      return;
  }
}

// True when some block in `v` has only unknown attributes: Terraform then assumes a dynamic block
// with an unknown for_each and checks counts loosely.
bool CouldHaveUnknownBlockPlaceholder(const Value& v) {
  if (!IsKnownNonNull(v)) return !v.IsKnown();
  auto all_unknown = [](const Value& obj) {
    if (!IsKnownNonNull(obj) || obj.entries().empty()) return !obj.IsKnown();
    for (const auto& [k, e] : obj.entries()) {
      if (e.IsKnown()) return false;
    }
    return true;
  };
  const Type::Kind k = v.type().kind();
  if (k == Type::Kind::kList || k == Type::Kind::kSet || k == Type::Kind::kTuple) {
    for (const Value& e : v.elements()) {
      if (all_unknown(e)) return true;
    }
    return false;
  }
  if (k == Type::Kind::kMap) {
    for (const auto& [key, e] : v.entries()) {
      if (all_unknown(e)) return true;
    }
    return false;
  }
  return all_unknown(v);
}

void ObjectCompatProblems(const Block& block, const Value& planned, const Value& actual,
                          const AttributePath& path, std::vector<Problem>* out) {
  const std::string at_root = path.empty() ? "Root object " : "";
  if (planned.IsNull() && !actual.IsNull()) {
    out->push_back({path, absl::StrCat(at_root, "was absent, but now present")});
    return;
  }
  if (actual.IsNull() && !planned.IsNull()) {
    out->push_back({path, absl::StrCat(at_root, "was present, but now absent")});
    return;
  }
  if (planned.IsNull()) return;
  for (const Attribute& a : block.attributes) {
    std::vector<Problem> more;
    ValueCompatProblems(GetAttr(planned, a.name, a.type), GetAttr(actual, a.name, a.type),
                        path.Attribute(a.name), &more);
    if (a.sensitive && !more.empty()) {
      out->push_back({path.Attribute(a.name), "inconsistent values for sensitive attribute"});
    } else {
      out->insert(out->end(), more.begin(), more.end());
    }
  }
  for (const NestedBlock& nb : block.block_types) {
    const Type t = NestedType(nb);
    const AttributePath bpath = path.Attribute(nb.type_name);
    Value planned_v = GetAttr(planned, nb.type_name, t);
    Value actual_v = GetAttr(actual, nb.type_name, t);
    const bool maybe_unknown_blocks = CouldHaveUnknownBlockPlaceholder(planned_v);
    switch (nb.nesting) {
      case NestedBlock::Nesting::kSingle:
      case NestedBlock::Nesting::kGroup:
        if (maybe_unknown_blocks && actual_v.IsNull()) break;
        ObjectCompatProblems(nb.block, planned_v, actual_v, bpath, out);
        break;
      case NestedBlock::Nesting::kList: {
        if (!IsKnownNonNull(planned_v) || !IsKnownNonNull(actual_v) || maybe_unknown_blocks) break;
        if (planned_v.elements().size() != actual_v.elements().size()) {
          out->push_back(
              {bpath, absl::StrCat("block count changed from ", planned_v.elements().size(), " to ",
                                   actual_v.elements().size())});
          break;
        }
        for (size_t i = 0; i < planned_v.elements().size(); ++i) {
          ObjectCompatProblems(nb.block, planned_v.elements()[i], actual_v.elements()[i],
                               bpath.Index(static_cast<int64_t>(i)), out);
        }
        break;
      }
      case NestedBlock::Nesting::kMap: {
        if (!IsKnownNonNull(planned_v) || !IsKnownNonNull(actual_v)) break;
        const bool object = planned_v.type().kind() == Type::Kind::kObject;
        if (!object && planned_v.entries().size() != actual_v.entries().size() &&
            !maybe_unknown_blocks) {
          out->push_back(
              {bpath, absl::StrCat("block count changed from ", planned_v.entries().size(), " to ",
                                   actual_v.entries().size())});
          break;
        }
        for (const auto& [k, pe] : planned_v.entries()) {
          auto it = actual_v.entries().find(k);
          if (it == actual_v.entries().end()) {
            if (object)
              out->push_back({bpath, absl::StrCat("block key ", Quote(k), " has vanished")});
            continue;
          }
          ObjectCompatProblems(nb.block, pe, it->second,
                               object ? bpath.Attribute(k) : bpath.ElementKey(k), out);
        }
        if (object && !maybe_unknown_blocks) {
          for (const auto& [k, ae] : actual_v.entries()) {
            if (planned_v.entries().count(k) == 0) {
              out->push_back({bpath, absl::StrCat("new block key ", Quote(k), " has appeared")});
            }
          }
        }
        break;
      }
      case NestedBlock::Nesting::kSet: {
        if (!IsKnownNonNull(planned_v) || !IsKnownNonNull(actual_v)) break;
        // Each planned element must be compatible with some actual element.
        for (const Value& pe : planned_v.elements()) {
          bool matched = false;
          for (const Value& ae : actual_v.elements()) {
            std::vector<Problem> probe;
            ObjectCompatProblems(nb.block, pe, ae, bpath, &probe);
            if (probe.empty()) {
              matched = true;
              break;
            }
          }
          if (!matched && !maybe_unknown_blocks) {
            out->push_back({bpath, absl::StrCat("planned set element ", pe.DebugString(),
                                                " does not correlate with any element in actual")});
          }
        }
        if (planned_v.elements().size() < actual_v.elements().size()) {
          out->push_back(
              {bpath, absl::StrCat("block set length changed from ", planned_v.elements().size(),
                                   " to ", actual_v.elements().size())});
        }
        break;
      }
      case NestedBlock::Nesting::kInvalid:
        break;
    }
  }
}

// ---- Paths ----

// hcl.ApplyPath-like: whether `path` leads somewhere in `v`. Stepping into an unknown is allowed
// (the result is unknown); into a null or past the end is not.
bool PathExists(const Value& v, const AttributePath& path) {
  Value current = v;
  for (const AttributePath::Step& step : path.steps()) {
    if (!current.IsKnown()) return true;
    if (current.IsNull()) return false;
    const Type::Kind k = current.type().kind();
    switch (step.kind) {
      case AttributePath::Step::Kind::kAttribute: {
        const Value* a = current.GetAttribute(step.name);
        if (a == nullptr) return false;
        current = *a;
        break;
      }
      case AttributePath::Step::Kind::kElementKeyString: {
        if (k != Type::Kind::kMap && k != Type::Kind::kObject) return false;
        auto it = current.entries().find(step.name);
        if (it == current.entries().end()) return false;
        current = it->second;
        break;
      }
      case AttributePath::Step::Kind::kElementKeyInt: {
        if (k != Type::Kind::kList && k != Type::Kind::kTuple) return false;
        if (step.index < 0 || static_cast<size_t>(step.index) >= current.elements().size()) {
          return false;
        }
        current = current.elements()[static_cast<size_t>(step.index)];
        break;
      }
    }
  }
  return true;
}

std::optional<Value> ValueAt(const Value& v, const AttributePath& path) {
  if (!PathExists(v, path)) return std::nullopt;
  absl::StatusOr<Value> got = v.GetPath(path);
  if (!got.ok()) return Value::Unknown(Type::Dynamic());  // stepped into an unknown
  return *got;
}

// A Go-syntax rendering of a path for the requires_replace message.
std::string PathGoString(const AttributePath& path) {
  std::vector<std::string> steps;
  for (const AttributePath::Step& s : path.steps()) {
    switch (s.kind) {
      case AttributePath::Step::Kind::kAttribute:
        steps.push_back(absl::StrCat("cty.GetAttrStep{Name:", Quote(s.name), "}"));
        break;
      case AttributePath::Step::Kind::kElementKeyString:
        steps.push_back(absl::StrCat("cty.IndexStep{Key:cty.StringVal(", Quote(s.name), ")}"));
        break;
      case AttributePath::Step::Kind::kElementKeyInt:
        steps.push_back(absl::StrCat("cty.IndexStep{Key:cty.NumberIntVal(", s.index, ")}"));
        break;
    }
  }
  return absl::StrCat("cty.Path{", absl::StrJoin(steps, ", "), "}");
}

std::vector<std::string> UnknownPaths(const Value& v) {
  std::vector<std::string> out;
  cty::Walk(v, [&](const AttributePath& p, const Value& x) {
    if (!x.IsKnown()) {
      out.push_back(p.ToString());
      return false;
    }
    return true;
  });
  return out;
}

// ---- Schema validation ----

bool ValidName(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

void ValidateBlock(const Block& block, const std::string& prefix, std::vector<std::string>* out) {
  std::map<std::string, int> seen;
  for (const Attribute& a : block.attributes) {
    const std::string name = prefix + a.name;
    if (!ValidName(a.name)) {
      out->push_back(absl::StrCat(name,
                                  ": name may contain only lowercase letters, digits and "
                                  "underscores"));
    }
    if (!a.optional && !a.required && !a.computed) {
      out->push_back(absl::StrCat(name, ": must set Optional, Required or Computed"));
    }
    if (a.optional && a.required) {
      out->push_back(absl::StrCat(name, ": cannot set both Optional and Required"));
    }
    if (a.computed && a.required) {
      out->push_back(absl::StrCat(name, ": cannot set both Computed and Required"));
    }
    if (++seen[a.name] > 1) out->push_back(absl::StrCat(name, ": name defined more than once"));
  }
  for (const NestedBlock& nb : block.block_types) {
    const std::string name = prefix + nb.type_name;
    if (!ValidName(nb.type_name)) {
      out->push_back(absl::StrCat(name,
                                  ": name may contain only lowercase letters, digits and "
                                  "underscores"));
    }
    if (++seen[nb.type_name] > 1) {
      out->push_back(absl::StrCat(name, ": name defined as both attribute and child block type"));
    }
    if (nb.min_items < 0 || nb.max_items < 0) {
      out->push_back(absl::StrCat(name, ": MinItems and MaxItems must both be greater than zero"));
    }
    switch (nb.nesting) {
      case NestedBlock::Nesting::kSingle:
        if (nb.min_items != nb.max_items) {
          out->push_back(absl::StrCat(name,
                                      ": MinItems and MaxItems must match in NestingSingle "
                                      "mode"));
        } else if (nb.min_items != 0 && nb.min_items != 1) {
          out->push_back(absl::StrCat(name,
                                      ": MinItems and MaxItems must be set to either 0 or 1 "
                                      "in NestingSingle mode"));
        }
        break;
      case NestedBlock::Nesting::kGroup:
        if (nb.min_items != 0 || nb.max_items != 0) {
          out->push_back(absl::StrCat(name,
                                      ": MinItems and MaxItems cannot be used in "
                                      "NestingGroup mode"));
        }
        break;
      case NestedBlock::Nesting::kList:
      case NestedBlock::Nesting::kSet:
        if (nb.max_items != 0 && nb.min_items > nb.max_items) {
          out->push_back(absl::StrCat(
              name, ": MinItems must be less than or equal to MaxItems in ",
              nb.nesting == NestedBlock::Nesting::kList ? "NestingList" : "NestingSet", " mode"));
        }
        if (nb.nesting == NestedBlock::Nesting::kSet && ImpliedType(nb.block).HasDynamic()) {
          out->push_back(absl::StrCat(name,
                                      ": NestingSet blocks may not contain attributes of "
                                      "cty.DynamicPseudoType"));
        }
        break;
      case NestedBlock::Nesting::kMap:
        if (nb.min_items != 0 || nb.max_items != 0) {
          out->push_back(absl::StrCat(name,
                                      ": MinItems and MaxItems must both be 0 in NestingMap "
                                      "mode"));
        }
        break;
      case NestedBlock::Nesting::kInvalid:
        out->push_back(absl::StrCat(name, ": invalid nesting mode"));
        break;
    }
    ValidateBlock(nb.block, name + ".", out);
  }
}

}  // namespace

const Attribute* Block::FindAttribute(std::string_view name) const {
  for (const Attribute& a : attributes) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

const NestedBlock* Block::FindBlockType(std::string_view name) const {
  for (const NestedBlock& b : block_types) {
    if (b.type_name == name) return &b;
  }
  return nullptr;
}

absl::StatusOr<Block> BlockFromProto(const tfplugin5::Schema::Block& block) {
  Block out;
  for (const tfplugin5::Schema::Attribute& pa : block.attributes()) {
    absl::StatusOr<Type> type = Type::FromJson(pa.type());
    if (!type.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("attribute ", Quote(pa.name()), ": ", type.status().message()));
    }
    Attribute a;
    a.name = pa.name();
    a.type = *std::move(type);
    a.required = pa.required();
    a.optional = pa.optional();
    a.computed = pa.computed();
    a.sensitive = pa.sensitive();
    a.write_only = pa.write_only();
    out.attributes.push_back(std::move(a));
  }
  for (const tfplugin5::Schema::NestedBlock& pb : block.block_types()) {
    absl::StatusOr<Block> inner = BlockFromProto(pb.block());
    if (!inner.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("block ", Quote(pb.type_name()), ": ", inner.status().message()));
    }
    NestedBlock nb;
    nb.type_name = pb.type_name();
    switch (pb.nesting()) {
      case tfplugin5::Schema::NestedBlock::SINGLE:
        nb.nesting = NestedBlock::Nesting::kSingle;
        break;
      case tfplugin5::Schema::NestedBlock::LIST:
        nb.nesting = NestedBlock::Nesting::kList;
        break;
      case tfplugin5::Schema::NestedBlock::SET:
        nb.nesting = NestedBlock::Nesting::kSet;
        break;
      case tfplugin5::Schema::NestedBlock::MAP:
        nb.nesting = NestedBlock::Nesting::kMap;
        break;
      case tfplugin5::Schema::NestedBlock::GROUP:
        nb.nesting = NestedBlock::Nesting::kGroup;
        break;
      default:
        nb.nesting = NestedBlock::Nesting::kInvalid;
        break;
    }
    nb.min_items = pb.min_items();
    nb.max_items = pb.max_items();
    nb.block = *std::move(inner);
    out.block_types.push_back(std::move(nb));
  }
  return out;
}

absl::StatusOr<Schema> SchemaFromProto(const tfplugin5::Schema& schema) {
  NSXALB_ASSIGN_OR_RETURN(Block block, BlockFromProto(schema.block()));
  Schema out;
  out.version = schema.version();
  out.block = std::move(block);
  return out;
}

cty::AttributePath AttributePathFromProto(const tfplugin5::AttributePath& path) {
  AttributePath out;
  for (const tfplugin5::AttributePath::Step& s : path.steps()) {
    switch (s.selector_case()) {
      case tfplugin5::AttributePath::Step::kAttributeName:
        out = out.Attribute(s.attribute_name());
        break;
      case tfplugin5::AttributePath::Step::kElementKeyString:
        out = out.ElementKey(s.element_key_string());
        break;
      case tfplugin5::AttributePath::Step::kElementKeyInt:
        out = out.Index(s.element_key_int());
        break;
      default:
        break;
    }
  }
  return out;
}

cty::Type ImpliedType(const Block& block) {
  std::map<std::string, Type> attrs;
  for (const Attribute& a : block.attributes) attrs[a.name] = a.type;
  for (const NestedBlock& nb : block.block_types) attrs[nb.type_name] = NestedType(nb);
  return Type::Object(std::move(attrs));
}

cty::Value EmptyValue(const Block& block) {
  std::map<std::string, Value> attrs;
  for (const Attribute& a : block.attributes) attrs[a.name] = Value::Null(a.type);
  for (const NestedBlock& nb : block.block_types) {
    const Type inner = ImpliedType(nb.block);
    switch (nb.nesting) {
      case NestedBlock::Nesting::kSingle:
        attrs[nb.type_name] = Value::Null(inner);
        break;
      case NestedBlock::Nesting::kGroup:
        attrs[nb.type_name] = EmptyValue(nb.block);
        break;
      case NestedBlock::Nesting::kList:
        attrs[nb.type_name] = inner.HasDynamic() ? Value::Tuple({}) : Value::List(inner, {});
        break;
      case NestedBlock::Nesting::kSet:
        attrs[nb.type_name] = Value::Set(inner, {});
        break;
      case NestedBlock::Nesting::kMap:
        attrs[nb.type_name] = inner.HasDynamic() ? Value::Object({}) : Value::Map(inner, {});
        break;
      case NestedBlock::Nesting::kInvalid:
        attrs[nb.type_name] = Value::Null(Type::Dynamic());
        break;
    }
  }
  return Value::Object(std::move(attrs));
}

cty::Value ProposedNewObject(const Block& block, const cty::Value& prior,
                             const cty::Value& config) {
  return ProposedNewTop(block, prior, config);
}

absl::Status AssertConforms(const Block& block, const cty::Value& value, const Subject& subject) {
  absl::Status s = cty::CheckConformance(value, ImpliedType(block));
  if (s.ok()) return s;
  return Failure(
      "Provider produced invalid object",
      {absl::StrCat("Provider ", Quote(subject.provider), " produced an invalid value for ",
                    subject.address, ": ", s.message())});
}

absl::Status AssertPlanValid(const Block& block, const cty::Value& prior, const cty::Value& config,
                             const cty::Value& planned, const Subject& subject) {
  std::vector<Problem> problems;
  PlanProblems(block, prior, config, planned, AttributePath(), &problems);
  if (problems.empty()) return absl::OkStatus();
  std::vector<std::string> details;
  for (const Problem& p : problems) {
    details.push_back(absl::StrCat("Provider ", Quote(subject.provider),
                                   " planned an invalid value for ", Prefixed(subject.address, p)));
  }
  return Failure("Provider produced invalid plan", details);
}

absl::Status AssertPlanResult(const Block& block, const cty::Value& prior, const cty::Value& config,
                              const cty::Value& planned,
                              const std::vector<cty::AttributePath>& requires_replace,
                              const Subject& subject) {
  absl::Status conforms = cty::CheckConformance(planned, ImpliedType(block));
  if (!conforms.ok()) {
    std::optional<AttributePath> path = cty::ErrorPath(conforms);
    std::string message(conforms.message());
    // Re-render "path: message" with the address prefix, as Terraform does.
    if (path.has_value()) message = message.substr(path->ToString().size() + 2);
    return Failure(
        "Provider produced invalid plan",
        {absl::StrCat("Provider ", Quote(subject.provider), " planned an invalid value for ",
                      Prefixed(subject.address, {path.value_or(AttributePath()), message}))});
  }
  absl::Status valid = AssertPlanValid(block, prior, config, planned, subject);
  if (!valid.ok()) return valid;
  if (prior.IsNull()) return absl::OkStatus();  // requires_replace is ignored on create
  std::vector<std::string> details;
  for (const AttributePath& p : requires_replace) {
    if (!PathExists(prior, p) && !PathExists(planned, p)) {
      details.push_back(absl::StrCat("Provider ", Quote(subject.provider),
                                     " has indicated \"requires replacement\" on ", subject.address,
                                     " for a non-existent attribute path ", PathGoString(p)));
    }
  }
  if (!details.empty()) return Failure("Provider produced invalid plan", details);
  return absl::OkStatus();
}

std::vector<cty::AttributePath> ReplacePaths(const cty::Value& prior, const cty::Value& planned,
                                             const std::vector<cty::AttributePath>& paths) {
  std::vector<AttributePath> out;
  if (prior.IsNull()) return out;
  for (const AttributePath& p : paths) {
    std::optional<Value> before = ValueAt(prior, p);
    std::optional<Value> after = ValueAt(planned, p);
    if (!before.has_value() && !after.has_value()) continue;
    if (!before.has_value() || !after.has_value() || !before->Equals(*after)) out.push_back(p);
  }
  return out;
}

absl::Status AssertObjectCompatible(const Block& block, const cty::Value& planned,
                                    const cty::Value& actual, const Subject& subject) {
  std::vector<Problem> problems;
  ObjectCompatProblems(block, planned, actual, AttributePath(), &problems);
  if (problems.empty()) return absl::OkStatus();
  std::vector<std::string> details;
  for (const Problem& p : problems) {
    details.push_back(absl::StrCat("When applying changes to ", subject.address, ", provider ",
                                   Quote(subject.provider),
                                   " produced an unexpected new value: ", Unprefixed(p), "."));
  }
  return Failure("Provider produced inconsistent result after apply", details);
}

absl::Status AssertApplyResult(const Block& block, const cty::Value& planned,
                               const cty::Value& new_state, const Subject& subject) {
  if (planned.IsNull()) {
    if (new_state.IsNull()) return absl::OkStatus();
    return Failure("Provider returned invalid result object after apply",
                   {absl::StrCat("After applying a Delete plan, the provider returned a non-null "
                                 "object for ",
                                 subject.address,
                                 ". Destroying should always produce a null value, so this is "
                                 "always a bug in the provider")});
  }
  if (!new_state.IsNull()) {
    absl::Status conforms = cty::CheckConformance(new_state, ImpliedType(block));
    if (!conforms.ok()) {
      return Failure("Provider produced invalid object",
                     {absl::StrCat("Provider ", Quote(subject.provider),
                                   " produced an invalid value after apply for ", subject.address,
                                   ": ", conforms.message())});
    }
    std::vector<std::string> details;
    for (const std::string& p : UnknownPaths(new_state)) {
      details.push_back(absl::StrCat(
          "After the apply operation, the provider still indicated an unknown value for ",
          subject.address, p == "(root)" ? "" : p, ". All values must be known after apply"));
    }
    if (!details.empty()) {
      return Failure("Provider returned invalid result object after apply", details);
    }
  }
  return AssertObjectCompatible(block, planned, new_state, subject);
}

absl::Status AssertReadResult(const Block& block, const cty::Value& new_state,
                              const Subject& subject) {
  if (new_state.IsNull()) return absl::OkStatus();
  absl::Status s = cty::CheckConformance(new_state, ImpliedType(block));
  if (s.ok()) return s;
  return Failure(
      "Provider produced invalid object",
      {absl::StrCat("Provider ", Quote(subject.provider), " planned an invalid value for ",
                    subject.address, " during refresh: ", s.message())});
}

absl::Status AssertImportedResource(const Block& block, std::string_view type_name,
                                    const cty::Value& state, const Subject& subject) {
  if (type_name.empty()) {
    return Failure("Import failed",
                   {absl::StrCat("import of ", subject.address, " didn't set type")});
  }
  if (state.IsNull()) {
    return Failure("Import returned null resource",
                   {absl::StrCat("While attempting to import ", subject.address,
                                 ", the provider returned an instance with no state")});
  }
  return AssertConforms(block, state, subject);
}

absl::Status AssertImportReadResult(const Block& block, const cty::Value& new_state,
                                    const Subject& subject) {
  if (new_state.IsNull()) {
    return Failure(
        "Cannot import non-existent remote object",
        {absl::StrCat("While attempting to import an existing object to ", subject.address,
                      ", the provider detected that no object exists with the given "
                      "id")});
  }
  return AssertReadResult(block, new_state, subject);
}

absl::Status AssertDataSourceResult(const Block& block, const cty::Value& state,
                                    const Subject& subject) {
  if (state.IsNull()) {
    return Failure("Provider produced null object",
                   {absl::StrCat("Provider ", Quote(subject.provider),
                                 " produced a null value for ", subject.address)});
  }
  absl::Status conforms = AssertConforms(block, state, subject);
  if (!conforms.ok()) return conforms;
  if (!state.IsWhollyKnown()) {
    std::vector<std::string> details;
    for (const std::string& p : UnknownPaths(state)) {
      details.push_back(absl::StrCat("Provider ", Quote(subject.provider), " produced a value for ",
                                     subject.address, " that is not wholly known (unknown at ", p,
                                     ")"));
    }
    return Failure("Provider produced invalid object", details);
  }
  return absl::OkStatus();
}

absl::Status AssertUpgradeResult(const Block& block, const cty::Value& upgraded,
                                 const Subject& subject) {
  if (upgraded.IsNull()) {
    return Failure("Invalid resource state upgrade",
                   {absl::StrCat("The provider upgraded the state for ", subject.address,
                                 " but returned no object")});
  }
  absl::Status s = cty::CheckConformance(upgraded, ImpliedType(block));
  if (s.ok()) return s;
  return Failure(
      "Invalid resource state upgrade",
      {absl::StrCat("The provider upgraded the state for ", subject.address,
                    " from a previous version, but produced an invalid result: ", s.message())});
}

std::vector<std::string> InternalValidate(const Block& block) {
  std::vector<std::string> out;
  ValidateBlock(block, "", &out);
  return out;
}

absl::Status ValidateSchema(const tfplugin5::Schema& schema, std::string_view name) {
  std::vector<std::string> problems;
  if (schema.version() < 0) problems.push_back("schema version must be at least 0");
  absl::StatusOr<Block> block = BlockFromProto(schema.block());
  if (!block.ok()) {
    problems.push_back(std::string(block.status().message()));
  } else {
    for (std::string& p : InternalValidate(*block)) problems.push_back(std::move(p));
  }
  if (problems.empty()) return absl::OkStatus();
  std::vector<std::string> details;
  for (const std::string& p : problems) details.push_back(absl::StrCat(std::string(name), ": ", p));
  return Failure("Invalid provider schema", details);
}

}  // namespace nsxalb::harness
