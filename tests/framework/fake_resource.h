// A configurable resource and provider for engine tests: every hook is a std::function, so each
// test states exactly what the resource does.
#ifndef NSXALB_TESTS_FRAMEWORK_FAKE_RESOURCE_H_
#define NSXALB_TESTS_FRAMEWORK_FAKE_RESOURCE_H_

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "plugin/framework/provider.h"
#include "plugin/framework/resource.h"
#include "plugin/framework/resource_with_import_state.h"
#include "plugin/framework/resource_with_modify_plan.h"
#include "plugin/framework/resource_with_upgrade_state.h"
#include "plugin/framework/resource_with_validate_config.h"

namespace nsxalb::framework::testing {

// Hooks of the fake resource; unset hooks keep the engine's pre-filled response.
struct FakeHooks {
  std::function<void(const ModifyPlanRequest&, ModifyPlanResponse&)> modify_plan;
  std::function<void(const CreateRequest&, CreateResponse&)> create;
  std::function<void(const ReadRequest&, ReadResponse&)> read;
  std::function<void(const UpdateRequest&, UpdateResponse&)> update;
  std::function<void(const DeleteRequest&, DeleteResponse&)> del;
  std::function<void(const ImportStateRequest&, ImportStateResponse&)> import;
  std::function<void(const UpgradeStateRequest&, UpgradeStateResponse&)> upgrade;
  std::function<void(const ValidateResourceConfigRequest&, ValidateResourceConfigResponse&)>
      validate;
};

// A resource with every capability, delegating to hooks.
class FakeResource : public Resource,
                     public ResourceWithModifyPlan,
                     public ResourceWithImportState,
                     public ResourceWithUpgradeState,
                     public ResourceWithValidateConfig {
 public:
  FakeResource(Schema schema, std::shared_ptr<FakeHooks> hooks)
      : schema_(std::move(schema)), hooks_(std::move(hooks)) {}
  Schema GetSchema() const override { return schema_; }
  void Create(const CreateRequest& q, CreateResponse& r) override {
    if (hooks_->create) hooks_->create(q, r);
  }
  void Read(const ReadRequest& q, ReadResponse& r) override {
    if (hooks_->read) hooks_->read(q, r);
  }
  void Update(const UpdateRequest& q, UpdateResponse& r) override {
    if (hooks_->update) hooks_->update(q, r);
  }
  void Delete(const DeleteRequest& q, DeleteResponse& r) override {
    if (hooks_->del) hooks_->del(q, r);
  }
  void ModifyPlan(const ModifyPlanRequest& q, ModifyPlanResponse& r) override {
    if (hooks_->modify_plan) hooks_->modify_plan(q, r);
  }
  void ImportState(const ImportStateRequest& q, ImportStateResponse& r) override {
    if (hooks_->import) {
      hooks_->import(q, r);
    } else {
      r.diagnostics.AddError("no import", "");
    }
  }
  void UpgradeState(const UpgradeStateRequest& q, UpgradeStateResponse& r) override {
    if (hooks_->upgrade) hooks_->upgrade(q, r);
  }
  void ValidateConfig(const ValidateResourceConfigRequest& q,
                      ValidateResourceConfigResponse& r) override {
    if (hooks_->validate) hooks_->validate(q, r);
  }

 private:
  Schema schema_;
  std::shared_ptr<FakeHooks> hooks_;
};

// A resource with no optional capability.
class PlainResource : public Resource {
 public:
  explicit PlainResource(Schema schema) : schema_(std::move(schema)) {}
  Schema GetSchema() const override { return schema_; }
  void Create(const CreateRequest&, CreateResponse&) override {}
  void Read(const ReadRequest&, ReadResponse&) override {}
  void Update(const UpdateRequest&, UpdateResponse&) override {}
  void Delete(const DeleteRequest&, DeleteResponse&) override {}

 private:
  Schema schema_;
};

// A provider offering "fake_thing" (FakeResource) and "plain_thing" (PlainResource).
class FakeProvider : public Provider {
 public:
  FakeProvider(Schema resource_schema, std::shared_ptr<FakeHooks> hooks)
      : schema_(std::move(resource_schema)), hooks_(std::move(hooks)) {}
  Schema GetSchema() const override { return Schema(); }
  void Configure(const ConfigureRequest&, ConfigureResponse&) override { ++configured; }
  std::map<std::string, ResourceFactory> Resources() override {
    return {{"fake_thing", [this] { return std::make_unique<FakeResource>(schema_, hooks_); }},
            {"plain_thing", [this] { return std::make_unique<PlainResource>(schema_); }}};
  }
  std::map<std::string, DataSourceFactory> DataSources() override { return {}; }
  void Stop() override { ++stopped; }

  int configured = 0;
  int stopped = 0;

 private:
  Schema schema_;
  std::shared_ptr<FakeHooks> hooks_;
};

}  // namespace nsxalb::framework::testing

#endif  // NSXALB_TESTS_FRAMEWORK_FAKE_RESOURCE_H_
