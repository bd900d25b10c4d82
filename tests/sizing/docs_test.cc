// docs/sizing.md documents every rule the model names, every basis, and the seed tables exactly as
// embedded; the README names the data by what it is and links there.
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

std::string ReadFile(const std::string& relative) {
  std::ifstream in(std::string(NSXALB_SOURCE_DIR) + "/" + relative);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string ReadDocs() { return ReadFile("docs/sizing.md"); }

TEST(DocsTest, TheReadmeNamesTheDataAndLinksTheSizingDocs) {
  std::string readme = ReadFile("README.md");
  ASSERT_FALSE(readme.empty()) << "README.md is missing";
  for (char& c : readme) c = c == '\n' ? ' ' : c;  // however the paragraph is wrapped
  EXPECT_NE(readme.find("NSX Advanced Load Balancer performance and sizing tables for vCenter "
                        "clouds (Avi 20.1.6) and NSX-T clouds (Avi 22.1.3)"),
            std::string::npos);
  EXPECT_NE(readme.find("(docs/sizing.md)"), std::string::npos);
}

TEST(DocsTest, EveryRuleNameIsDocumented) {
  const std::string docs = ReadDocs();
  ASSERT_FALSE(docs.empty()) << "docs/sizing.md is missing";
  for (const rules::RuleDoc& rule : rules::AllRules()) {
    EXPECT_NE(docs.find(std::string("`") + rule.name + "`"), std::string::npos) << rule.name;
  }
}

TEST(DocsTest, EveryBasisIsDocumented) {
  const std::string docs = ReadDocs();
  for (Basis b : {Basis::kMeasured, Basis::kInterpolated, Basis::kExtrapolated,
                  Basis::kCrossProfile, Basis::kRule, Basis::kObserved}) {
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
