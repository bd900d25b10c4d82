// The test provider: nsxalbtest_thing kept as <directory>/<id>.json.
#include "tests/harness/test_provider/test_provider.h"

#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "plugin/common/log.h"
#include "plugin/common/status_macros.h"
#include "plugin/cty/json.h"
#include "plugin/framework/resource_with_import_state.h"
#include "plugin/framework/resource_with_modify_plan.h"
#include "plugin/framework/resource_with_upgrade_state.h"
#include "plugin/framework/resource_with_validate_config.h"
#include "plugin/framework/schema_json.h"
#include "tests/harness/test_provider/schemas.h"

namespace nsxalb::test_provider {
namespace {

using framework::Diagnostics;

framework::Schema Parse(const char* json) {
  absl::StatusOr<framework::Schema> s = framework::ParseSchemaJson(json);
  if (!s.ok()) {
    log::Error(absl::StrCat("test provider schema: ", s.status().message()));
    return framework::Schema();
  }
  return *std::move(s);
}

const framework::Schema& ThingSchema() {
  static const framework::Schema* const kSchema = new framework::Schema(Parse(kThingSchema));
  return *kSchema;
}

// The "remote API": a directory of JSON files, one per object.
class Remote {
 public:
  void SetDirectory(std::string dir) {
    std::lock_guard<std::mutex> lock(mu_);
    dir_ = std::move(dir);
  }

  // The file of object `id`; an error when unconfigured or the ID is not a plain name.
  absl::StatusOr<std::string> PathOf(const std::string& id) const {
    std::lock_guard<std::mutex> lock(mu_);
    if (dir_.empty()) return absl::FailedPreconditionError("the provider is not configured");
    if (id.empty() || id.size() > 64) return absl::InvalidArgumentError("invalid object ID");
    for (char c : id) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') {
        return absl::InvalidArgumentError(
            absl::StrCat("invalid object ID \"", id, "\": use letters, digits, - and _"));
      }
    }
    return absl::StrCat(dir_, "/", id, ".json");
  }

  // Reads object `id`; nullopt when it does not exist.
  absl::StatusOr<std::optional<cty::Value>> Get(const std::string& id) const {
    NSXALB_ASSIGN_OR_RETURN(std::string path, PathOf(id));
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::optional<cty::Value>();
    std::stringstream text;
    text << in.rdbuf();
    NSXALB_ASSIGN_OR_RETURN(cty::Value v, cty::DecodeJson(text.str(), ThingType()));
    return std::optional<cty::Value>(v);
  }

  // Writes object `id` (atomically: temporary file, then rename).
  absl::Status Put(const std::string& id, const cty::Value& state) const {
    NSXALB_ASSIGN_OR_RETURN(std::string path, PathOf(id));
    NSXALB_ASSIGN_OR_RETURN(std::string json, cty::EncodeJson(state, ThingType()));
    const std::string tmp = path + ".tmp";
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      out << json;
      if (!out) return absl::UnavailableError(absl::StrCat("cannot write ", tmp));
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) return absl::UnavailableError(absl::StrCat("cannot write ", path, ": ", ec.message()));
    return absl::OkStatus();
  }

  absl::Status Remove(const std::string& id) const {
    NSXALB_ASSIGN_OR_RETURN(std::string path, PathOf(id));
    std::error_code ec;
    std::filesystem::remove(path, ec);
    if (ec) return absl::UnavailableError(ec.message());
    return absl::OkStatus();
  }

 private:
  mutable std::mutex mu_;
  std::string dir_;
};

std::string NewId() {
  std::random_device rd;
  std::uniform_int_distribution<uint64_t> dist;
  static const char* digits = "0123456789abcdef";
  uint64_t v = dist(rd);
  std::string out;
  for (int i = 0; i < 16; ++i, v >>= 4) out += digits[v & 15];
  return out;
}

std::string LastAttribute(const cty::AttributePath& path) {
  for (auto it = path.steps().rbegin(); it != path.steps().rend(); ++it) {
    if (it->kind == cty::AttributePath::Step::Kind::kAttribute) return it->name;
  }
  return "";
}

int64_t Revision(const cty::Value& state) {
  const cty::Value* r =
      state.IsKnown() && !state.IsNull() ? state.GetAttribute("revision") : nullptr;
  if (r == nullptr || !r->IsKnown() || r->IsNull()) return 0;
  return r->AsNumber().AsInt64().value_or(0);
}

std::string Etag(int64_t revision) { return absl::StrCat("{\"etag\":", revision, "}"); }

// Replaces the unknowns of a planned state with what the "server" decides.
cty::Value Resolve(const cty::Value& planned, const std::string& id, int64_t revision) {
  const std::string now = absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::Now(), absl::UTCTimeZone());
  return cty::Transform(planned, [&](const cty::AttributePath& path, const cty::Value& v) {
    if (v.IsKnown()) return v;
    const std::string name = LastAttribute(path);
    if (name == "id") return cty::Value::String(id);
    if (name == "size") return cty::Value::Int(1);
    if (name == "revision") return cty::Value::Int(revision);
    if (name == "created_at") return cty::Value::String(now);
    if (name == "port") return cty::Value::Int(443);
    return cty::Value::Null(v.type());
  });
}

std::string IdOf(const cty::Value& state) {
  const cty::Value* id = state.GetAttribute("id");
  return id != nullptr && id->IsKnown() && !id->IsNull() ? id->AsString() : "";
}

class Thing : public framework::Resource,
              public framework::ResourceWithModifyPlan,
              public framework::ResourceWithImportState,
              public framework::ResourceWithUpgradeState,
              public framework::ResourceWithValidateConfig {
 public:
  explicit Thing(std::shared_ptr<Remote> remote) : remote_(std::move(remote)) {}

  framework::Schema GetSchema() const override { return ThingSchema(); }

  void ValidateConfig(const framework::ValidateResourceConfigRequest& q,
                      framework::ValidateResourceConfigResponse& r) override {
    const cty::Value* name = q.config.GetAttribute("name");
    if (name != nullptr && name->IsKnown() && !name->IsNull() && name->AsString().empty()) {
      r.diagnostics.AddAttributeError(cty::AttributePath().Attribute("name"), "Invalid name",
                                      "The name must not be empty.");
    }
    const cty::Value* spec = q.config.GetAttribute("spec");
    if (spec != nullptr && spec->IsKnown() && !spec->IsNull()) {
      const cty::Value* cpu = spec->GetAttribute("cpu");
      if (cpu != nullptr && cpu->IsKnown() && !cpu->IsNull() && cpu->AsNumber().AsDouble() <= 0) {
        r.diagnostics.AddAttributeError(cty::AttributePath().Attribute("spec").Attribute("cpu"),
                                        "Invalid CPU count", "spec.cpu must be positive.");
      }
    }
  }

  void ModifyPlan(const framework::ModifyPlanRequest& q,
                  framework::ModifyPlanResponse& r) override {
    if (q.prior_state.IsNull()) {
      const cty::Value* size = q.config.GetAttribute("size");
      if (size != nullptr && size->IsKnown() && size->IsNull()) {
        r.planned_state = r.planned_state.WithAttribute("size", cty::Value::Int(1));
      }
      return;
    }
    if (!r.planned_state.Equals(q.prior_state)) {
      r.planned_state =
          r.planned_state.WithAttribute("revision", cty::Value::Unknown(cty::Type::Number()));
    }
  }

  void Create(const framework::CreateRequest& q, framework::CreateResponse& r) override {
    const std::string id = NewId();
    const cty::Value state = Resolve(q.planned_state, id, 0);
    if (absl::Status s = remote_->Put(id, state); !s.ok()) {
      r.diagnostics.AddError(
          "Error creating thing",
          framework::ErrorDetail("creating thing", "", std::string(s.message())));
      r.new_state = cty::Value::Null(ThingType());
      return;
    }
    r.new_state = state;
    r.private_data = Etag(0);
  }

  void Read(const framework::ReadRequest& q, framework::ReadResponse& r) override {
    const std::string id = IdOf(q.current_state);
    auto got = remote_->Get(id);
    if (!got.ok()) {
      r.diagnostics.AddError("Error reading thing",
                             framework::ErrorDetail(absl::StrCat("reading thing ", id), "",
                                                    std::string(got.status().message())));
      return;
    }
    if (!got->has_value()) {
      r.new_state = cty::Value::Null(ThingType());
      return;
    }
    r.new_state = **got;
    r.private_data = Etag(Revision(**got));
  }

  void Update(const framework::UpdateRequest& q, framework::UpdateResponse& r) override {
    const std::string id = IdOf(q.prior_state);
    const cty::Value state = Resolve(q.planned_state, id, Revision(q.prior_state) + 1);
    if (absl::Status s = remote_->Put(id, state); !s.ok()) {
      r.diagnostics.AddError("Error updating thing",
                             framework::ErrorDetail(absl::StrCat("updating thing ", id), "",
                                                    std::string(s.message())));
      return;
    }
    r.new_state = state;
    r.private_data = Etag(Revision(state));
  }

  void Delete(const framework::DeleteRequest& q, framework::DeleteResponse& r) override {
    const std::string id = IdOf(q.prior_state);
    if (absl::Status s = remote_->Remove(id); !s.ok()) {
      r.diagnostics.AddError("Error deleting thing",
                             framework::ErrorDetail(absl::StrCat("deleting thing ", id), "",
                                                    std::string(s.message())));
    }
  }

  void ImportState(const framework::ImportStateRequest& q,
                   framework::ImportStateResponse& r) override {
    auto got = remote_->Get(q.id);
    if (!got.ok() || !got->has_value()) {
      r.diagnostics.AddError(
          "Cannot import thing",
          absl::StrCat("No thing with ID \"", q.id, "\" exists",
                       got.ok() ? "." : absl::StrCat(": ", got.status().message())));
      return;
    }
    r.state = r.state.WithAttribute("id", cty::Value::String(q.id));
  }

  void UpgradeState(const framework::UpgradeStateRequest& q,
                    framework::UpgradeStateResponse& r) override {
    // Version 0 stored the size as the string attribute "count".
    nlohmann::json doc = nlohmann::json::parse(q.raw_state_json, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
      r.diagnostics.AddError("Unable to upgrade thing state",
                             "The stored state is not a JSON object.");
      return;
    }
    if (auto it = doc.find("count"); it != doc.end()) {
      if (it->is_string()) {
        absl::StatusOr<cty::Number> n = cty::Number::FromDecimal(it->get<std::string>());
        if (!n.ok()) {
          r.diagnostics.AddAttributeError(cty::AttributePath().Attribute("size"),
                                          "Unable to upgrade thing state",
                                          "The version 0 attribute \"count\" is not a number.");
          return;
        }
        doc["size"] = nlohmann::json::parse(n->ToString(), nullptr, false);
      } else {
        doc["size"] = *it;
      }
      doc.erase("count");
    }
    if (!doc.contains("revision")) doc["revision"] = 0;
    absl::StatusOr<cty::Value> v = cty::DecodeJson(doc.dump(), ThingType());
    if (!v.ok()) {
      r.diagnostics.AddStatusError("Unable to upgrade thing state", v.status());
      return;
    }
    r.upgraded_state = *v;
  }

 private:
  std::shared_ptr<Remote> remote_;
};

class ThingData : public framework::DataSource {
 public:
  explicit ThingData(std::shared_ptr<Remote> remote) : remote_(std::move(remote)) {}
  framework::Schema GetSchema() const override { return Parse(kThingDataSchema); }
  void Read(const framework::ReadDataSourceRequest& q,
            framework::ReadDataSourceResponse& r) override {
    const std::string id = q.config.GetAttribute("id")->AsString();
    auto got = remote_->Get(id);
    if (!got.ok() || !got->has_value()) {
      r.diagnostics.AddAttributeError(
          cty::AttributePath().Attribute("id"), "Thing not found",
          absl::StrCat("No thing with ID \"", id, "\" exists",
                       got.ok() ? "." : absl::StrCat(": ", got.status().message())));
      return;
    }
    const cty::Value& thing = **got;
    r.state = r.state.WithAttribute("name", *thing.GetAttribute("name"))
                  .WithAttribute("size", *thing.GetAttribute("size"));
    const cty::Value* tags = thing.GetAttribute("tags");
    r.state = r.state.WithAttribute(
        "tags", tags->IsNull() ? cty::Value::List(cty::Type::String(), {}) : *tags);
  }

 private:
  std::shared_ptr<Remote> remote_;
};

class TestProvider : public framework::Provider {
 public:
  framework::Schema GetSchema() const override { return Parse(kProviderSchema); }

  void Configure(const framework::ConfigureRequest& q, framework::ConfigureResponse& r) override {
    const cty::AttributePath at = cty::AttributePath().Attribute("directory");
    const cty::Value* dir =
        q.config.IsKnown() && !q.config.IsNull() ? q.config.GetAttribute("directory") : nullptr;
    if (dir == nullptr || !dir->IsKnown() || dir->IsNull() || dir->AsString().empty()) {
      r.diagnostics.AddAttributeError(at, "Missing directory",
                                      "Set \"directory\" to a known, non-empty path.");
      return;
    }
    std::error_code ec;
    std::filesystem::create_directories(dir->AsString(), ec);
    if (ec) {
      r.diagnostics.AddAttributeError(
          at, "Unusable directory",
          framework::ErrorDetail(absl::StrCat("creating ", dir->AsString()), "", ec.message()));
      return;
    }
    remote_->SetDirectory(dir->AsString());
  }

  std::map<std::string, framework::ResourceFactory> Resources() override {
    auto remote = remote_;
    return {{"nsxalbtest_thing", [remote] { return std::make_unique<Thing>(remote); }}};
  }

  std::map<std::string, framework::DataSourceFactory> DataSources() override {
    auto remote = remote_;
    return {{"nsxalbtest_thing", [remote] { return std::make_unique<ThingData>(remote); }}};
  }

 private:
  std::shared_ptr<Remote> remote_ = std::make_shared<Remote>();
};

}  // namespace

cty::Type ThingType() { return framework::ImpliedType(ThingSchema().block); }

std::shared_ptr<framework::Provider> NewTestProvider() { return std::make_shared<TestProvider>(); }

}  // namespace nsxalb::test_provider
