// nsxalb_se_group values from and to Controller objects: typed fields, extra_fields checks and
// their drift on the given keys only.
#include "plugin/provider/se_group_state.h"

#include <gtest/gtest.h>

#include "plugin/framework/value_util.h"
#include "plugin/provider/provider.h"
#include "plugin/provider/se_group_resource.h"
#include "tests/provider/test_values.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::provider {
namespace {

using ::nsxalb::testing::IsOk;
using ::testing::Not;

using Json = nlohmann::json;

TEST(SeGroupStateTest, FieldValueTakesMatchingKindsOnly) {
  Json body = {{"vcpus_per_se", 4},
               {"cpu_reserve", true},
               {"ha_mode", "HA_MODE_SHARED"},
               {"memory_per_se", "lots"}};
  EXPECT_TRUE(FieldValue(body, "vcpus_per_se", cty::Type::Number()).Equals(cty::Value::Int(4)));
  EXPECT_TRUE(FieldValue(body, "cpu_reserve", cty::Type::Bool()).Equals(cty::Value::Bool(true)));
  EXPECT_TRUE(FieldValue(body, "ha_mode", cty::Type::String())
                  .Equals(cty::Value::String("HA_MODE_SHARED")));
  EXPECT_TRUE(FieldValue(body, "memory_per_se", cty::Type::Number()).IsNull());
  EXPECT_TRUE(FieldValue(body, "disk_per_se", cty::Type::Number()).IsNull());
}

TEST(SeGroupStateTest, WithGroupFillsOnlyUnknownsAfterApply) {
  cty::Value planned =
      framework::EmptyObject(SeGroupBlock())
          .WithAttribute("name", cty::Value::String("web"))
          .WithAttribute("id", cty::Value::Unknown(cty::Type::String()))
          .WithAttribute("vcpus_per_se", cty::Value::Int(6))
          .WithAttribute("memory_per_se", cty::Value::Unknown(cty::Type::Number()));
  controller::SeGroup group;
  group.uuid = "serviceenginegroup-1";
  group.name = "web";
  group.url = "https://ctl/api/serviceenginegroup/serviceenginegroup-1";
  group.body = {{"vcpus_per_se", 8}, {"memory_per_se", 8192}};
  cty::Value applied = WithGroup(SeGroupBlock(), planned, group, /*only_unknown=*/true);
  EXPECT_EQ(applied.GetAttribute("id")->AsString(), "serviceenginegroup-1");
  EXPECT_TRUE(applied.GetAttribute("vcpus_per_se")->Equals(cty::Value::Int(6)));
  EXPECT_TRUE(applied.GetAttribute("memory_per_se")->Equals(cty::Value::Int(8192)));
  cty::Value refreshed = WithGroup(SeGroupBlock(), planned, group, /*only_unknown=*/false);
  EXPECT_TRUE(refreshed.GetAttribute("vcpus_per_se")->Equals(cty::Value::Int(8)));  // drift shows
}

TEST(SeGroupStateTest, TypedFieldsToSendSkipsUnknownAndRemovesDescription) {
  cty::Value planned =
      framework::EmptyObject(SeGroupBlock())
          .WithAttribute("vcpus_per_se", cty::Value::Int(2))
          .WithAttribute("memory_per_se", cty::Value::Unknown(cty::Type::Number()));
  Json fields = TypedFieldsToSend(planned);
  EXPECT_EQ(fields["vcpus_per_se"], 2);
  EXPECT_FALSE(fields.contains("memory_per_se"));
  ASSERT_TRUE(fields.contains("description"));
  EXPECT_TRUE(fields["description"].is_null());
}

TEST(SeGroupStateTest, ExtraFieldsAreCheckedAgainstTheCatalog) {
  EXPECT_THAT(segroup::ParseExtraFields(R"({"se_deprovision_delay":5})"), IsOk());
  for (const char* bad :
       {"not json", "[1]", R"({"vcpus_per_se":2})", R"({"name":"x"})", R"({"cloud_ref":"x"})",
        R"({"no_such_field":1})", R"({"max_cpu_usage":200})"}) {
    absl::StatusOr<Json> parsed = segroup::ParseExtraFields(bad);
    EXPECT_THAT(parsed, Not(IsOk())) << bad;
  }
  absl::StatusOr<Json> dup = segroup::ParseExtraFields(R"({"vcpus_per_se":2})");
  EXPECT_NE(std::string(dup.status().message()).find("vcpus_per_se"), std::string::npos);
}

TEST(SeGroupStateTest, ExtraFieldsDriftOnGivenKeysOnly) {
  const std::string given = R"({"se_deprovision_delay": 5, "mgmt_subnet": {"mask": 24}})";
  Json body = {{"se_deprovision_delay", 5.0},
               {"mgmt_subnet", {{"mask", 24}, {"ip_addr", {{"addr", "10.0.0.0"}}}}},
               {"some_other_field", 7}};
  // Same values (5 vs 5.0, extra nested keys, other fields): the user's text is kept as written.
  EXPECT_EQ(segroup::RefreshedExtraFields(given, body), given);
  body["se_deprovision_delay"] = 9;
  const Json drifted = Json::parse(segroup::RefreshedExtraFields(given, body));
  EXPECT_EQ(drifted["se_deprovision_delay"], 9);
  EXPECT_FALSE(drifted.contains("some_other_field"));
  body.erase("se_deprovision_delay");
  EXPECT_TRUE(
      Json::parse(segroup::RefreshedExtraFields(given, body))["se_deprovision_delay"].is_null());
}

// The text must be what Terraform's jsonencode() gives for the same value, or the configuration
// -generate-config-out writes (jsonencode({...}) of the state's text) plans a change. The
// expected strings are what Terraform 1.11.4 prints for jsonencode of the same HCL object.
TEST(SeGroupStateTest, ExtraFieldsTextIsJsonencodeText) {
  EXPECT_EQ(
      segroup::ExtraFieldsText(Json::parse(
          R"({"se_deprovision_delay":30,"algo":"PLACEMENT_ALGO_DISTRIBUTED","a":[1,true,null]})")),
      R"({"a":[1,true,null],"algo":"PLACEMENT_ALGO_DISTRIBUTED","se_deprovision_delay":30})");
  // Numbers in plain decimal: 30.0 is 30, small and large values without exponents.
  EXPECT_EQ(segroup::ExtraFieldsText(Json::parse(R"({"x":30.0,"y":0.5,"z":1e-7,"w":1e21})")),
            R"({"w":1000000000000000000000,"x":30,"y":0.5,"z":0.0000001})");
  EXPECT_EQ(segroup::ExtraFieldsText(Json::parse("18446744073709551615")), "18446744073709551615");
  // Go's HTML-safe escapes, and its short escapes for control characters.
  EXPECT_EQ(segroup::ExtraFieldsText(Json("a<b>&\"\\\n\t\b\f\u0001\u2028é")),
            "\"a\\u003cb\\u003e\\u0026\\\"\\\\\\n\\t\\b\\f\\u0001\\u2028é\"");
  EXPECT_EQ(segroup::ExtraFieldsText(Json::object()), "{}");
}

TEST(SeGroupStateTest, NonDefaultUntypedFieldsLeaveOutDefaultsTypedAndServerOwned) {
  const Json body = {{"uuid", "serviceenginegroup-1"},
                     {"url", "https://c/api/serviceenginegroup/serviceenginegroup-1"},
                     {"_last_modified", "1700000000000000"},
                     {"name", "web"},
                     {"cloud_ref", "https://c/api/cloud/cloud-1"},
                     {"vcpus_per_se", 4},                     // typed
                     {"se_deprovision_delay", 30},            // default 120
                     {"connection_memory_percentage", 50.0},  // the default, as a float
                     {"algo", "PLACEMENT_ALGO_DISTRIBUTED"},  // default PLACEMENT_ALGO_PACKED
                     {"vcenter_clusters", Json::object()},    // no default, empty
                     {"disable_tso", false},                  // no default, its kind's zero value
                     {"mgmt_subnet", {{"mask", 24}}},         // no default, set
                     {"app_cache_percent", 500},  // outside 0-100: a config could not say it
                     {"not_a_catalog_field", 1}};
  const Json captured = segroup::NonDefaultUntypedFields(body);
  EXPECT_EQ(captured, Json::parse(R"({"algo":"PLACEMENT_ALGO_DISTRIBUTED","mgmt_subnet":{"mask":24},
                                      "se_deprovision_delay":30})"))
      << captured.dump();
  EXPECT_THAT(segroup::ParseExtraFields(segroup::ExtraFieldsText(captured)), IsOk());
  EXPECT_EQ(segroup::CatalogDefaultText("se_deprovision_delay"), "120");
  EXPECT_EQ(segroup::CatalogDefaultText("mgmt_subnet"), "none");
}

TEST(SeGroupStateTest, CaptureMarkerIsReadOnlyFromItsOwnPrivateData) {
  EXPECT_TRUE(CapturesExtraFields(kCaptureExtraFieldsPrivate));
  for (const char* other : {"", "{}", "not json", R"({"capture_extra_fields":"yes"})"}) {
    EXPECT_FALSE(CapturesExtraFields(other)) << other;
  }
  EXPECT_TRUE(CapturedExtraFields(Json::object()).IsNull());
  EXPECT_EQ(CapturedExtraFields(Json{{"se_deprovision_delay", 30}}).AsString(),
            R"({"se_deprovision_delay":30})");
}

TEST(SeGroupStateTest, ManagedFieldsCoverEveryTypedAttribute) {
  for (const std::string& name : segroup::TypedFieldNames()) {
    EXPECT_NE(SeGroupBlock().FindAttribute(name), nullptr) << name;
    EXPECT_TRUE(segroup::IsManagedField(name)) << name;
  }
  EXPECT_FALSE(segroup::IsManagedField("se_deprovision_delay"));
}

}  // namespace
}  // namespace nsxalb::provider
