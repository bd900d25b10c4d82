// The field catalog against the facts transcribed from the vendor's text
// (vendor_se_group_facts.h): every range, special value, "introduced in" and default of the
// fields the provider types and of every field with allowed or special values. Changing any of
// them in the catalog fails here. Also: the vendor's defaults pass the client's pre-send check.
#include <set>
#include <string>
#include <string_view>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "plugin/controller/se_group_fields.h"
#include "tests/controller/vendor_se_group_facts.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::controller {
namespace {

using ::nsxalb::testing::IsOk;

using Json = nlohmann::json;
using ::nsxalb::testing::ProviderTypedFields;
using ::nsxalb::testing::VendorFieldFacts;
using ::nsxalb::testing::VendorSeGroupFacts;
using ::testing::HasSubstr;

const VendorFieldFacts* FindFacts(std::string_view name) {
  for (const VendorFieldFacts& f : VendorSeGroupFacts()) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

TEST(SeGroupFieldsVendorTest, FactsAreSortedAndUnique) {
  const auto& facts = VendorSeGroupFacts();
  for (size_t i = 1; i < facts.size(); ++i) {
    EXPECT_LT(std::string(facts[i - 1].name), std::string(facts[i].name));
  }
}

TEST(SeGroupFieldsVendorTest, CatalogAgreesWithTheVendorsText) {
  for (const VendorFieldFacts& facts : VendorSeGroupFacts()) {
    SCOPED_TRACE(facts.name);
    const SeGroupField* field = FindSeGroupField(facts.name);
    ASSERT_NE(field, nullptr) << "not in the catalog";
    EXPECT_EQ(field->introduced, std::string_view(facts.introduced)) << "introduced in";
    EXPECT_EQ(field->allowed, std::string_view(facts.allowed)) << "allowed values";
    EXPECT_EQ(field->special, std::string_view(facts.special)) << "special values";
    EXPECT_EQ(field->default_json, std::string_view(facts.default_json)) << "default";
    // A value a real client sends when the swagger has none: the catalog has no default then.
    if (*facts.client_default_json != '\0') {
      EXPECT_EQ(field->default_json, "") << "both a swagger and a client default";
    }
  }
}

TEST(SeGroupFieldsVendorTest, FactsCoverTheTypedFieldsAndEveryConstrainedField) {
  for (const char* name : ProviderTypedFields()) {
    EXPECT_NE(FindFacts(name), nullptr) << name << " is typed by the provider but has no facts";
  }
  for (const SeGroupField& f : SeGroupFields()) {
    if (f.allowed.empty() && f.special.empty()) continue;
    EXPECT_NE(FindFacts(f.name), nullptr)
        << f.name << " has allowed or special values in the catalog but no vendor facts";
  }
  // Fields of the vendor's 30.2 model that the 30.2.1 swagger behind the catalog lacks (so the
  // client and the emulator pass them through unchecked). A catalog regenerated from a newer
  // swagger fails here: transcribe their facts, then drop them from this list.
  for (const char* absent : {"max_num_http_sessions_to_store", "se_debug_trace_sz"}) {
    EXPECT_EQ(FindSeGroupField(absent), nullptr) << absent;
  }
}

TEST(SeGroupFieldsVendorTest, EverySpecialValueOfTheVendorsModel) {
  // The fields whose model text says "Special values are ..." (20.1: the first five; later
  // versions add ntp_sync_status_interval, se_dp_isolation_num_non_dp_cpus and
  // metrics_collection_mode).
  std::set<std::string> with_special;
  for (const SeGroupField& f : SeGroupFields()) {
    if (!f.special.empty()) with_special.insert(std::string(f.name));
  }
  EXPECT_EQ(with_special, (std::set<std::string>{
                              "app_cache_percent", "app_cache_threshold",
                              "max_concurrent_external_hm", "metrics_collection_mode",
                              "ntp_sync_status_interval", "se_dp_isolation_num_non_dp_cpus",
                              "se_pcap_reinit_frequency", "se_vnic_tx_sw_queue_flush_frequency"}));
}

// The vendor's default for every catalog field that has one, and what a real Avi client sends
// for the rest of the fields it defaults.
Json VendorDefaults() {
  Json body = Json::object();
  for (const SeGroupField& f : SeGroupFields()) {
    if (f.default_json.empty()) continue;
    body[std::string(f.name)] = Json::parse(f.default_json.begin(), f.default_json.end());
  }
  for (const VendorFieldFacts& f : VendorSeGroupFacts()) {
    if (*f.client_default_json != '\0') body[f.name] = Json::parse(f.client_default_json);
  }
  return body;
}

TEST(SeGroupFieldsVendorTest, TheVendorsDefaultsPassThePreSendCheck) {
  const Json body = VendorDefaults();
  EXPECT_GT(body.size(), 150u);
  EXPECT_EQ(body["se_pcap_reinit_frequency"], 0);
  absl::Status st = ValidateFieldValues(body);
  EXPECT_THAT(st, IsOk());
  // And field by field, so a failure names every field at once.
  for (auto it = body.begin(); it != body.end(); ++it) {
    absl::Status one = ValidateFieldValues(Json{{it.key(), it.value()}});
    EXPECT_THAT(one, IsOk());
  }
}

}  // namespace
}  // namespace nsxalb::controller
