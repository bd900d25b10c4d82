// Basis and severity names, and the weakest-basis order docs/sizing.md documents.
#include "plugin/sizing/figure.h"

#include "gtest/gtest.h"

namespace nsxalb::sizing {
namespace {

TEST(FigureTest, WeakestBasisFollowsTheReadmeOrder) {
  EXPECT_EQ(WeakestBasis({}), Basis::kMeasured);
  EXPECT_EQ(WeakestBasis({Basis::kMeasured}), Basis::kMeasured);
  EXPECT_EQ(WeakestBasis({Basis::kMeasured, Basis::kRule}), Basis::kRule);
  EXPECT_EQ(WeakestBasis({Basis::kInterpolated, Basis::kRule, Basis::kMeasured}),
            Basis::kInterpolated);
  EXPECT_EQ(WeakestBasis({Basis::kExtrapolated, Basis::kInterpolated}), Basis::kExtrapolated);
  EXPECT_EQ(WeakestBasis({Basis::kCrossProfile, Basis::kExtrapolated, Basis::kRule}),
            Basis::kCrossProfile);
  // An observed figure is this group's own: any table figure it is combined with is weaker.
  EXPECT_EQ(WeakestBasis({Basis::kObserved}), Basis::kObserved);
  EXPECT_EQ(WeakestBasis({Basis::kObserved, Basis::kMeasured}), Basis::kMeasured);
  EXPECT_EQ(WeakestBasis({Basis::kRule, Basis::kObserved}), Basis::kRule);
}

TEST(FigureTest, Names) {
  EXPECT_STREQ(BasisName(Basis::kCrossProfile), "cross-profile");
  EXPECT_STREQ(BasisName(Basis::kObserved), "observed");
  EXPECT_STREQ(SeverityName(Severity::kWarning), "warning");
}

}  // namespace
}  // namespace nsxalb::sizing
