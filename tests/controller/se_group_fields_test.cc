// Tests for plugin/controller/se_group_fields.h.
#include "plugin/controller/se_group_fields.h"

#include <set>
#include <string>

#include "gtest/gtest.h"
#include "tests/controller/version_literal.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::controller {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::Not;

using Json = nlohmann::json;

TEST(SeGroupFieldsTest, CatalogIsSortedUniqueAndParsable) {
  const auto& all = SeGroupFields();
  ASSERT_GT(all.size(), 250u);
  for (size_t i = 0; i < all.size(); ++i) {
    if (i > 0) {
      EXPECT_LT(all[i - 1].name, all[i].name);
    }
    EXPECT_THAT(IntroducedIn::Parse(all[i].introduced), IsOk()) << all[i].name;
    EXPECT_TRUE(all[i].allowed_since.empty() || ApiVersion::Parse(all[i].allowed_since).ok())
        << all[i].name;
    if (!all[i].default_json.empty()) {
      EXPECT_FALSE(
          Json::parse(all[i].default_json.begin(), all[i].default_json.end(), nullptr, false)
              .is_discarded())
          << all[i].name;
    }
    EXPECT_EQ(FindSeGroupField(all[i].name), &all[i]);
  }
  EXPECT_EQ(FindSeGroupField("no_such_field"), nullptr);
  const SeGroupField* f = FindSeGroupField("hybrid_rss_mode");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->introduced, "21.1.3");
  EXPECT_EQ(f->kind, FieldKind::kBoolean);
  EXPECT_EQ(FindSeGroupField("memory_per_se")->unit, "MB");
}

TEST(SeGroupFieldsTest, CatalogHasTheSizingFieldsWithTheirFacts) {
  for (const char* name : {"vcpus_per_se",
                           "memory_per_se",
                           "disk_per_se",
                           "cpu_reserve",
                           "mem_reserve",
                           "dedicated_dispatcher_core",
                           "num_dispatcher_cores",
                           "max_queues_per_vnic",
                           "hybrid_rss_mode",
                           "num_dispatcher_queues",
                           "max_se",
                           "min_se",
                           "buffer_se",
                           "max_scaleout_per_vs",
                           "min_scaleout_per_vs",
                           "max_cpu_usage",
                           "min_cpu_usage",
                           "ha_mode",
                           "algo",
                           "se_deprovision_delay",
                           "se_name_prefix",
                           "description",
                           "labels",
                           "max_vs_per_se"}) {
    EXPECT_NE(FindSeGroupField(name), nullptr) << name;
  }
  EXPECT_EQ(FindSeGroupField("max_queues_per_vnic")->introduced, "18.2.7,20.1.1");
  EXPECT_EQ(FindSeGroupField("memory_per_se")->default_json, "2048");
  EXPECT_EQ(FindSeGroupField("ha_mode")->default_json, "\"HA_MODE_SHARED\"");
  EXPECT_EQ(FindSeGroupField("hybrid_rss_mode")->takes_effect, TakesEffect::kAfterSeReboot);
  const SeGroupField& cores = *FindSeGroupField("num_dispatcher_cores");
  EXPECT_TRUE(IntegerAllowed(cores, 8));
  EXPECT_FALSE(IntegerAllowed(cores, 3));
  const SeGroupField& memory = *FindSeGroupField("memory_per_se");
  EXPECT_FALSE(AllowedEnforcedIn(memory, V("22.1.3")));
  EXPECT_TRUE(AllowedEnforcedIn(memory, V("30.1.1")));
  EXPECT_TRUE(EnumAllows(*FindSeGroupField("ha_mode"), "HA_MODE_SHARED_PAIR"));
  EXPECT_FALSE(EnumAllows(*FindSeGroupField("ha_mode"), "HA_MODE_BOGUS"));
  EXPECT_TRUE(FieldIntroducedIn(*FindSeGroupField("hybrid_rss_mode")).AvailableIn(V("21.1.3")));
  EXPECT_FALSE(FieldIntroducedIn(*FindSeGroupField("hybrid_rss_mode")).AvailableIn(V("21.1.2")));
}

// The takes_effect column against the rule of scripts/gen-se-group-fields, as documented in
// docs/controller-fields.md: the vendor's 30.2.1 descriptions mark 2 fields "Changes to this
// setting do not affect existing SEs" and 38 "Requires SE Reboot" / "Requires reboot" / "will only
// take effect after SE reboot"; the overrides add disk_per_se (new SEs only, derived),
// app_learning_memory_percent ("requires SE restart") and, conservatively, the UNCONFIRMED
// dedicated_dispatcher_core and max_queues_per_vnic (after a reboot). Every other field is
// immediate.
TEST(SeGroupFieldsTest, EveryFieldKnowsWhenItTakesEffect) {
  std::set<std::string> new_ses_only;
  std::set<std::string> after_reboot;
  for (const SeGroupField& field : SeGroupFields()) {
    if (field.takes_effect == TakesEffect::kNewSesOnly) new_ses_only.emplace(field.name);
    if (field.takes_effect == TakesEffect::kAfterSeReboot) after_reboot.emplace(field.name);
  }
  EXPECT_EQ(new_ses_only, (std::set<std::string>{"disk_per_se", "memory_per_se", "vcpus_per_se"}));
  EXPECT_EQ(after_reboot.size(), 38u + 3u);
  for (const char* name :
       {"num_dispatcher_cores", "hybrid_rss_mode", "use_hyperthreaded_cores",
        "se_hyperthreaded_mode", "distribute_queues", "se_dp_isolation", "async_ssl",
        "app_cache_percent", "max_num_se_dps", "dedicated_dispatcher_core", "max_queues_per_vnic",
        "app_learning_memory_percent"}) {
    EXPECT_EQ(TakesEffectOf(name), TakesEffect::kAfterSeReboot) << name;
  }
  for (const char* name : {"max_se", "min_scaleout_per_vs", "buffer_se", "max_cpu_usage", "ha_mode",
                           "cpu_reserve", "mem_reserve", "no_such_field"}) {
    EXPECT_EQ(TakesEffectOf(name), TakesEffect::kImmediately) << name;
  }
  EXPECT_STREQ(TakesEffectName(TakesEffect::kImmediately), "immediately");
  EXPECT_STREQ(TakesEffectName(TakesEffect::kNewSesOnly), "new-ses-only");
  EXPECT_STREQ(TakesEffectName(TakesEffect::kAfterSeReboot), "after-se-reboot");
}

TEST(SeGroupFieldsTest, SpecialValuesAreAcceptedOutsideTheRange) {
  const SeGroupField& pcap = *FindSeGroupField("se_pcap_reinit_frequency");
  EXPECT_EQ(pcap.allowed, "900-43200");
  EXPECT_EQ(pcap.special, "0");
  EXPECT_TRUE(IsSpecialValue(pcap, 0));
  EXPECT_TRUE(IntegerAllowed(pcap, 0));
  EXPECT_TRUE(IntegerAllowed(pcap, 900));
  EXPECT_FALSE(IntegerAllowed(pcap, 1));
  EXPECT_FALSE(IntegerAllowed(pcap, 899));
  EXPECT_EQ(DescribeAllowed(pcap), "900-43200 SEC, or the special value 0");
  EXPECT_THAT(ValidateFieldValues(Json{{"se_pcap_reinit_frequency", 0}}), IsOk());
  absl::Status st = ValidateFieldValues(Json{{"se_pcap_reinit_frequency", 1}});
  EXPECT_THAT(st, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_EQ(st.message(),
            "controller: se_pcap_reinit_frequency is 1; allowed: 900-43200 SEC, or the special "
            "value 0");
  // A special value outside a 0-1 range; "0 = auto" below a 1-8 range.
  EXPECT_THAT(ValidateFieldValues(Json{{"metrics_collection_mode", 9}}), IsOk());
  EXPECT_THAT(ValidateFieldValues(Json{{"metrics_collection_mode", 2}}), Not(IsOk()));
  EXPECT_THAT(ValidateFieldValues(Json{{"se_dp_isolation_num_non_dp_cpus", 0}}), IsOk());
  EXPECT_THAT(ValidateFieldValues(Json{{"se_dp_isolation_num_non_dp_cpus", 9}}), Not(IsOk()));
  // Special values of a field without a range change nothing.
  EXPECT_TRUE(IntegerAllowed(*FindSeGroupField("max_concurrent_external_hm"), 7));
  EXPECT_FALSE(IsSpecialValue(*FindSeGroupField("max_cpu_usage"), 0));
  EXPECT_EQ(DescribeAllowed(*FindSeGroupField("num_dispatcher_cores")), "0,1,2,4,8,16");
  EXPECT_EQ(DescribeAllowed(*FindSeGroupField("max_concurrent_external_hm")), "");
}

TEST(SeGroupFieldsTest, VersionGateNamesFieldAndVersions) {
  Json fields = {{"vcpus_per_se", 2}, {"hybrid_rss_mode", true}};
  absl::Status st = CheckFieldsAvailable(fields, V("20.1.6"));
  ASSERT_THAT(st, StatusIs(absl::StatusCode::kFailedPrecondition));
  std::string msg(st.message());
  EXPECT_NE(msg.find("hybrid_rss_mode"), std::string::npos) << msg;
  EXPECT_NE(msg.find("21.1.3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("20.1.6"), std::string::npos) << msg;
  EXPECT_THAT(CheckFieldsAvailable(fields, V("21.1.3")), IsOk());
  EXPECT_THAT(CheckFieldsAvailable(fields, V("30.2.1")), IsOk());
  // Null means unset: not sent, so not gated.
  EXPECT_THAT(CheckFieldsAvailable(Json{{"hybrid_rss_mode", nullptr}}, V("18.2.8")), IsOk());
  // Unknown fields pass through.
  EXPECT_THAT(CheckFieldsAvailable(Json{{"future_field", 1}}, V("18.2.8")), IsOk());
}

TEST(SeGroupFieldsTest, VersionGateHonoursBackports) {
  Json fields = {{"num_dispatcher_cores", 2}};
  EXPECT_THAT(CheckFieldsAvailable(fields, V("18.1.3")), IsOk());
  EXPECT_THAT(CheckFieldsAvailable(fields, V("18.1.2")), Not(IsOk()));
  EXPECT_THAT(CheckFieldsAvailable(fields, V("17.2.12")), IsOk());
  Json queues = {{"max_queues_per_vnic", 4}};
  EXPECT_THAT(CheckFieldsAvailable(queues, V("18.2.7")), IsOk());
  EXPECT_THAT(CheckFieldsAvailable(queues, V("18.2.6")), Not(IsOk()));
  absl::Status st = CheckFieldsAvailable(queues, V("18.2.6"));
  EXPECT_NE(st.message().find("18.2.7 on the 18.2 train, or 20.1.1 and later"),
            absl::string_view::npos)
      << st;
}

TEST(SeGroupFieldsTest, ValuesAreChecked) {
  EXPECT_THAT(ValidateFieldValues(Json{{"memory_per_se", 4096},
                                       {"num_dispatcher_cores", 4},
                                       {"ha_mode", "HA_MODE_SHARED_PAIR"}}),
              IsOk());
  struct Case {
    Json fields;
    const char* field;
  } cases[] = {
      {{{"memory_per_se", 1024}}, "memory_per_se"},
      {{{"num_dispatcher_cores", 3}}, "num_dispatcher_cores"},
      {{{"max_se", 1001}}, "max_se"},
      {{{"vcpus_per_se", "2"}}, "vcpus_per_se"},
      {{{"ha_mode", "HA_MODE_BOGUS"}}, "ha_mode"},
      {{{"mem_reserve", 1}}, "mem_reserve"},
      {{{"auto_rebalance_criteria", {"SE_AUTO_REBALANCE_CPU", "NOPE"}}}, "auto_rebalance_criteria"},
  };
  for (const Case& c : cases) {
    absl::Status st = ValidateFieldValues(c.fields);
    EXPECT_THAT(st, StatusIs(absl::StatusCode::kInvalidArgument)) << c.fields.dump();
    EXPECT_NE(st.message().find(c.field), absl::string_view::npos) << st;
  }
  EXPECT_THAT(ValidateFieldValues(Json::array()), Not(IsOk()));
}

}  // namespace
}  // namespace nsxalb::controller
