// Schema JSON loading and printing (nlohmann-json, kept out of the headers).
#include "plugin/framework/schema_json.h"

#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"
#include "plugin/common/status_macros.h"

namespace nsxalb::framework {
namespace {

using Json = nlohmann::json;

absl::Status Err(const std::string& where, std::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat(where, ": ", std::string(message)));
}

absl::Status CheckKeys(const Json& obj, const std::string& where,
                       const std::set<std::string>& allowed) {
  if (!obj.is_object()) return Err(where, "must be a JSON object");
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (allowed.count(it.key()) == 0) {
      return Err(where, absl::StrCat("unknown key \"", it.key(),
                                     "\" (allowed: ", absl::StrJoin(allowed, ", "), ")"));
    }
  }
  return absl::OkStatus();
}

absl::Status GetBool(const Json& obj, const char* key, const std::string& where, bool* out) {
  auto it = obj.find(key);
  if (it == obj.end()) return absl::OkStatus();
  if (!it->is_boolean()) return Err(absl::StrCat(where, ".", key), "must be true or false");
  *out = it->get<bool>();
  return absl::OkStatus();
}

absl::Status GetString(const Json& obj, const char* key, const std::string& where,
                       std::string* out) {
  auto it = obj.find(key);
  if (it == obj.end()) return absl::OkStatus();
  if (!it->is_string()) return Err(absl::StrCat(where, ".", key), "must be a string");
  *out = it->get<std::string>();
  return absl::OkStatus();
}

absl::Status GetInt(const Json& obj, const char* key, const std::string& where, int64_t* out) {
  auto it = obj.find(key);
  if (it == obj.end()) return absl::OkStatus();
  if (!it->is_number_integer()) return Err(absl::StrCat(where, ".", key), "must be an integer");
  *out = it->get<int64_t>();
  return absl::OkStatus();
}

absl::Status GetKind(const Json& obj, const std::string& where, DescriptionKind* out) {
  std::string kind = "plain";
  NSXALB_RETURN_IF_ERROR(GetString(obj, "description_kind", where, &kind));
  if (kind == "plain") {
    *out = DescriptionKind::kPlain;
  } else if (kind == "markdown") {
    *out = DescriptionKind::kMarkdown;
  } else {
    return Err(absl::StrCat(where, ".description_kind"), "must be \"plain\" or \"markdown\"");
  }
  return absl::OkStatus();
}

absl::Status ParseAnnotations(const Json& obj, const std::string& where, bool allow_env,
                              bool* requires_replace, std::vector<std::string>* env) {
  auto it = obj.find("nsxalb");
  if (it == obj.end()) return absl::OkStatus();
  const std::string at = absl::StrCat(where, ".nsxalb");
  if (allow_env) {
    NSXALB_RETURN_IF_ERROR(CheckKeys(*it, at, {"requires_replace", "env"}));
  } else {
    NSXALB_RETURN_IF_ERROR(CheckKeys(*it, at, {"requires_replace"}));
  }
  NSXALB_RETURN_IF_ERROR(GetBool(*it, "requires_replace", at, requires_replace));
  if (auto e = it->find("env"); e != it->end()) {
    if (!e->is_array()) return Err(absl::StrCat(at, ".env"), "must be an array of strings");
    for (const Json& name : *e) {
      if (!name.is_string() || name.get<std::string>().empty()) {
        return Err(absl::StrCat(at, ".env"), "must be an array of non-empty strings");
      }
      env->push_back(name.get<std::string>());
    }
  }
  return absl::OkStatus();
}

absl::Status ParseBlock(const Json& obj, const std::string& where, Block* block);

absl::Status ParseAttribute(const Json& obj, const std::string& name, const std::string& where,
                            Attribute* attr) {
  NSXALB_RETURN_IF_ERROR(CheckKeys(obj, where,
                                   {"type", "description", "description_kind", "required",
                                    "optional", "computed", "sensitive", "deprecated", "nsxalb"}));
  attr->name = name;
  auto type = obj.find("type");
  if (type == obj.end()) return Err(where, "missing \"type\"");
  absl::StatusOr<cty::Type> parsed = cty::Type::FromJson(type->dump());
  if (!parsed.ok())
    return Err(absl::StrCat(where, ".type"), std::string(parsed.status().message()));
  attr->type = *parsed;
  NSXALB_RETURN_IF_ERROR(GetString(obj, "description", where, &attr->description));
  NSXALB_RETURN_IF_ERROR(GetKind(obj, where, &attr->description_kind));
  NSXALB_RETURN_IF_ERROR(GetBool(obj, "required", where, &attr->required));
  NSXALB_RETURN_IF_ERROR(GetBool(obj, "optional", where, &attr->optional));
  NSXALB_RETURN_IF_ERROR(GetBool(obj, "computed", where, &attr->computed));
  NSXALB_RETURN_IF_ERROR(GetBool(obj, "sensitive", where, &attr->sensitive));
  NSXALB_RETURN_IF_ERROR(GetBool(obj, "deprecated", where, &attr->deprecated));
  return ParseAnnotations(obj, where, /*allow_env=*/true, &attr->requires_replace, &attr->env);
}

absl::Status ParseNested(const Json& obj, const std::string& name, const std::string& where,
                         NestedBlock* nested) {
  NSXALB_RETURN_IF_ERROR(
      CheckKeys(obj, where, {"nesting_mode", "block", "min_items", "max_items", "nsxalb"}));
  nested->type_name = name;
  std::string mode;
  NSXALB_RETURN_IF_ERROR(GetString(obj, "nesting_mode", where, &mode));
  if (mode == "single") {
    nested->nesting = NestedBlock::Nesting::kSingle;
  } else if (mode == "list") {
    nested->nesting = NestedBlock::Nesting::kList;
  } else if (mode == "set") {
    nested->nesting = NestedBlock::Nesting::kSet;
  } else if (mode == "map") {
    nested->nesting = NestedBlock::Nesting::kMap;
  } else if (mode == "group") {
    nested->nesting = NestedBlock::Nesting::kGroup;
  } else {
    return Err(absl::StrCat(where, ".nesting_mode"),
               "must be one of single, list, set, map, group");
  }
  NSXALB_RETURN_IF_ERROR(GetInt(obj, "min_items", where, &nested->min_items));
  NSXALB_RETURN_IF_ERROR(GetInt(obj, "max_items", where, &nested->max_items));
  auto block = obj.find("block");
  if (block == obj.end()) return Err(where, "missing \"block\"");
  std::vector<std::string> unused_env;
  NSXALB_RETURN_IF_ERROR(
      ParseAnnotations(obj, where, /*allow_env=*/false, &nested->requires_replace, &unused_env));
  return ParseBlock(*block, absl::StrCat(where, ".block"), &nested->block);
}

absl::Status ParseBlock(const Json& obj, const std::string& where, Block* block) {
  NSXALB_RETURN_IF_ERROR(CheckKeys(
      obj, where, {"attributes", "block_types", "description", "description_kind", "deprecated"}));
  NSXALB_RETURN_IF_ERROR(GetString(obj, "description", where, &block->description));
  NSXALB_RETURN_IF_ERROR(GetKind(obj, where, &block->description_kind));
  NSXALB_RETURN_IF_ERROR(GetBool(obj, "deprecated", where, &block->deprecated));
  if (auto attrs = obj.find("attributes"); attrs != obj.end()) {
    const std::string at = absl::StrCat(where, ".attributes");
    if (!attrs->is_object()) return Err(at, "must be a JSON object");
    for (auto it = attrs->begin(); it != attrs->end(); ++it) {
      Attribute attr;
      NSXALB_RETURN_IF_ERROR(
          ParseAttribute(it.value(), it.key(), absl::StrCat(at, ".", it.key()), &attr));
      block->attributes.emplace(it.key(), std::move(attr));
    }
  }
  if (auto types = obj.find("block_types"); types != obj.end()) {
    const std::string at = absl::StrCat(where, ".block_types");
    if (!types->is_object()) return Err(at, "must be a JSON object");
    for (auto it = types->begin(); it != types->end(); ++it) {
      NestedBlock nested;
      NSXALB_RETURN_IF_ERROR(
          ParseNested(it.value(), it.key(), absl::StrCat(at, ".", it.key()), &nested));
      block->block_types.emplace(it.key(), std::move(nested));
    }
  }
  return absl::OkStatus();
}

const char* KindName(DescriptionKind kind) {
  return kind == DescriptionKind::kMarkdown ? "markdown" : "plain";
}

Json BlockToJson(const Block& block) {
  Json out = Json::object();
  if (!block.attributes.empty()) {
    Json attrs = Json::object();
    for (const auto& [name, attr] : block.attributes) {
      Json a = Json::object();
      a["type"] = Json::parse(attr.type.ToJson());
      if (!attr.description.empty()) a["description"] = attr.description;
      a["description_kind"] = KindName(attr.description_kind);
      if (attr.required) a["required"] = true;
      if (attr.optional) a["optional"] = true;
      if (attr.computed) a["computed"] = true;
      if (attr.sensitive) a["sensitive"] = true;
      if (attr.deprecated) a["deprecated"] = true;
      attrs[name] = std::move(a);
    }
    out["attributes"] = std::move(attrs);
  }
  if (!block.block_types.empty()) {
    Json types = Json::object();
    for (const auto& [name, nested] : block.block_types) {
      Json b = Json::object();
      b["nesting_mode"] = NestingName(nested.nesting);
      b["block"] = BlockToJson(nested.block);
      if (nested.min_items != 0) b["min_items"] = nested.min_items;
      if (nested.max_items != 0) b["max_items"] = nested.max_items;
      types[name] = std::move(b);
    }
    out["block_types"] = std::move(types);
  }
  if (!block.description.empty()) out["description"] = block.description;
  out["description_kind"] = KindName(block.description_kind);
  if (block.deprecated) out["deprecated"] = true;
  return out;
}

Json SchemaToJsonValue(const Schema& schema) {
  Json out = Json::object();
  out["version"] = schema.version;
  out["block"] = BlockToJson(schema.block);
  return out;
}

}  // namespace

absl::StatusOr<Schema> ParseSchemaJson(std::string_view json) {
  Json doc = Json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return absl::InvalidArgumentError("schema: not valid JSON");
  Schema schema;
  NSXALB_RETURN_IF_ERROR(CheckKeys(doc, "schema", {"version", "block"}));
  NSXALB_RETURN_IF_ERROR(GetInt(doc, "version", "schema", &schema.version));
  auto block = doc.find("block");
  if (block == doc.end()) return Err("schema", "missing \"block\"");
  NSXALB_RETURN_IF_ERROR(ParseBlock(*block, "block", &schema.block));
  if (absl::Status s = ValidateSchema(schema); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("schema rule: ", s.message()));
  }
  return schema;
}

std::string SchemaToJson(const Schema& schema) { return SchemaToJsonValue(schema).dump(); }

std::string ProviderSchemasJson(const std::string& provider_address, const Schema& provider,
                                const std::map<std::string, Schema>& resources,
                                const std::map<std::string, Schema>& data_sources) {
  Json entry = Json::object();
  entry["provider"] = SchemaToJsonValue(provider);
  Json res = Json::object();
  for (const auto& [name, s] : resources) res[name] = SchemaToJsonValue(s);
  Json ds = Json::object();
  for (const auto& [name, s] : data_sources) ds[name] = SchemaToJsonValue(s);
  entry["resource_schemas"] = std::move(res);
  entry["data_source_schemas"] = std::move(ds);
  Json doc = Json::object();
  doc["format_version"] = "1.0";
  doc["provider_schemas"] = Json::object();
  doc["provider_schemas"][provider_address] = std::move(entry);
  return doc.dump(2);
}

}  // namespace nsxalb::framework
