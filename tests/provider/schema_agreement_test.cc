// One source of truth: the schema served by GetSchema (through the wire, in-process) and the
// `schema --json` output both equal provider_schema/*.json, compared independently of the
// framework's own printer.
#include <gtest/gtest.h>

#include <sstream>

#include "nlohmann/json.hpp"
#include "plugin/cli/docs/schema_command.h"
#include "plugin/provider/provider.h"
#include "plugin/wire/provider_service.h"
#include "provider_schema/embedded.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::provider {
namespace {

using ::nsxalb::testing::IsOk;

using Json = nlohmann::json;

// The embedded JSON as Terraform would print it: annotations dropped, false flags omitted,
// description_kind defaulted to "plain", empty descriptions omitted.
Json Normalise(Json block) {
  Json out = Json::object();
  if (block.contains("attributes") && !block["attributes"].empty()) {
    for (auto& [name, a] : block["attributes"].items()) {
      Json attr = Json::object();
      for (auto& [k, v] : a.items()) {
        if (k == "nsxalb") continue;
        if (v.is_boolean() && !v.get<bool>()) continue;
        if (k == "description" && v.get<std::string>().empty()) continue;
        attr[k] = v;
      }
      if (!attr.contains("description_kind")) attr["description_kind"] = "plain";
      out["attributes"][name] = attr;
    }
  }
  if (block.contains("block_types") && !block["block_types"].empty()) {
    for (auto& [name, b] : block["block_types"].items()) {
      Json nested = Json::object();
      nested["nesting_mode"] = b["nesting_mode"];
      nested["block"] = Normalise(b["block"]);
      if (b.value("min_items", 0) != 0) nested["min_items"] = b["min_items"];
      if (b.value("max_items", 0) != 0) nested["max_items"] = b["max_items"];
      out["block_types"][name] = nested;
    }
  }
  if (!block.value("description", std::string()).empty()) out["description"] = block["description"];
  out["description_kind"] = block.value("description_kind", "plain");
  if (block.value("deprecated", false)) out["deprecated"] = true;
  return out;
}

Json NormaliseSchema(std::string_view text) {
  Json doc = Json::parse(text);
  return Json{{"version", doc.value("version", 0)}, {"block", Normalise(doc["block"])}};
}

const char* Kind(tfplugin5::StringKind k) {
  return k == tfplugin5::MARKDOWN ? "markdown" : "plain";
}

// The wire Schema message printed as Terraform's JSON, written here from the proto fields.
Json FromProto(const tfplugin5::Schema::Block& block) {
  Json out = Json::object();
  for (const auto& a : block.attributes()) {
    Json attr = Json::object();
    attr["type"] = Json::parse(a.type());
    if (!a.description().empty()) attr["description"] = a.description();
    attr["description_kind"] = Kind(a.description_kind());
    if (a.required()) attr["required"] = true;
    if (a.optional()) attr["optional"] = true;
    if (a.computed()) attr["computed"] = true;
    if (a.sensitive()) attr["sensitive"] = true;
    if (a.deprecated()) attr["deprecated"] = true;
    out["attributes"][a.name()] = attr;
  }
  static const char* const kModes[] = {"invalid", "single", "list", "set", "map", "group"};
  for (const auto& b : block.block_types()) {
    Json nested = Json::object();
    nested["nesting_mode"] = kModes[b.nesting()];
    nested["block"] = FromProto(b.block());
    if (b.min_items() != 0) nested["min_items"] = b.min_items();
    if (b.max_items() != 0) nested["max_items"] = b.max_items();
    out["block_types"][b.type_name()] = nested;
  }
  if (!block.description().empty()) out["description"] = block.description();
  out["description_kind"] = Kind(block.description_kind());
  if (block.deprecated()) out["deprecated"] = true;
  return out;
}

Json FromProto(const tfplugin5::Schema& schema) {
  return Json{{"version", schema.version()}, {"block", FromProto(schema.block())}};
}

TEST(SchemaAgreementTest, GetSchemaEqualsEmbeddedJson) {
  auto service = wire::NewProviderService(NewProvider());
  tfplugin5::GetProviderSchema::Request req;
  tfplugin5::GetProviderSchema::Response resp;
  ASSERT_THAT(service->GetSchema(nullptr, &req, &resp), IsOk());
  ASSERT_EQ(resp.diagnostics_size(), 0) << resp.diagnostics(0).detail();
  EXPECT_EQ(FromProto(resp.provider()), NormaliseSchema(provider_schema::ProviderJson()));
  ASSERT_EQ(resp.resource_schemas_size(), static_cast<int>(provider_schema::ResourceJson().size()));
  for (const auto& e : provider_schema::ResourceJson()) {
    const std::string name(e.name);
    ASSERT_EQ(resp.resource_schemas().count(name), 1u) << name;
    EXPECT_EQ(FromProto(resp.resource_schemas().at(name)), NormaliseSchema(e.json)) << name;
  }
  ASSERT_EQ(resp.data_source_schemas_size(),
            static_cast<int>(provider_schema::DataSourceJson().size()));
  for (const auto& e : provider_schema::DataSourceJson()) {
    const std::string name(e.name);
    ASSERT_EQ(resp.data_source_schemas().count(name), 1u) << name;
    EXPECT_EQ(FromProto(resp.data_source_schemas().at(name)), NormaliseSchema(e.json)) << name;
  }
}

TEST(SchemaAgreementTest, SchemaCommandPrintsTheEmbeddedJson) {
  std::ostringstream out, err;
  ASSERT_EQ(cli::RunSchemaCommand({"--json"}, out, err), 0) << err.str();
  Json doc = Json::parse(out.str());
  EXPECT_EQ(doc["format_version"], "1.0");
  const Json& entry = doc["provider_schemas"][kProviderAddress];
  EXPECT_EQ(entry["provider"], NormaliseSchema(provider_schema::ProviderJson()));
  EXPECT_EQ(entry["resource_schemas"].size(), provider_schema::ResourceJson().size());
  EXPECT_EQ(entry["data_source_schemas"].size(), provider_schema::DataSourceJson().size());
  EXPECT_TRUE(entry["resource_schemas"].is_object());
  EXPECT_TRUE(entry["data_source_schemas"].is_object());
}

TEST(SchemaAgreementTest, SchemaCommandNeedsJsonFlag) {
  std::ostringstream out, err;
  EXPECT_EQ(cli::RunSchemaCommand({}, out, err), 2);
  EXPECT_EQ(cli::RunSchemaCommand({"--yaml"}, out, err), 2);
  EXPECT_TRUE(out.str().empty());
  EXPECT_NE(err.str().find("Usage:"), std::string::npos);
}

}  // namespace
}  // namespace nsxalb::provider
