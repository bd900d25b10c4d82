// terraform-provider-avi (test-only stand-in): a small vmware/avi for the scenarios that move
// avi_serviceenginegroup to nsxalb_se_group (tests/terraform/se_group_move_*_test.sh). Built with
// this project's framework, wire and host, and installed into the scenario's filesystem mirror
// under registry.terraform.io/vmware/avi, because Terraform needs the source provider to plan a
// state that still names it.
//
// What it mimics (../shared/reference/avi-provider-state.md): the provider block's avi_*
// settings; the resource avi_serviceenginegroup with id = the object's URL, uuid, cloud_ref and
// tenant_ref as Controller URLs, schema version 0, and the scalar types of one release line,
// chosen by AVI_STANDIN_RELEASE_LINE at start: "20.1" (the default: numbers and bools native)
// or "current" (every scalar a string, as the current releases store them); and the data source
// avi_cloud (uuid and url of a cloud by name). It keeps only the SE-group fields the scenarios
// use. NSXALB_CA_FILE gives the emulator's CA. It is not the real provider and is never shipped.
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "plugin/framework/data_source.h"
#include "plugin/framework/provider.h"
#include "plugin/framework/resource.h"
#include "plugin/framework/schema.h"
#include "plugin/host/serve.h"
#include "plugin/wire/provider_service.h"

namespace nsxalb::avi_standin {
namespace {

using Json = nlohmann::json;

// The SE-group fields the stand-in manages, with their type in the 20.1.x line.
const std::map<std::string, cty::Type>& Fields() {
  static const auto* const kFields =
      new std::map<std::string, cty::Type>{{"vcpus_per_se", cty::Type::Number()},
                                           {"memory_per_se", cty::Type::Number()},
                                           {"disk_per_se", cty::Type::Number()},
                                           {"max_se", cty::Type::Number()},
                                           {"min_se", cty::Type::Number()},
                                           {"buffer_se", cty::Type::Number()},
                                           {"max_vs_per_se", cty::Type::Number()},
                                           {"num_dispatcher_cores", cty::Type::Number()},
                                           {"max_queues_per_vnic", cty::Type::Number()},
                                           {"min_scaleout_per_vs", cty::Type::Number()},
                                           {"max_scaleout_per_vs", cty::Type::Number()},
                                           {"cpu_reserve", cty::Type::Bool()},
                                           {"mem_reserve", cty::Type::Bool()},
                                           {"dedicated_dispatcher_core", cty::Type::Bool()},
                                           {"hybrid_rss_mode", cty::Type::Bool()},
                                           {"ha_mode", cty::Type::String()},
                                           {"se_name_prefix", cty::Type::String()},
                                           {"description", cty::Type::String()},
                                           {"algo", cty::Type::String()},
                                           {"se_deprovision_delay", cty::Type::Number()},
                                           {"connection_memory_percentage", cty::Type::Number()}};
  return *kFields;
}

bool StringLine() {
  const char* line = std::getenv("AVI_STANDIN_RELEASE_LINE");
  return line != nullptr && std::string(line) == "current";
}

// The type a field has in this process's release line.
cty::Type FieldType(const cty::Type& native) { return StringLine() ? cty::Type::String() : native; }

framework::Attribute Attr(const std::string& name, cty::Type type, bool required, bool optional,
                          bool computed, bool sensitive = false) {
  framework::Attribute a;
  a.name = name;
  a.type = std::move(type);
  a.required = required;
  a.optional = optional;
  a.computed = computed;
  a.sensitive = sensitive;
  return a;
}

std::string Text(const cty::Value& object, const std::string& name) {
  const cty::Value* v = object.GetAttribute(name);
  return v == nullptr || v->IsNull() || !v->IsKnown() ? "" : v->AsString();
}

// The Controller body value of a configured field (native JSON), or null when unset.
Json ToBody(const cty::Value& v, const cty::Type& native) {
  if (v.IsNull() || !v.IsKnown()) return Json();
  if (v.type().kind() == cty::Type::Kind::kString && native.kind() != cty::Type::Kind::kString) {
    const std::string& s = v.AsString();
    if (native.kind() == cty::Type::Kind::kBool) return Json(s == "true");
    int64_t i = 0;
    double d = 0;
    if (absl::SimpleAtoi(s, &i)) return Json(i);
    if (absl::SimpleAtod(s, &d)) return Json(d);
    return Json();
  }
  switch (v.type().kind()) {
    case cty::Type::Kind::kBool:
      return Json(v.AsBool());
    case cty::Type::Kind::kNumber: {
      absl::StatusOr<int64_t> i = v.AsNumber().AsInt64();
      return i.ok() ? Json(*i) : Json(v.AsNumber().AsDouble());
    }
    default:
      return Json(v.AsString());
  }
}

// A Controller body value as the state of this release line stores it.
cty::Value FromBody(const Json& j, const cty::Type& native) {
  const cty::Type type = FieldType(native);
  if (j.is_null()) return cty::Value::Null(type);
  if (type.kind() == cty::Type::Kind::kString) {
    if (j.is_string()) return cty::Value::String(j.get<std::string>());
    if (j.is_boolean()) return cty::Value::String(j.get<bool>() ? "true" : "false");
    return cty::Value::String(j.dump());
  }
  if (type.kind() == cty::Type::Kind::kBool) {
    return j.is_boolean() ? cty::Value::Bool(j.get<bool>()) : cty::Value::Null(type);
  }
  if (j.is_number_integer()) return cty::Value::Int(j.get<int64_t>());
  return j.is_number() ? cty::Value::Float(j.get<double>()) : cty::Value::Null(type);
}

std::string StripFragment(const std::string& url) { return url.substr(0, url.find('#')); }

// The configured client, shared by the resource and the data source.
struct Session {
  std::shared_ptr<controller::Client> client;
};

std::shared_ptr<controller::Client> ClientOrError(const Session& s, framework::Diagnostics& d) {
  if (s.client == nullptr) d.AddError("avi provider not configured", "Configure was not called.");
  return s.client;
}

class SeGroup : public framework::Resource {
 public:
  explicit SeGroup(std::shared_ptr<Session> session) : session_(std::move(session)) {}

  framework::Schema GetSchema() const override {
    framework::Schema s;
    auto& a = s.block.attributes;
    a["id"] = Attr("id", cty::Type::String(), false, false, true);
    a["uuid"] = Attr("uuid", cty::Type::String(), false, true, true);
    a["name"] = Attr("name", cty::Type::String(), true, false, false);
    a["cloud_ref"] = Attr("cloud_ref", cty::Type::String(), false, true, true);
    a["tenant_ref"] = Attr("tenant_ref", cty::Type::String(), false, true, true);
    for (const auto& [name, native] : Fields()) {
      a[name] = Attr(name, FieldType(native), false, true, true);
    }
    return s;
  }

  void Create(const framework::CreateRequest& q, framework::CreateResponse& r) override {
    std::shared_ptr<controller::Client> client = ClientOrError(*session_, r.diagnostics);
    if (client == nullptr) return;
    absl::StatusOr<controller::SeGroup> group = client->CreateSeGroup(Spec(q.config));
    if (!group.ok()) {
      r.diagnostics.AddError("Cannot create avi_serviceenginegroup",
                             std::string(group.status().message()));
      return;
    }
    r.new_state = StateOf(q.planned_state, *group);
  }

  void Read(const framework::ReadRequest& q, framework::ReadResponse& r) override {
    std::shared_ptr<controller::Client> client = ClientOrError(*session_, r.diagnostics);
    if (client == nullptr) return;
    absl::StatusOr<controller::SeGroup> group =
        client->GetSeGroup(Text(q.current_state, "uuid"), "");
    if (group.status().code() == absl::StatusCode::kNotFound) {
      r.new_state = cty::Value::Null(q.current_state.type());
      return;
    }
    if (!group.ok()) {
      r.diagnostics.AddError("Cannot read avi_serviceenginegroup",
                             std::string(group.status().message()));
      return;
    }
    r.new_state = StateOf(q.current_state, *group);
  }

  void Update(const framework::UpdateRequest& q, framework::UpdateResponse& r) override {
    std::shared_ptr<controller::Client> client = ClientOrError(*session_, r.diagnostics);
    if (client == nullptr) return;
    absl::StatusOr<controller::SeGroup> group =
        client->UpdateSeGroup(Text(q.prior_state, "uuid"), Spec(q.config));
    if (!group.ok()) {
      r.diagnostics.AddError("Cannot update avi_serviceenginegroup",
                             std::string(group.status().message()));
      return;
    }
    r.new_state = StateOf(q.planned_state, *group);
  }

  void Delete(const framework::DeleteRequest& q, framework::DeleteResponse& r) override {
    std::shared_ptr<controller::Client> client = ClientOrError(*session_, r.diagnostics);
    if (client == nullptr) return;
    if (absl::Status s = client->DeleteSeGroup(Text(q.prior_state, "uuid"), ""); !s.ok()) {
      r.diagnostics.AddError("Cannot delete avi_serviceenginegroup", std::string(s.message()));
    }
  }

 private:
  static controller::SeGroupSpec Spec(const cty::Value& config) {
    controller::SeGroupSpec spec;
    spec.name = Text(config, "name");
    spec.cloud = Text(config, "cloud_ref");
    for (const auto& [name, native] : Fields()) {
      Json j = ToBody(*config.GetAttribute(name), native);
      if (!j.is_null()) spec.fields[name] = std::move(j);
    }
    return spec;
  }

  static cty::Value StateOf(const cty::Value& base, const controller::SeGroup& g) {
    cty::Value s =
        base.WithAttribute("id", cty::Value::String(StripFragment(g.url)))
            .WithAttribute("uuid", cty::Value::String(g.uuid))
            .WithAttribute("name", cty::Value::String(g.name))
            .WithAttribute("cloud_ref", cty::Value::String(StripFragment(g.cloud_ref)))
            .WithAttribute("tenant_ref", cty::Value::String(StripFragment(g.tenant_ref)));
    for (const auto& [name, native] : Fields()) {
      auto it = g.body.find(name);
      s = std::move(s).WithAttribute(name, FromBody(it == g.body.end() ? Json() : *it, native));
    }
    return s;
  }

  std::shared_ptr<Session> session_;
};

class Cloud : public framework::DataSource {
 public:
  explicit Cloud(std::shared_ptr<Session> session) : session_(std::move(session)) {}

  framework::Schema GetSchema() const override {
    framework::Schema s;
    s.block.attributes["name"] = Attr("name", cty::Type::String(), true, false, false);
    s.block.attributes["uuid"] = Attr("uuid", cty::Type::String(), false, false, true);
    s.block.attributes["id"] = Attr("id", cty::Type::String(), false, false, true);
    return s;
  }

  void Read(const framework::ReadDataSourceRequest& q,
            framework::ReadDataSourceResponse& r) override {
    std::shared_ptr<controller::Client> client = ClientOrError(*session_, r.diagnostics);
    if (client == nullptr) return;
    absl::StatusOr<controller::CloudInfo> cloud = client->ResolveCloud(Text(q.config, "name"));
    if (!cloud.ok()) {
      r.diagnostics.AddError("Cannot read avi_cloud", std::string(cloud.status().message()));
      return;
    }
    r.state = r.state.WithAttribute("uuid", cty::Value::String(cloud->uuid))
                  .WithAttribute("id", cty::Value::String(StripFragment(cloud->ref)));
  }

 private:
  std::shared_ptr<Session> session_;
};

class AviProvider : public framework::Provider {
 public:
  framework::Schema GetSchema() const override {
    framework::Schema s;
    for (const char* name : {"avi_controller", "avi_username", "avi_tenant", "avi_version"}) {
      s.block.attributes[name] = Attr(name, cty::Type::String(), false, true, false);
    }
    s.block.attributes["avi_password"] =
        Attr("avi_password", cty::Type::String(), false, true, false, /*sensitive=*/true);
    return s;
  }

  void Configure(const framework::ConfigureRequest& q, framework::ConfigureResponse& r) override {
    controller::ClientConfig c;
    c.controller = Text(q.config, "avi_controller");
    c.username = Text(q.config, "avi_username");
    c.password = Text(q.config, "avi_password");
    // Like vmware/avi, the password may come from AVI_PASSWORD instead of the configuration.
    if (const char* env = std::getenv("AVI_PASSWORD"); c.password.empty() && env != nullptr) {
      c.password = env;
    }
    if (const std::string tenant = Text(q.config, "avi_tenant"); !tenant.empty()) c.tenant = tenant;
    if (const char* ca = std::getenv("NSXALB_CA_FILE")) c.ca_file = ca;
    absl::StatusOr<std::unique_ptr<controller::Client>> client = controller::NewClient(c);
    if (!client.ok()) {
      r.diagnostics.AddError("Invalid avi provider configuration",
                             std::string(client.status().message()));
      return;
    }
    session_->client = *std::move(client);
  }

  std::map<std::string, framework::ResourceFactory> Resources() override {
    return {{"avi_serviceenginegroup", [s = session_] { return std::make_unique<SeGroup>(s); }}};
  }
  std::map<std::string, framework::DataSourceFactory> DataSources() override {
    return {{"avi_cloud", [s = session_] { return std::make_unique<Cloud>(s); }}};
  }

 private:
  std::shared_ptr<Session> session_ = std::make_shared<Session>();
};

}  // namespace
}  // namespace nsxalb::avi_standin

int main() {
  nsxalb::host::HostOptions options;
  options.provider_address = "registry.terraform.io/vmware/avi";
  return nsxalb::host::Serve(
      [] {
        return std::shared_ptr<grpc::Service>(
            nsxalb::wire::NewProviderService(std::make_shared<nsxalb::avi_standin::AviProvider>()));
      },
      options);
}
