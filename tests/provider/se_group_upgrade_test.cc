// nsxalb_se_group's state from earlier schema versions (se_group_upgrade.h), directly and through
// the engine's UpgradeResourceState. The states each release really wrote are replayed end to end
// by tests/integration/upgrade_fixtures_test.cc and tests/terraform/upgrade_fixtures_test.sh.
#include "plugin/provider/se_group_upgrade.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "plugin/framework/provider_server.h"
#include "plugin/provider/provider.h"
#include "plugin/provider/se_group_resource.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::provider {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::HasSubstr;

// A version-0 state in the shape of the first 0.1.0 builds (bbd8d21): no max_cpu_usage, no
// observed_load.
constexpr char kFirstShape[] = R"({
  "id": "serviceenginegroup-1", "url": "https://c/api/serviceenginegroup/serviceenginegroup-1",
  "name": "tls", "cloud": "Default-Cloud", "tenant": "admin", "description": null,
  "platform": "vcenter", "sizing_policy": null, "vcpus_per_se": 2, "memory_per_se": 4096,
  "disk_per_se": 15, "cpu_reserve": true, "mem_reserve": true, "dedicated_dispatcher_core": false,
  "num_dispatcher_cores": 0, "max_queues_per_vnic": 1, "hybrid_rss_mode": false,
  "min_scaleout_per_vs": 2, "max_scaleout_per_vs": 4, "max_se": 10, "min_se": 1, "buffer_se": 1,
  "ha_mode": "HA_MODE_SHARED", "max_vs_per_se": 10, "se_name_prefix": "Avi",
  "extra_fields": null,
  "sizing": {"profile": "vcenter", "se_count": 2, "binding_metric": "ssl_tps_ecc",
             "utilization_pct": 150, "basis": "measured", "summary": "an earlier summary",
             "findings": ["an earlier finding"]},
  "workload": {"ssl_tps_ecc": 8000, "ssl_tps_rsa": null, "l7_rps": null, "l4_cps": null,
               "l4_open_conns": null, "l4_gbps": null, "l7_gbps": null, "l7_ssl_gbps": null,
               "target_utilization": null, "max_vcpus_per_se": null, "virtual_services": null}
})";

// The nsxalb_se_group resource's block as the provider serves it (GetSchema).
framework::Block ServedSeGroupBlock() {
  framework::ProviderServer server(std::make_shared<NsxalbProvider>());
  return server.ResourceSchema(kSeGroupResourceType)->block;
}

TEST(SeGroupUpgradeTest, VersionZeroInTheFirstShapeKeepsEveryValueAndLacksOnlyTheNewAttributes) {
  absl::StatusOr<cty::Value> upgraded = UpgradeSeGroupState(ServedSeGroupBlock(), 0, kFirstShape);
  ASSERT_THAT(upgraded, IsOk());
  EXPECT_EQ(upgraded->GetAttribute("id")->AsString(), "serviceenginegroup-1");
  EXPECT_EQ(upgraded->GetAttribute("vcpus_per_se")->AsNumber().AsDouble(), 2);
  EXPECT_TRUE(upgraded->GetAttribute("max_cpu_usage")->IsNull());
  EXPECT_TRUE(upgraded->GetAttribute("observed_load")->IsNull());
  const cty::Value* sizing = upgraded->GetAttribute("sizing");
  EXPECT_EQ(sizing->GetAttribute("summary")->AsString(), "an earlier summary");
  EXPECT_EQ(upgraded->GetAttribute("workload")->GetAttribute("ssl_tps_ecc")->AsNumber().AsDouble(),
            8000);
}

TEST(SeGroupUpgradeTest, AnAttributeVersionZeroNeverWroteIsAnErrorNamingIt) {
  EXPECT_THAT(
      UpgradeSeGroupState(ServedSeGroupBlock(), 0, R"({"id":"g-1","name":"a","retired":1})"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("\"retired\"")));
  EXPECT_THAT(UpgradeSeGroupState(ServedSeGroupBlock(), 0, R"({"id":"g-1","vcpus_per_se":"many"})"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("vcpus_per_se")));
  EXPECT_THAT(UpgradeSeGroupState(ServedSeGroupBlock(), 0, "[1]"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not a JSON object")));
  EXPECT_THAT(UpgradeSeGroupState(ServedSeGroupBlock(), 2, "{}"),
              StatusIs(absl::StatusCode::kFailedPrecondition));
}

// Version 1 (0.2.0) to 2: every value kept, service_engines null until the refresh reads it; a
// version-1 state never held service_engines.
TEST(SeGroupUpgradeTest, VersionOneGainsServiceEnginesNull) {
  absl::StatusOr<cty::Value> upgraded = UpgradeSeGroupState(
      ServedSeGroupBlock(), 1,
      R"({"id":"g-1","name":"checkout","vcpus_per_se":4,"max_num_se_dps":null})");
  ASSERT_THAT(upgraded, IsOk());
  EXPECT_EQ(upgraded->GetAttribute("vcpus_per_se")->AsNumber().AsDouble(), 4);
  EXPECT_TRUE(upgraded->GetAttribute("service_engines")->IsNull());
  absl::StatusOr<cty::Value> from_zero = UpgradeSeGroupState(ServedSeGroupBlock(), 0, kFirstShape);
  ASSERT_THAT(from_zero, IsOk());
  EXPECT_TRUE(from_zero->GetAttribute("service_engines")->IsNull());
  EXPECT_THAT(
      UpgradeSeGroupState(ServedSeGroupBlock(), 1, R"({"id":"g-1","service_engines":null})"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("service_engines")));
}

TEST(SeGroupUpgradeTest, TheEngineUpgradesVersionZeroAndRefusesANewerVersion) {
  framework::ProviderServer server(std::make_shared<NsxalbProvider>());
  ASSERT_GE(server.ResourceSchema(kSeGroupResourceType)->version, 2);
  framework::UpgradeResourceStateResult old =
      server.UpgradeResourceState(kSeGroupResourceType, 0, kFirstShape);
  ASSERT_FALSE(old.diagnostics.HasError()) << old.diagnostics.ToString();
  EXPECT_EQ(old.upgraded_state.GetAttribute("name")->AsString(), "tls");

  framework::UpgradeResourceStateResult bad =
      server.UpgradeResourceState(kSeGroupResourceType, 0, R"({"id":"g-1","retired":1})");
  ASSERT_TRUE(bad.diagnostics.HasError());
  EXPECT_THAT(bad.diagnostics.ToString(), HasSubstr("terraform import"));

  framework::UpgradeResourceStateResult newer =
      server.UpgradeResourceState(kSeGroupResourceType, 99, kFirstShape);
  ASSERT_TRUE(newer.diagnostics.HasError());
  EXPECT_THAT(newer.diagnostics.ToString(), HasSubstr("newer provider version"));
}

}  // namespace
}  // namespace nsxalb::provider
