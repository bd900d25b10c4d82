// The tfplugin5 service called in-process with crafted requests: conversions both ways, and bad
// input (malformed or truncated msgpack, wrong types, missing attributes, unknown type names)
// answered with error diagnostics naming the problem, never a crash or a gRPC error.
#include "plugin/wire/provider_service.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "plugin/cty/msgpack.h"
#include "plugin/framework/data_source.h"
#include "plugin/framework/function.h"
#include "plugin/framework/provider.h"
#include "plugin/framework/resource.h"
#include "plugin/framework/resource_with_import_state.h"
#include "plugin/framework/resource_with_move_state.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::wire {
namespace {

using ::nsxalb::testing::IsOk;

using framework::Attribute;
using framework::Schema;

Attribute Attr(const std::string& name, cty::Type type, bool required, bool optional, bool computed,
               bool sensitive = false) {
  Attribute a;
  a.name = name;
  a.type = type;
  a.required = required;
  a.optional = optional;
  a.computed = computed;
  a.sensitive = sensitive;
  return a;
}

Schema ThingSchema() {
  Schema s;
  s.block.attributes = {
      {"id", Attr("id", cty::Type::String(), false, false, true)},
      {"name", Attr("name", cty::Type::String(), true, false, false)},
      {"password", Attr("password", cty::Type::String(), false, true, false, true)},
      {"tags", Attr("tags", cty::Type::List(cty::Type::String()), false, true, false)},
  };
  framework::NestedBlock rule;
  rule.type_name = "rule";
  rule.nesting = framework::NestedBlock::Nesting::kList;
  rule.block.attributes = {{"port", Attr("port", cty::Type::Number(), true, false, false)}};
  s.block.block_types = {{"rule", rule}};
  return s;
}

Schema DataSchema() {
  Schema s;
  s.block.attributes = {{"id", Attr("id", cty::Type::String(), true, false, false)},
                        {"value", Attr("value", cty::Type::String(), false, false, true)}};
  return s;
}

cty::Type ThingType() { return framework::ImpliedType(ThingSchema().block); }

class Thing : public framework::Resource,
              public framework::ResourceWithImportState,
              public framework::ResourceWithMoveState {
 public:
  // Takes over other_thing of example.com/other/other: its "label" becomes name.
  void MoveState(const framework::MoveStateRequest& q, framework::MoveStateResponse& r) override {
    if (q.source_type_name != "other_thing") {
      r.diagnostics.AddError("Unsupported source", "test_thing moves only from other_thing");
      return;
    }
    const std::string label = q.source_state_json.find("\"b\"") != std::string::npos ? "b" : "a";
    r.target_state = r.target_state.WithAttribute("id", cty::Value::String("moved"))
                         .WithAttribute("name", cty::Value::String(label));
  }
  Schema GetSchema() const override { return ThingSchema(); }
  void Create(const framework::CreateRequest& q, framework::CreateResponse& r) override {
    if (q.config.GetAttribute("name")->AsString() == "throw") throw std::runtime_error("kaboom");
    r.new_state = r.new_state.WithAttribute("id", cty::Value::String("id-1"));
    r.private_data = "priv";
  }
  void Read(const framework::ReadRequest&, framework::ReadResponse&) override {}
  void Update(const framework::UpdateRequest&, framework::UpdateResponse&) override {}
  void Delete(const framework::DeleteRequest&, framework::DeleteResponse&) override {}
  void ImportState(const framework::ImportStateRequest& q,
                   framework::ImportStateResponse& r) override {
    r.state = r.state.WithAttribute("id", cty::Value::String(q.id));
  }
};

class Data : public framework::DataSource {
 public:
  Schema GetSchema() const override { return DataSchema(); }
  void Read(const framework::ReadDataSourceRequest& q,
            framework::ReadDataSourceResponse& r) override {
    r.state = r.state.WithAttribute(
        "value", cty::Value::String("value-of-" + q.config.GetAttribute("id")->AsString()));
  }
};

// length(text) + number of entries in things; an error at argument 0 for text "bad".
class LengthFunction : public framework::Function {
 public:
  framework::FunctionDefinition Definition() const override {
    framework::FunctionDefinition d;
    d.parameters = {{"text", cty::Type::String(), "some text"},
                    {"things", cty::Type::Dynamic(), "an object"}};
    d.return_type = cty::Type::Number();
    d.summary = "a length";
    return d;
  }
  void Call(const framework::CallFunctionRequest& q, framework::CallFunctionResponse& r) override {
    const std::string& text = q.arguments[0].AsString();
    if (text == "bad") {
      r.error = framework::FunctionError{"text is bad", 0};
      return;
    }
    r.result = cty::Value::Int(static_cast<int64_t>(text.size() + q.arguments[1].entries().size()));
  }
};

class TestProvider : public framework::Provider, public framework::ProviderWithFunctions {
 public:
  std::map<std::string, framework::FunctionFactory> Functions() override {
    return {{"length", [] { return std::make_unique<LengthFunction>(); }}};
  }
  // How often Stop was called; with stop_error set, Stop throws it.
  int stop_calls = 0;
  std::string stop_error;

  void Stop() override {
    ++stop_calls;
    if (!stop_error.empty()) throw std::runtime_error(stop_error);
  }
  Schema GetSchema() const override {
    Schema s;
    s.block.attributes = {{"endpoint", Attr("endpoint", cty::Type::String(), false, true, false)}};
    return s;
  }
  void Configure(const framework::ConfigureRequest& q, framework::ConfigureResponse& r) override {
    const cty::Value* e = q.config.GetAttribute("endpoint");
    if (e != nullptr && !e->IsNull() && e->AsString() == "bad") {
      r.diagnostics.AddAttributeError(cty::AttributePath().Attribute("endpoint"), "Bad endpoint",
                                      "no");
    }
  }
  std::map<std::string, framework::ResourceFactory> Resources() override {
    return {{"test_thing", [] { return std::make_unique<Thing>(); }}};
  }
  std::map<std::string, framework::DataSourceFactory> DataSources() override {
    return {{"test_data", [] { return std::make_unique<Data>(); }}};
  }
};

std::string Hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

std::string Unhex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  }
  return out;
}

std::string Encode(const cty::Value& v) {
  absl::StatusOr<std::string> s = cty::EncodeMsgpack(v, ThingType());
  EXPECT_THAT(s, IsOk());
  return s.ok() ? *s : "";
}

cty::Value Decode(const tfplugin5::DynamicValue& dv) {
  absl::StatusOr<cty::Value> v = cty::DecodeMsgpack(dv.msgpack(), ThingType());
  EXPECT_THAT(v, IsOk());
  return v.ok() ? *v : cty::Value();
}

cty::Value Config(const std::string& name) {
  return cty::Value::ObjectOf(
      ThingType(), {{"name", cty::Value::String(name)},
                    {"tags", cty::Value::List(cty::Type::String(), {cty::Value::String("t")})},
                    {"rule", cty::Value::List(ThingType().attributes().at("rule"), {})}});
}

std::string Path(const tfplugin5::AttributePath& p) {
  std::string out;
  for (const auto& s : p.steps()) {
    if (s.has_attribute_name()) out += "." + s.attribute_name();
    if (s.has_element_key_int()) out += "[" + std::to_string(s.element_key_int()) + "]";
    if (s.has_element_key_string()) out += "[\"" + s.element_key_string() + "\"]";
  }
  return out;
}

class ServiceTest : public ::testing::Test {
 protected:
  std::unique_ptr<tfplugin5::Provider::Service> service_ =
      NewProviderService(std::make_shared<TestProvider>());

  // Sends a ValidateResourceTypeConfig with raw msgpack bytes and returns the response.
  tfplugin5::ValidateResourceTypeConfig::Response Validate(const std::string& bytes,
                                                           const std::string& type = "test_thing") {
    tfplugin5::ValidateResourceTypeConfig::Request req;
    req.set_type_name(type);
    req.mutable_config()->set_msgpack(bytes);
    tfplugin5::ValidateResourceTypeConfig::Response resp;
    grpc::Status status = service_->ValidateResourceTypeConfig(nullptr, &req, &resp);
    EXPECT_THAT(status, IsOk()) << status.error_message();
    return resp;
  }
};

TEST_F(ServiceTest, GetSchemaConvertsEverySchema) {
  tfplugin5::GetProviderSchema::Request req;
  tfplugin5::GetProviderSchema::Response resp;
  ASSERT_THAT(service_->GetSchema(nullptr, &req, &resp), IsOk());
  EXPECT_EQ(resp.diagnostics_size(), 0);
  EXPECT_EQ(resp.provider().block().attributes(0).name(), "endpoint");
  ASSERT_EQ(resp.resource_schemas().count("test_thing"), 1u);
  const tfplugin5::Schema::Block& b = resp.resource_schemas().at("test_thing").block();
  ASSERT_EQ(b.attributes_size(), 4);
  std::map<std::string, tfplugin5::Schema::Attribute> attrs;
  for (const auto& a : b.attributes()) attrs[a.name()] = a;
  EXPECT_EQ(attrs["tags"].type(), "[\"list\",\"string\"]");
  EXPECT_TRUE(attrs["password"].sensitive());
  EXPECT_TRUE(attrs["id"].computed());
  EXPECT_TRUE(attrs["name"].required());
  ASSERT_EQ(b.block_types_size(), 1);
  EXPECT_EQ(b.block_types(0).type_name(), "rule");
  EXPECT_EQ(b.block_types(0).nesting(), tfplugin5::Schema::NestedBlock::LIST);
  EXPECT_EQ(resp.data_source_schemas().count("test_data"), 1u);
}

TEST_F(ServiceTest, ValidConfigHasNoDiagnostics) {
  EXPECT_EQ(Validate(Encode(Config("a"))).diagnostics_size(), 0);
}

TEST_F(ServiceTest, UnknownTypeNameIsAnErrorNamingIt) {
  auto resp = Validate(Encode(Config("a")), "test_nope");
  ASSERT_EQ(resp.diagnostics_size(), 1);
  EXPECT_EQ(resp.diagnostics(0).severity(), tfplugin5::Diagnostic::ERROR);
  EXPECT_NE(resp.diagnostics(0).detail().find("test_nope"), std::string::npos);
}

TEST_F(ServiceTest, MalformedMsgpackIsAnErrorDiagnostic) {
  auto resp = Validate(Unhex("c1"));  // 0xc1 is never used in msgpack
  ASSERT_EQ(resp.diagnostics_size(), 1);
  EXPECT_EQ(resp.diagnostics(0).severity(), tfplugin5::Diagnostic::ERROR);
  EXPECT_NE(resp.diagnostics(0).summary().find("configuration"), std::string::npos);
}

TEST_F(ServiceTest, TruncatedMessageIsAnErrorDiagnostic) {
  const std::string full = Encode(Config("alpha"));
  for (size_t cut : {size_t{1}, full.size() / 2, full.size() - 1}) {
    auto resp = Validate(full.substr(0, cut));
    ASSERT_EQ(resp.diagnostics_size(), 1) << "cut at " << cut << " of " << Hex(full);
    EXPECT_EQ(resp.diagnostics(0).severity(), tfplugin5::Diagnostic::ERROR);
  }
}

TEST_F(ServiceTest, WrongTypeNamesTheAttributePath) {
  // {id: nil, name: 7, password: nil, rule: [], tags: nil}
  auto resp =
      Validate(Unhex("85a26964c0a46e616d6507a870617373776f7264c0a472756c6590a47461677"
                     "3c0"));
  ASSERT_EQ(resp.diagnostics_size(), 1);
  EXPECT_EQ(resp.diagnostics(0).severity(), tfplugin5::Diagnostic::ERROR);
  EXPECT_EQ(Path(resp.diagnostics(0).attribute()), ".name") << resp.diagnostics(0).detail();
}

TEST_F(ServiceTest, WrongTypeDeepInsideNamesTheFullPath) {
  // rule: [{port: "x"}]
  auto resp =
      Validate(Unhex("85a26964c0a46e616d65a161a870617373776f7264c0a472756c659181a4706f"
                     "7274a178a474616773c0"));
  ASSERT_EQ(resp.diagnostics_size(), 1);
  EXPECT_EQ(Path(resp.diagnostics(0).attribute()), ".rule[0].port") << resp.diagnostics(0).detail();
}

TEST_F(ServiceTest, SensitiveInputIsNotQuoted) {
  // password: 987654321 (a number where a string is required)
  auto resp =
      Validate(Unhex("85a26964c0a46e616d65a161a870617373776f7264ce3ade68b1a472756c6590a4"
                     "74616773c0"));
  ASSERT_EQ(resp.diagnostics_size(), 1);
  EXPECT_EQ(Path(resp.diagnostics(0).attribute()), ".password");
  EXPECT_EQ(resp.diagnostics(0).detail().find("987654321"), std::string::npos);
}

TEST_F(ServiceTest, ObjectMissingAttributesIsAnError) {
  // {name: "a"}: four attributes missing
  auto resp = Validate(Unhex("81a46e616d65a161"));
  ASSERT_EQ(resp.diagnostics_size(), 1);
  EXPECT_EQ(resp.diagnostics(0).severity(), tfplugin5::Diagnostic::ERROR);
}

TEST_F(ServiceTest, EmptyDynamicValueIsAnError) {
  auto resp = Validate("");
  ASSERT_EQ(resp.diagnostics_size(), 1);
  EXPECT_NE(resp.diagnostics(0).detail().find("empty"), std::string::npos);
}

TEST_F(ServiceTest, PlanCreateAnswersMsgpackWithUnknownsAndEveryAttribute) {
  tfplugin5::PlanResourceChange::Request req;
  req.set_type_name("test_thing");
  req.mutable_prior_state()->set_msgpack(Unhex("c0"));
  req.mutable_proposed_new_state()->set_msgpack(Encode(Config("a")));
  req.mutable_config()->set_msgpack(Encode(Config("a")));
  req.set_prior_private("pp");
  tfplugin5::PlanResourceChange::Response resp;
  ASSERT_THAT(service_->PlanResourceChange(nullptr, &req, &resp), IsOk());
  ASSERT_EQ(resp.diagnostics_size(), 0) << resp.diagnostics(0).detail();
  // The id attribute is encoded as the unknown marker d4 00 00.
  EXPECT_NE(Hex(resp.planned_state().msgpack()).find("a26964d40000"), std::string::npos)
      << Hex(resp.planned_state().msgpack());
  cty::Value planned = Decode(resp.planned_state());
  EXPECT_EQ(planned.entries().size(), 5u);
  EXPECT_FALSE(planned.GetAttribute("id")->IsKnown());
  EXPECT_EQ(resp.planned_private(), "pp");
  EXPECT_EQ(resp.requires_replace_size(), 0);
}

TEST_F(ServiceTest, DestroyPlanAndApplyAnswerNull) {
  tfplugin5::PlanResourceChange::Request plan;
  plan.set_type_name("test_thing");
  const cty::Value prior = Config("a").WithAttribute("id", cty::Value::String("id-1"));
  plan.mutable_prior_state()->set_msgpack(Encode(prior));
  plan.mutable_proposed_new_state()->set_msgpack(Unhex("c0"));
  plan.mutable_config()->set_msgpack(Unhex("c0"));
  tfplugin5::PlanResourceChange::Response planned;
  ASSERT_THAT(service_->PlanResourceChange(nullptr, &plan, &planned), IsOk());
  EXPECT_EQ(Hex(planned.planned_state().msgpack()), "c0");

  tfplugin5::ApplyResourceChange::Request apply;
  apply.set_type_name("test_thing");
  apply.mutable_prior_state()->set_msgpack(Encode(prior));
  apply.mutable_planned_state()->set_msgpack(Unhex("c0"));
  apply.mutable_config()->set_msgpack(Unhex("c0"));
  tfplugin5::ApplyResourceChange::Response applied;
  ASSERT_THAT(service_->ApplyResourceChange(nullptr, &apply, &applied), IsOk());
  EXPECT_EQ(applied.diagnostics_size(), 0);
  EXPECT_EQ(Hex(applied.new_state().msgpack()), "c0");
}

TEST_F(ServiceTest, ApplyCreateReturnsStateAndPrivate) {
  tfplugin5::ApplyResourceChange::Request req;
  req.set_type_name("test_thing");
  req.mutable_prior_state()->set_msgpack(Unhex("c0"));
  req.mutable_planned_state()->set_msgpack(
      Encode(Config("a").WithAttribute("id", cty::Value::Unknown(cty::Type::String()))));
  req.mutable_config()->set_msgpack(Encode(Config("a")));
  tfplugin5::ApplyResourceChange::Response resp;
  ASSERT_THAT(service_->ApplyResourceChange(nullptr, &req, &resp), IsOk());
  ASSERT_EQ(resp.diagnostics_size(), 0) << resp.diagnostics(0).detail();
  EXPECT_TRUE(Decode(resp.new_state()).GetAttribute("id")->Equals(cty::Value::String("id-1")));
  EXPECT_EQ(resp.private_(), "priv");
}

TEST_F(ServiceTest, ExceptionInResourceBecomesAnErrorDiagnostic) {
  tfplugin5::ApplyResourceChange::Request req;
  req.set_type_name("test_thing");
  req.mutable_prior_state()->set_msgpack(Unhex("c0"));
  req.mutable_planned_state()->set_msgpack(Encode(Config("throw")));
  req.mutable_config()->set_msgpack(Encode(Config("throw")));
  tfplugin5::ApplyResourceChange::Response resp;
  ASSERT_THAT(service_->ApplyResourceChange(nullptr, &req, &resp), IsOk());
  ASSERT_EQ(resp.diagnostics_size(), 1);
  EXPECT_NE(resp.diagnostics(0).detail().find("kaboom"), std::string::npos);
}

TEST_F(ServiceTest, UpgradeResourceStateFromJson) {
  tfplugin5::UpgradeResourceState::Request req;
  req.set_type_name("test_thing");
  req.set_version(0);
  req.mutable_raw_state()->set_json(R"({"id":"i","name":"a","tags":["x"],"rule":[{"port":80}]})");
  tfplugin5::UpgradeResourceState::Response resp;
  ASSERT_THAT(service_->UpgradeResourceState(nullptr, &req, &resp), IsOk());
  ASSERT_EQ(resp.diagnostics_size(), 0) << resp.diagnostics(0).detail();
  cty::Value v = Decode(resp.upgraded_state());
  EXPECT_TRUE(v.GetAttribute("id")->Equals(cty::Value::String("i")));
  EXPECT_TRUE(v.GetAttribute("password")->IsNull());

  req.set_version(3);
  tfplugin5::UpgradeResourceState::Response newer;
  ASSERT_THAT(service_->UpgradeResourceState(nullptr, &req, &newer), IsOk());
  ASSERT_EQ(newer.diagnostics_size(), 1);
  EXPECT_FALSE(newer.has_upgraded_state());

  tfplugin5::UpgradeResourceState::Request flat;
  flat.set_type_name("test_thing");
  (*flat.mutable_raw_state()->mutable_flatmap())["id"] = "i";
  tfplugin5::UpgradeResourceState::Response flat_resp;
  ASSERT_THAT(service_->UpgradeResourceState(nullptr, &flat, &flat_resp), IsOk());
  ASSERT_EQ(flat_resp.diagnostics_size(), 1);
  EXPECT_NE(flat_resp.diagnostics(0).detail().find("flatmap"), std::string::npos);
}

TEST_F(ServiceTest, ImportReturnsTypedObject) {
  tfplugin5::ImportResourceState::Request req;
  req.set_type_name("test_thing");
  req.set_id("abc");
  tfplugin5::ImportResourceState::Response resp;
  ASSERT_THAT(service_->ImportResourceState(nullptr, &req, &resp), IsOk());
  ASSERT_EQ(resp.imported_resources_size(), 1);
  EXPECT_EQ(resp.imported_resources(0).type_name(), "test_thing");
  EXPECT_TRUE(Decode(resp.imported_resources(0).state())
                  .GetAttribute("id")
                  ->Equals(cty::Value::String("abc")));
}

TEST_F(ServiceTest, ReadDataSourceAndUnknownDataSource) {
  tfplugin5::ReadDataSource::Request req;
  req.set_type_name("test_data");
  const cty::Type t = framework::ImpliedType(DataSchema().block);
  req.mutable_config()->set_msgpack(
      *cty::EncodeMsgpack(cty::Value::ObjectOf(t, {{"id", cty::Value::String("x")}}), t));
  tfplugin5::ReadDataSource::Response resp;
  ASSERT_THAT(service_->ReadDataSource(nullptr, &req, &resp), IsOk());
  ASSERT_EQ(resp.diagnostics_size(), 0) << resp.diagnostics(0).detail();
  absl::StatusOr<cty::Value> state = cty::DecodeMsgpack(resp.state().msgpack(), t);
  ASSERT_THAT(state, IsOk());
  EXPECT_TRUE(state->GetAttribute("value")->Equals(cty::Value::String("value-of-x")));

  req.set_type_name("test_nope");
  tfplugin5::ReadDataSource::Response nope;
  ASSERT_THAT(service_->ReadDataSource(nullptr, &req, &nope), IsOk());
  ASSERT_EQ(nope.diagnostics_size(), 1);
  EXPECT_NE(nope.diagnostics(0).detail().find("test_nope"), std::string::npos);
}

TEST_F(ServiceTest, ConfigureDiagnosticsCarryPaths) {
  const cty::Type t = cty::Type::Object({{"endpoint", cty::Type::String()}});
  tfplugin5::Configure::Request req;
  req.mutable_config()->set_msgpack(
      *cty::EncodeMsgpack(cty::Value::Object({{"endpoint", cty::Value::String("bad")}}), t));
  tfplugin5::Configure::Response resp;
  ASSERT_THAT(service_->Configure(nullptr, &req, &resp), IsOk());
  ASSERT_EQ(resp.diagnostics_size(), 1);
  EXPECT_EQ(Path(resp.diagnostics(0).attribute()), ".endpoint");

  tfplugin5::PrepareProviderConfig::Request prep;
  prep.mutable_config()->set_msgpack(Unhex("80"));  // empty map: attribute missing
  tfplugin5::PrepareProviderConfig::Response prep_resp;
  ASSERT_THAT(service_->PrepareProviderConfig(nullptr, &prep, &prep_resp), IsOk());
  EXPECT_EQ(prep_resp.diagnostics_size(), 1);
}

// Stop reaches the provider (framework::Provider::Stop) and answers with no error; a provider
// whose Stop throws answers the error text. The service still answers afterwards: Terraform
// decides when the process ends.
TEST(ServiceStopTest, StopReachesTheProviderAndAnswersItsError) {
  auto provider = std::make_shared<TestProvider>();
  std::unique_ptr<tfplugin5::Provider::Service> service = NewProviderService(provider);
  tfplugin5::Stop::Request req;
  tfplugin5::Stop::Response resp;
  ASSERT_THAT(service->Stop(nullptr, &req, &resp), IsOk());
  EXPECT_EQ(resp.error(), "");
  EXPECT_EQ(provider->stop_calls, 1);

  provider->stop_error = "stuck";
  tfplugin5::Stop::Response failed;
  ASSERT_THAT(service->Stop(nullptr, &req, &failed), IsOk());
  EXPECT_EQ(failed.error(), "stop failed: stuck");
  EXPECT_EQ(provider->stop_calls, 2);

  tfplugin5::GetProviderSchema::Request schema_req;
  tfplugin5::GetProviderSchema::Response schema_resp;
  ASSERT_THAT(service->GetSchema(nullptr, &schema_req, &schema_resp), IsOk());
  EXPECT_EQ(schema_resp.resource_schemas().count("test_thing"), 1u);
}

// Every RPC added after protocol 5.2 answers UNIMPLEMENTED, which Terraform reads as "feature not
// offered".
TEST_F(ServiceTest, FunctionsTravelInTheSchemaAndInGetFunctions) {
  tfplugin5::GetProviderSchema::Request q;
  tfplugin5::GetProviderSchema::Response schema;
  ASSERT_THAT(service_->GetSchema(nullptr, &q, &schema), IsOk());
  ASSERT_EQ(schema.functions().count("length"), 1u);
  const tfplugin5::Function& f = schema.functions().at("length");
  ASSERT_EQ(f.parameters_size(), 2);
  EXPECT_EQ(f.parameters(0).name(), "text");
  EXPECT_EQ(f.parameters(0).type(), "\"string\"");
  EXPECT_EQ(f.parameters(1).type(), "\"dynamic\"");
  EXPECT_FALSE(f.parameters(1).allow_unknown_values());
  EXPECT_EQ(f.return_().type(), "\"number\"");
  EXPECT_EQ(f.summary(), "a length");
  EXPECT_TRUE(schema.server_capabilities().move_resource_state());
  // Terraform may give later instances its cached schema instead of asking each.
  EXPECT_TRUE(schema.server_capabilities().get_provider_schema_optional());

  tfplugin5::GetFunctions::Request fq;
  tfplugin5::GetFunctions::Response functions;
  ASSERT_THAT(service_->GetFunctions(nullptr, &fq, &functions), IsOk());
  ASSERT_EQ(functions.functions().count("length"), 1u);
  EXPECT_EQ(functions.functions().at("length").SerializeAsString(), f.SerializeAsString());
}

tfplugin5::CallFunction::Response Call(tfplugin5::Provider::Service& service,
                                       const std::string& name, const std::string& text_hex,
                                       const std::string& things_hex) {
  tfplugin5::CallFunction::Request q;
  q.set_name(name);
  q.add_arguments()->set_msgpack(Unhex(text_hex));
  q.add_arguments()->set_msgpack(Unhex(things_hex));
  tfplugin5::CallFunction::Response r;
  EXPECT_THAT(service.CallFunction(nullptr, &q, &r), IsOk());
  return r;
}

// "abc" and the dynamic value object({a: number}) {a = 1}: [type JSON as bin, {a: 1}].
constexpr char kAbc[] = "a3616263";
constexpr char kObjectA1[] = "92c4195b226f626a656374222c7b2261223a226e756d626572227d5d81a16101";

TEST_F(ServiceTest, CallFunctionDecodesArgumentsAndEncodesTheResult) {
  tfplugin5::CallFunction::Response r = Call(*service_, "length", kAbc, kObjectA1);
  ASSERT_FALSE(r.has_error()) << r.error().text();
  EXPECT_EQ(Hex(r.result().msgpack()), "04");
}

TEST_F(ServiceTest, CallFunctionErrorsPointAtTheArgument) {
  tfplugin5::CallFunction::Response bad = Call(*service_, "length", "a3626164", kObjectA1);
  ASSERT_TRUE(bad.has_error());
  EXPECT_EQ(bad.error().text(), "text is bad");
  ASSERT_TRUE(bad.error().has_function_argument());
  EXPECT_EQ(bad.error().function_argument(), 0);
  EXPECT_FALSE(bad.has_result());

  // A malformed second argument: the error names it and its index.
  tfplugin5::CallFunction::Response malformed = Call(*service_, "length", kAbc, "92c401");
  ASSERT_TRUE(malformed.has_error());
  EXPECT_EQ(malformed.error().function_argument(), 1);
  EXPECT_NE(malformed.error().text().find("things"), std::string::npos);

  tfplugin5::CallFunction::Response unknown = Call(*service_, "nope", kAbc, kObjectA1);
  ASSERT_TRUE(unknown.has_error());
  EXPECT_FALSE(unknown.error().has_function_argument());
  EXPECT_NE(unknown.error().text().find("nope"), std::string::npos);

  tfplugin5::CallFunction::Request too_few;
  too_few.set_name("length");
  too_few.add_arguments()->set_msgpack(Unhex(kAbc));
  tfplugin5::CallFunction::Response few;
  ASSERT_THAT(service_->CallFunction(nullptr, &too_few, &few), IsOk());
  ASSERT_TRUE(few.has_error());
  EXPECT_NE(few.error().text().find("takes 2 arguments"), std::string::npos);
}

TEST_F(ServiceTest, CallFunctionWithAnUnknownArgumentAnswersUnknown) {
  tfplugin5::CallFunction::Response r = Call(*service_, "length", "d40000", kObjectA1);
  ASSERT_FALSE(r.has_error()) << r.error().text();
  EXPECT_EQ(Hex(r.result().msgpack()), "d40000");
}

TEST_F(ServiceTest, MoveResourceStateFromAnotherProvidersType) {
  tfplugin5::MoveResourceState::Request q;
  q.set_source_provider_address("example.com/other/other");
  q.set_source_type_name("other_thing");
  q.set_target_type_name("test_thing");
  q.mutable_source_state()->set_json(R"({"label":"b"})");
  tfplugin5::MoveResourceState::Response r;
  ASSERT_THAT(service_->MoveResourceState(nullptr, &q, &r), IsOk());
  ASSERT_EQ(r.diagnostics_size(), 0) << r.diagnostics(0).detail();
  cty::Value v = Decode(r.target_state());
  EXPECT_TRUE(v.GetAttribute("id")->Equals(cty::Value::String("moved")));
  EXPECT_TRUE(v.GetAttribute("name")->Equals(cty::Value::String("b")));
  EXPECT_TRUE(v.GetAttribute("rule")->IsKnown());

  q.set_source_type_name("something_else");
  tfplugin5::MoveResourceState::Response refused;
  ASSERT_THAT(service_->MoveResourceState(nullptr, &q, &refused), IsOk());
  ASSERT_EQ(refused.diagnostics_size(), 1);
  EXPECT_EQ(refused.diagnostics(0).detail(), "test_thing moves only from other_thing");
  EXPECT_FALSE(refused.has_target_state());
}

TEST_F(ServiceTest, MoveResourceStateFromTheSameTypeUpgrades) {
  tfplugin5::MoveResourceState::Request q;
  q.set_source_provider_address("registry.terraform.io/acme/test");
  q.set_source_type_name("test_thing");
  q.set_target_type_name("test_thing");
  q.set_source_private("p");
  q.mutable_source_state()->set_json(R"({"id":"i","name":"a","gone":1,"rule":[]})");
  tfplugin5::MoveResourceState::Response r;
  ASSERT_THAT(service_->MoveResourceState(nullptr, &q, &r), IsOk());
  ASSERT_EQ(r.diagnostics_size(), 0) << r.diagnostics(0).detail();
  EXPECT_TRUE(Decode(r.target_state()).GetAttribute("id")->Equals(cty::Value::String("i")));
  EXPECT_EQ(r.target_private(), "p");

  q.set_source_schema_version(7);
  tfplugin5::MoveResourceState::Response newer;
  ASSERT_THAT(service_->MoveResourceState(nullptr, &q, &newer), IsOk());
  ASSERT_EQ(newer.diagnostics_size(), 1);
  EXPECT_EQ(newer.diagnostics(0).summary(), "Resource instance managed by newer provider version");

  q.set_source_provider_address("registry.terraform.io/acme/other");
  q.set_source_schema_version(0);
  tfplugin5::MoveResourceState::Response other;
  ASSERT_THAT(service_->MoveResourceState(nullptr, &q, &other), IsOk());
  ASSERT_EQ(other.diagnostics_size(), 1);  // Thing's MoveState refuses test_thing of acme/other
}

TEST_F(ServiceTest, RpcsAfterProtocol55AreUnimplemented) {
  {
    tfplugin5::ProviderMetadata::Request q;
    tfplugin5::ProviderMetadata::Response r;
    EXPECT_EQ(service_->GetMetadata(nullptr, &q, &r).error_code(), grpc::StatusCode::UNIMPLEMENTED);
  }
  {
    tfplugin5::GetResourceIdentitySchemas::Request q;
    tfplugin5::GetResourceIdentitySchemas::Response r;
    EXPECT_EQ(service_->GetResourceIdentitySchemas(nullptr, &q, &r).error_code(),
              grpc::StatusCode::UNIMPLEMENTED);
  }
  {
    tfplugin5::UpgradeResourceIdentity::Request q;
    tfplugin5::UpgradeResourceIdentity::Response r;
    EXPECT_EQ(service_->UpgradeResourceIdentity(nullptr, &q, &r).error_code(),
              grpc::StatusCode::UNIMPLEMENTED);
  }
}

}  // namespace
}  // namespace nsxalb::wire
