// Deliberately broken answers for the harness's negative tests.
#include "tests/harness/test_provider/misbehave.h"

#include <map>

#include "plugin/cty/msgpack.h"
#include "tests/harness/test_provider/test_provider.h"

namespace nsxalb::test_provider {
namespace {

// Decodes, edits and re-encodes one DynamicValue; leaves it alone when it does not decode.
template <typename Edit>
void EditValue(tfplugin5::DynamicValue* dv, Edit edit) {
  absl::StatusOr<cty::Value> v = cty::DecodeMsgpack(dv->msgpack(), ThingType());
  if (!v.ok() || v->IsNull() || !v->IsKnown()) return;
  edit(*v, dv);
}

void Replace(tfplugin5::DynamicValue* dv, const std::string& attr, const cty::Value& value) {
  EditValue(dv, [&](const cty::Value& v, tfplugin5::DynamicValue* out) {
    absl::StatusOr<std::string> bytes =
        cty::EncodeMsgpack(v.WithAttribute(attr, value), ThingType());
    if (bytes.ok()) out->set_msgpack(*bytes);
  });
}

void Drop(tfplugin5::DynamicValue* dv, const std::string& attr) {
  EditValue(dv, [&](const cty::Value& v, tfplugin5::DynamicValue* out) {
    std::map<std::string, cty::Value> entries = v.entries();
    entries.erase(attr);
    std::map<std::string, cty::Type> types = ThingType().attributes();
    types.erase(attr);
    absl::StatusOr<std::string> bytes = cty::EncodeMsgpack(
        cty::Value::ObjectOf(cty::Type::Object(types), entries), cty::Type::Object(types));
    if (bytes.ok()) out->set_msgpack(*bytes);
  });
}

bool IsNullBytes(const tfplugin5::DynamicValue& dv) { return dv.msgpack() == "\xc0"; }

class Misbehaving final : public tfplugin5::Provider::Service {
 public:
  Misbehaving(std::unique_ptr<tfplugin5::Provider::Service> inner, std::string mode)
      : inner_(std::move(inner)), mode_(std::move(mode)) {}

#define NSXALB_DELEGATE(Rpc, Msg)                                                \
  grpc::Status Rpc(grpc::ServerContext* ctx, const tfplugin5::Msg::Request* req, \
                   tfplugin5::Msg::Response* resp) override {                    \
    return inner_->Rpc(ctx, req, resp);                                          \
  }
  NSXALB_DELEGATE(GetSchema, GetProviderSchema)
  NSXALB_DELEGATE(PrepareProviderConfig, PrepareProviderConfig)
  NSXALB_DELEGATE(ValidateResourceTypeConfig, ValidateResourceTypeConfig)
  NSXALB_DELEGATE(ValidateDataSourceConfig, ValidateDataSourceConfig)
  NSXALB_DELEGATE(UpgradeResourceState, UpgradeResourceState)
  NSXALB_DELEGATE(Configure, Configure)
  NSXALB_DELEGATE(ImportResourceState, ImportResourceState)
  NSXALB_DELEGATE(ReadDataSource, ReadDataSource)
  NSXALB_DELEGATE(Stop, Stop)
#undef NSXALB_DELEGATE

  grpc::Status ReadResource(grpc::ServerContext* ctx, const tfplugin5::ReadResource::Request* req,
                            tfplugin5::ReadResource::Response* resp) override {
    grpc::Status s = inner_->ReadResource(ctx, req, resp);
    if (mode_ == "missing_attribute") Drop(resp->mutable_new_state(), "description");
    return s;
  }

  grpc::Status PlanResourceChange(grpc::ServerContext* ctx,
                                  const tfplugin5::PlanResourceChange::Request* req,
                                  tfplugin5::PlanResourceChange::Response* resp) override {
    grpc::Status s = inner_->PlanResourceChange(ctx, req, resp);
    if (mode_ == "invalid_plan" && !IsNullBytes(resp->planned_state())) {
      Replace(resp->mutable_planned_state(), "name", cty::Value::String("not-what-you-configured"));
    }
    return s;
  }

  grpc::Status ApplyResourceChange(grpc::ServerContext* ctx,
                                   const tfplugin5::ApplyResourceChange::Request* req,
                                   tfplugin5::ApplyResourceChange::Response* resp) override {
    grpc::Status s = inner_->ApplyResourceChange(ctx, req, resp);
    const bool destroy = IsNullBytes(req->planned_state());
    if (mode_ == "destroy_non_null" && destroy) {
      *resp->mutable_new_state() = req->prior_state();
    } else if (!destroy && mode_ == "inconsistent_apply") {
      Replace(resp->mutable_new_state(), "description", cty::Value::String("tampered"));
    } else if (!destroy && mode_ == "unknown_after_apply") {
      Replace(resp->mutable_new_state(), "created_at", cty::Value::Unknown(cty::Type::String()));
    } else if (!destroy && mode_ == "missing_attribute") {
      Drop(resp->mutable_new_state(), "description");
    }
    return s;
  }

 private:
  std::unique_ptr<tfplugin5::Provider::Service> inner_;
  std::string mode_;
};

}  // namespace

std::unique_ptr<tfplugin5::Provider::Service> WrapMisbehaving(
    std::unique_ptr<tfplugin5::Provider::Service> inner, const std::string& mode) {
  if (mode.empty()) return inner;
  for (const char* known : {"invalid_plan", "inconsistent_apply", "unknown_after_apply",
                            "destroy_non_null", "missing_attribute"}) {
    if (mode == known) return std::make_unique<Misbehaving>(std::move(inner), mode);
  }
  return nullptr;
}

}  // namespace nsxalb::test_provider
