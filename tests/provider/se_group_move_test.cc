// avi_serviceenginegroup state (both vmware/avi release lines) -> nsxalb_se_group state, and the
// errors for sources the resource does not take.
#include "plugin/provider/se_group_move.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "plugin/framework/provider_server.h"
#include "plugin/provider/provider.h"
#include "plugin/provider/se_group_resource.h"
#include "tests/provider/test_values.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::provider {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::Not;

using ::testing::HasSubstr;

// Trimmed from docs' reference state (../shared/reference/avi-provider-state.md), 20.1.x line.
constexpr char kNativeLine[] = R"({
  "id": "https://controller.example/api/serviceenginegroup/serviceenginegroup-f5c5afd7-e9a6-443c-a783-edb9b25c3b2d",
  "uuid": "serviceenginegroup-f5c5afd7-e9a6-443c-a783-edb9b25c3b2d",
  "name": "web",
  "cloud_ref": "https://controller.example/api/cloud/cloud-bcf9716e-582a-4822-9e27-3349054f05ba",
  "tenant_ref": "https://controller.example/api/tenant/admin",
  "vcpus_per_se": 6, "memory_per_se": 12288, "disk_per_se": 29, "max_se": 2, "buffer_se": 1,
  "cpu_reserve": false, "mem_reserve": true, "dedicated_dispatcher_core": false,
  "ha_mode": "HA_MODE_SHARED", "max_vs_per_se": 10, "se_name_prefix": "Avi",
  "algo": "PLACEMENT_ALGO_PACKED", "vcenter_clusters": []
})";

// The same group as the current line stores it: every scalar a string, "" for unset.
constexpr char kStringLine[] = R"({
  "id": "https://controller.example/api/serviceenginegroup/serviceenginegroup-f5c5afd7-e9a6-443c-a783-edb9b25c3b2d",
  "uuid": "serviceenginegroup-f5c5afd7-e9a6-443c-a783-edb9b25c3b2d",
  "name": "web",
  "cloud_ref": "https://controller.example/api/cloud/cloud-bcf9716e-582a-4822-9e27-3349054f05ba",
  "tenant_ref": "https://controller.example/api/tenant/admin",
  "vcpus_per_se": "6", "memory_per_se": "12288", "disk_per_se": "29", "max_se": "2",
  "buffer_se": "1", "cpu_reserve": "false", "mem_reserve": "true",
  "dedicated_dispatcher_core": "false", "ha_mode": "HA_MODE_SHARED", "max_vs_per_se": "10",
  "se_name_prefix": "Avi", "description": "", "num_dispatcher_cores": ""
})";

cty::Value Moved(const char* json) {
  absl::StatusOr<cty::Value> v = StateFromAviSeGroup(SeGroupBlock(), 0, json);
  EXPECT_THAT(v, IsOk());
  return v.ok() ? *v : cty::Value();
}

TEST(SeGroupMoveTest, BothReleaseLinesGiveTheSameState) {
  const cty::Value native = Moved(kNativeLine);
  const cty::Value strings = Moved(kStringLine);
  EXPECT_TRUE(native.Equals(strings)) << native.DebugString() << "\n" << strings.DebugString();
  EXPECT_EQ(native.GetAttribute("id")->AsString(),
            "serviceenginegroup-f5c5afd7-e9a6-443c-a783-edb9b25c3b2d");
  EXPECT_EQ(native.GetAttribute("url")->AsString(),
            "https://controller.example/api/serviceenginegroup/"
            "serviceenginegroup-f5c5afd7-e9a6-443c-a783-edb9b25c3b2d");
  EXPECT_EQ(native.GetAttribute("name")->AsString(), "web");
  EXPECT_EQ(native.GetAttribute("vcpus_per_se")->AsNumber().AsDouble(), 6);
  EXPECT_EQ(native.GetAttribute("memory_per_se")->AsNumber().AsDouble(), 12288);
  EXPECT_FALSE(native.GetAttribute("cpu_reserve")->AsBool());
  EXPECT_TRUE(native.GetAttribute("mem_reserve")->AsBool());
  EXPECT_EQ(native.GetAttribute("ha_mode")->AsString(), "HA_MODE_SHARED");
  // Left to the refresh that follows the move.
  for (const char* name : {"cloud", "tenant", "platform", "sizing", "num_dispatcher_cores"}) {
    EXPECT_TRUE(native.GetAttribute(name)->IsNull()) << name;
  }
  EXPECT_TRUE(native.IsWhollyKnown());
}

// Untyped scalars that differ from the catalog's defaults go to extra_fields, from either line;
// defaults, typed fields and nested blocks do not (the refresh records nested ones).
TEST(SeGroupMoveTest, NonDefaultUntypedScalarsGoToExtraFields) {
  EXPECT_TRUE(Moved(kNativeLine).GetAttribute("extra_fields")->IsNull());  // all defaults
  const cty::Value native = Moved(R"({"uuid":"u","name":"a","vcpus_per_se":6,
      "se_deprovision_delay":30,"connection_memory_percentage":70,"app_cache_percent":10,
      "algo":"PLACEMENT_ALGO_DISTRIBUTED","disable_gro":true,"disable_tso":false,
      "realtime_se_metrics":[{"enabled":true}]})");
  const cty::Value strings = Moved(R"({"uuid":"u","name":"a","vcpus_per_se":"6",
      "se_deprovision_delay":"30","connection_memory_percentage":"70","app_cache_percent":"10",
      "algo":"PLACEMENT_ALGO_DISTRIBUTED","disable_gro":"true","disable_tso":"false",
      "realtime_se_metrics":[]})");
  const std::string want =
      R"({"algo":"PLACEMENT_ALGO_DISTRIBUTED","connection_memory_percentage":70,)"
      R"("disable_gro":true,"se_deprovision_delay":30})";
  EXPECT_EQ(native.GetAttribute("extra_fields")->AsString(), want);
  EXPECT_EQ(strings.GetAttribute("extra_fields")->AsString(), want);
}

TEST(SeGroupMoveTest, UuidFromTheIdUrlWhenUuidIsMissing) {
  const cty::Value v =
      Moved(R"({"id":"https://c/api/serviceenginegroup/serviceenginegroup-1","name":"a"})");
  EXPECT_EQ(v.GetAttribute("id")->AsString(), "serviceenginegroup-1");
}

TEST(SeGroupMoveTest, UnreadableStatesNameTheAttribute) {
  absl::StatusOr<cty::Value> no_id = StateFromAviSeGroup(SeGroupBlock(), 0, R"({"name":"a"})");
  ASSERT_THAT(no_id, Not(IsOk()));
  EXPECT_THAT(no_id.status().message(), HasSubstr("neither uuid nor id"));

  absl::StatusOr<cty::Value> bad =
      StateFromAviSeGroup(SeGroupBlock(), 0, R"({"uuid":"u","vcpus_per_se":"six"})");
  ASSERT_THAT(bad, Not(IsOk()));
  EXPECT_THAT(bad.status().message(), HasSubstr("\"vcpus_per_se\" holds \"six\""));

  absl::StatusOr<cty::Value> flag =
      StateFromAviSeGroup(SeGroupBlock(), 0, R"({"uuid":"u","cpu_reserve":"maybe"})");
  ASSERT_THAT(flag, Not(IsOk()));
  EXPECT_THAT(flag.status().message(), HasSubstr("cpu_reserve"));

  absl::StatusOr<cty::Value> ref = StateFromAviSeGroup(
      SeGroupBlock(), 0, R"({"uuid":"u","cloud_ref":"https://c/api/tenant/admin"})");
  ASSERT_THAT(ref, Not(IsOk()));
  EXPECT_THAT(ref.status().message(), HasSubstr("cloud_ref"));

  absl::StatusOr<cty::Value> version = StateFromAviSeGroup(SeGroupBlock(), 1, kNativeLine);
  ASSERT_THAT(version, Not(IsOk()));
  EXPECT_THAT(version, StatusIs(absl::StatusCode::kFailedPrecondition));

  EXPECT_THAT(StateFromAviSeGroup(SeGroupBlock(), 0, "[1]"), Not(IsOk()));
}

framework::MoveStateRequest Request(const std::string& address, const std::string& type,
                                    const std::string& json) {
  framework::MoveStateRequest q;
  q.source_provider_address = address;
  q.source_type_name = type;
  q.source_state_json = json;
  return q;
}

TEST(SeGroupMoveTest, TheEngineMovesFromAviAndRefusesOtherSources) {
  framework::ProviderServer server(NewProvider());
  framework::MoveResourceStateResult avi = server.MoveResourceState(
      Request(kAviProviderAddress, kAviSeGroupType, kStringLine), "nsxalb_se_group");
  ASSERT_FALSE(avi.diagnostics.HasError()) << avi.diagnostics.ToString();
  EXPECT_EQ(avi.target_state.GetAttribute("vcpus_per_se")->AsNumber().AsDouble(), 6);

  framework::MoveResourceStateResult other = server.MoveResourceState(
      Request("registry.terraform.io/hashicorp/aws", "aws_instance", "{}"), "nsxalb_se_group");
  ASSERT_TRUE(other.diagnostics.HasError());
  EXPECT_THAT(other.diagnostics.ToString(), HasSubstr("avi_serviceenginegroup of "
                                                      "registry.terraform.io/vmware/avi"));
  EXPECT_THAT(other.diagnostics.ToString(), HasSubstr("aws_instance"));

  // nsxalb_se_group itself: the UpgradeResourceState path, from version 0 (0.1.0) through the
  // resource's upgrade, and at the current version by the engine (attributes no longer in the
  // schema dropped).
  framework::MoveResourceStateResult own =
      server.MoveResourceState(Request("registry.terraform.io/nsxalb/nsxalb", "nsxalb_se_group",
                                       R"({"id":"serviceenginegroup-1","name":"a"})"),
                               "nsxalb_se_group");
  ASSERT_FALSE(own.diagnostics.HasError()) << own.diagnostics.ToString();
  EXPECT_EQ(own.target_state.GetAttribute("id")->AsString(), "serviceenginegroup-1");
  framework::MoveStateRequest current =
      Request("registry.terraform.io/nsxalb/nsxalb", "nsxalb_se_group",
              R"({"id":"serviceenginegroup-1","retired":1})");
  current.source_schema_version = server.ResourceSchema("nsxalb_se_group")->version;
  framework::MoveResourceStateResult own_current =
      server.MoveResourceState(current, "nsxalb_se_group");
  ASSERT_FALSE(own_current.diagnostics.HasError()) << own_current.diagnostics.ToString();
  EXPECT_EQ(own_current.target_state.GetAttribute("id")->AsString(), "serviceenginegroup-1");

  framework::MoveResourceStateResult broken = server.MoveResourceState(
      Request(kAviProviderAddress, kAviSeGroupType, R"({"name":"a"})"), "nsxalb_se_group");
  ASSERT_TRUE(broken.diagnostics.HasError());
  EXPECT_THAT(broken.diagnostics.ToString(), HasSubstr("neither uuid nor id"));
}

}  // namespace
}  // namespace nsxalb::provider
