// README.md ("How sizing works") documents every rule the model names, and the seed tables.
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "plugin/sizing/figure.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/profiles.h"
#include "plugin/sizing/rules.h"

namespace nsxalb::sizing {
namespace {

std::string ReadDocs() {
  std::ifstream in(std::string(NSXALB_SOURCE_DIR) + "/README.md");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(DocsTest, EveryRuleNameIsDocumented) {
  const std::string docs = ReadDocs();
  ASSERT_FALSE(docs.empty()) << "README.md is missing";
  for (const rules::RuleDoc& rule : rules::AllRules()) {
    EXPECT_NE(docs.find(std::string("`") + rule.name + "`"), std::string::npos) << rule.name;
  }
}

TEST(DocsTest, EveryBasisIsDocumented) {
  const std::string docs = ReadDocs();
  for (Basis b : {Basis::kMeasured, Basis::kInterpolated, Basis::kExtrapolated,
                  Basis::kCrossProfile, Basis::kRule}) {
    EXPECT_NE(docs.find(std::string("`") + BasisName(b) + "`"), std::string::npos) << BasisName(b);
  }
}

TEST(DocsTest, SeedTablesInTheDocsMatchTheEmbeddedData) {
  const std::string docs = ReadDocs();
  for (Platform p : kAllPlatforms) {
    const Profile& profile = ProfileOf(p);
    for (Metric m : kAllMetrics) {
      // The docs table row: "| <seed row> | v1 | v2 | v4 | v6 |".
      std::string row = std::string("| ") + InfoOf(m).seed_row + " |";
      for (const MeasuredSize& s : profile.sizes) {
        const auto& v = s.values[static_cast<int>(m)];
        row += " " +
               (v ? FormatValue(m, static_cast<double>(*v), Rounding::kDown)
                  : std::string("not published")) +
               " |";
      }
      EXPECT_NE(docs.find(row), std::string::npos) << profile.name << ": " << row;
    }
  }
}

}  // namespace
}  // namespace nsxalb::sizing
