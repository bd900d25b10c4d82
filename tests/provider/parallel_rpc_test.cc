// The provider server under parallel RPCs, as Terraform drives it (-parallelism=10): the shipped
// provider behind the tfplugin5 service on an in-process gRPC server, one Configure, then many
// threads each validating, planning, creating, reading and destroying its own SE groups on the
// Controller emulator while others read the schema and a sizing data source; and Stop arriving
// while creates are in flight. Checks every answer and that nothing is left behind. Built with
// -DNSXALB_TSAN=ON it is one of the ThreadSanitizer tests (label tsan).
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "plugin/cty/msgpack.h"
#include "plugin/cty/value.h"
#include "plugin/framework/schema.h"
#include "plugin/provider/provider.h"
#include "plugin/provider/se_group_resource.h"
#include "plugin/provider/se_sizing_data_source.h"
#include "plugin/wire/provider_service.h"
#include "proto/tfplugin5.grpc.pb.h"
#include "tests/support/emulator_process.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::provider {
namespace {

using ::nsxalb::testing::IsOk;

using cty::Type;
using cty::Value;

constexpr int kThreads = 8;
constexpr int kGroupsPerThread = 3;

Type ProviderType() { return framework::ImpliedType(EmbeddedProviderSchema().block); }
Type GroupType() {
  return framework::ImpliedType(EmbeddedResourceSchema(kSeGroupResourceType).block);
}
Type SizingType() {
  return framework::ImpliedType(EmbeddedDataSourceSchema(kSeSizingDataSource).block);
}
Type WorkloadType() { return GroupType().attributes().at("workload"); }

tfplugin5::DynamicValue Dyn(const Value& value, const Type& type) {
  tfplugin5::DynamicValue d;
  absl::StatusOr<std::string> bytes = cty::EncodeMsgpack(value, type);
  EXPECT_THAT(bytes, IsOk());
  if (bytes.ok()) d.set_msgpack(*bytes);
  return d;
}

Value Decode(const tfplugin5::DynamicValue& d, const Type& type) {
  absl::StatusOr<Value> v = cty::DecodeMsgpack(d.msgpack(), type);
  EXPECT_THAT(v, IsOk());
  return v.ok() ? *v : Value::Null(type);
}

// The error diagnostics of a response, one per line ("" when there are none).
template <typename Response>
std::string Errors(const Response& response) {
  std::string out;
  for (const tfplugin5::Diagnostic& d : response.diagnostics()) {
    if (d.severity() == tfplugin5::Diagnostic::ERROR) {
      absl::StrAppend(&out, d.summary(), ": ", d.detail(), "\n");
    }
  }
  return out;
}

class ParallelRpcTest : public ::testing::Test {
 protected:
  void SetUp() override { StartEmulator({}); }

  void StartEmulator(std::vector<std::string> args) {
    TearDown();
    stub_.reset();
    server_.reset();
    service_.reset();
    emulator_.reset();
    testing::EmulatorProcess::Options options;
    options.extra_args = std::move(args);
    absl::StatusOr<std::unique_ptr<testing::EmulatorProcess>> emulator =
        testing::EmulatorProcess::Start(options);
    ASSERT_THAT(emulator, IsOk());
    emulator_ = *std::move(emulator);

    service_ = wire::NewProviderService(NewProvider());
    grpc::ServerBuilder builder;
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    stub_ = tfplugin5::Provider::NewStub(server_->InProcessChannel(grpc::ChannelArguments()));

    tfplugin5::Configure::Request request;
    request.set_terraform_version("1.9.0");
    *request.mutable_config() =
        Dyn(Value::ObjectOf(ProviderType(), {{"controller", Value::String(emulator_->url())},
                                             {"username", Value::String("admin")},
                                             {"password", Value::String("admin")},
                                             {"ca_file", Value::String(emulator_->ca_file())}}),
            ProviderType());
    tfplugin5::Configure::Response response;
    grpc::ClientContext context;
    ASSERT_THAT(stub_->Configure(&context, request, &response), IsOk());
    ASSERT_EQ(Errors(response), "");
  }

  void TearDown() override {
    if (server_ != nullptr) server_->Shutdown(std::chrono::system_clock::now());
  }

  static Value GroupConfig(const std::string& name) {
    return Value::ObjectOf(
        GroupType(),
        {{"name", Value::String(name)},
         {"platform", Value::String("vcenter")},
         {"workload", Value::ObjectOf(WorkloadType(), {{"l7_rps", Value::Int(50000)}})}});
  }

  // Validate, plan, create, read and destroy one group; "" or what went wrong.
  std::string Lifecycle(const std::string& name) {
    const Value config = GroupConfig(name);
    const Value null_group = Value::Null(GroupType());
    {
      tfplugin5::ValidateResourceTypeConfig::Request q;
      q.set_type_name(kSeGroupResourceType);
      *q.mutable_config() = Dyn(config, GroupType());
      tfplugin5::ValidateResourceTypeConfig::Response r;
      grpc::ClientContext c;
      if (!stub_->ValidateResourceTypeConfig(&c, q, &r).ok()) return "validate: transport";
      if (!Errors(r).empty()) return "validate: " + Errors(r);
    }
    tfplugin5::PlanResourceChange::Response plan;
    {
      tfplugin5::PlanResourceChange::Request q;
      q.set_type_name(kSeGroupResourceType);
      *q.mutable_prior_state() = Dyn(null_group, GroupType());
      *q.mutable_proposed_new_state() = Dyn(config, GroupType());
      *q.mutable_config() = Dyn(config, GroupType());
      grpc::ClientContext c;
      if (!stub_->PlanResourceChange(&c, q, &plan).ok()) return "plan: transport";
      if (!Errors(plan).empty()) return "plan: " + Errors(plan);
    }
    tfplugin5::ApplyResourceChange::Response created;
    {
      tfplugin5::ApplyResourceChange::Request q;
      q.set_type_name(kSeGroupResourceType);
      *q.mutable_prior_state() = Dyn(null_group, GroupType());
      *q.mutable_planned_state() = plan.planned_state();
      *q.mutable_config() = Dyn(config, GroupType());
      q.set_planned_private(plan.planned_private());
      grpc::ClientContext c;
      if (!stub_->ApplyResourceChange(&c, q, &created).ok()) return "create: transport";
      if (!Errors(created).empty()) return "create: " + Errors(created);
    }
    const Value state = Decode(created.new_state(), GroupType());
    if (state.IsNull() || state.GetAttribute("id")->IsNull()) return "create: no id";
    {
      tfplugin5::ReadResource::Request q;
      q.set_type_name(kSeGroupResourceType);
      *q.mutable_current_state() = created.new_state();
      q.set_private_(created.private_());
      tfplugin5::ReadResource::Response r;
      grpc::ClientContext c;
      if (!stub_->ReadResource(&c, q, &r).ok()) return "read: transport";
      if (!Errors(r).empty()) return "read: " + Errors(r);
      if (Decode(r.new_state(), GroupType()).IsNull()) return "read: gone";
    }
    {
      tfplugin5::ApplyResourceChange::Request q;
      q.set_type_name(kSeGroupResourceType);
      *q.mutable_prior_state() = created.new_state();
      *q.mutable_planned_state() = Dyn(null_group, GroupType());
      *q.mutable_config() = Dyn(null_group, GroupType());
      tfplugin5::ApplyResourceChange::Response r;
      grpc::ClientContext c;
      if (!stub_->ApplyResourceChange(&c, q, &r).ok()) return "destroy: transport";
      if (!Errors(r).empty()) return "destroy: " + Errors(r);
    }
    return "";
  }

  std::string ReadSizing() {
    tfplugin5::ReadDataSource::Request q;
    q.set_type_name(kSeSizingDataSource);
    *q.mutable_config() = Dyn(
        Value::ObjectOf(
            SizingType(),
            {{"platform", Value::String("nsxt")},
             {"workload", Value::ObjectOf(WorkloadType(), {{"ssl_tps_ecc", Value::Int(8000)}})}}),
        SizingType());
    tfplugin5::ReadDataSource::Response r;
    grpc::ClientContext c;
    if (!stub_->ReadDataSource(&c, q, &r).ok()) return "sizing: transport";
    return Errors(r);
  }

  std::unique_ptr<testing::EmulatorProcess> emulator_;
  std::unique_ptr<tfplugin5::Provider::Service> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<tfplugin5::Provider::Stub> stub_;
};

TEST_F(ParallelRpcTest, ManyThreadsCreateReadAndDestroyTheirOwnGroups) {
  std::vector<std::string> failures(kThreads);
  std::atomic<bool> done{false};
  std::thread reader([this, &done] {
    while (!done.load()) {
      tfplugin5::GetProviderSchema::Request q;
      tfplugin5::GetProviderSchema::Response r;
      grpc::ClientContext c;
      EXPECT_THAT(stub_->GetSchema(&c, q, &r), IsOk());
      EXPECT_EQ(ReadSizing(), "");
    }
  });
  std::vector<std::thread> workers;
  for (int t = 0; t < kThreads; ++t) {
    workers.emplace_back([this, t, &failures] {
      for (int i = 0; i < kGroupsPerThread && failures[t].empty(); ++i) {
        failures[t] = Lifecycle(absl::StrCat("par-", t, "-", i));
      }
    });
  }
  for (std::thread& w : workers) w.join();
  done = true;
  reader.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;

  // Every group was created once and is gone again.
  absl::StatusOr<nlohmann::json> counters = emulator_->Control("GET", "counters");
  ASSERT_THAT(counters, IsOk());
  EXPECT_EQ((*counters)["requests"]["POST /api/serviceenginegroup"], kThreads * kGroupsPerThread);
  EXPECT_EQ((*counters)["requests"]["POST /login"], 1) << counters->dump();
  absl::StatusOr<nlohmann::json> state = emulator_->Control("GET", "state");
  ASSERT_THAT(state, IsOk());
  EXPECT_EQ(state->dump().find("par-"), std::string::npos);
}

TEST_F(ParallelRpcTest, StopWhileCreatesAreInFlightAnswersPromptly) {
  StartEmulator({"--latency-ms", "400"});
  std::vector<std::thread> workers;
  std::atomic<int> answered{0};
  for (int t = 0; t < kThreads; ++t) {
    workers.emplace_back([this, t, &answered] {
      (void)Lifecycle(absl::StrCat("stop-", t));  // may fail with a cancellation: that is fine
      ++answered;
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto stop_at = std::chrono::steady_clock::now();
  tfplugin5::Stop::Request q;
  tfplugin5::Stop::Response r;
  grpc::ClientContext c;
  ASSERT_THAT(stub_->Stop(&c, q, &r), IsOk());
  EXPECT_EQ(r.error(), "");
  for (std::thread& w : workers) w.join();
  EXPECT_EQ(answered.load(), kThreads);
  // Each worker ends within a couple of Controller round trips of Stop, not after its retries.
  EXPECT_LT(std::chrono::steady_clock::now() - stop_at, std::chrono::seconds(10));
}

}  // namespace
}  // namespace nsxalb::provider
