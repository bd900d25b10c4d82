// Tests for the stderr logger: level parsing, the threshold, and the go-plugin line format.
#include "plugin/common/log.h"

#include <string>

#include "gtest/gtest.h"

namespace nsxalb::log {
namespace {

TEST(LogLevelTest, ParsesTerraformLevelNames) {
  EXPECT_EQ(ParseLevel("debug"), Level::kDebug);
  EXPECT_EQ(ParseLevel("INFO"), Level::kInfo);
  EXPECT_EQ(ParseLevel("Warn"), Level::kWarn);
  EXPECT_EQ(ParseLevel("error"), Level::kError);
  EXPECT_EQ(ParseLevel("off"), Level::kOff);
  EXPECT_EQ(ParseLevel("TRACE"), Level::kTrace);
  // Terraform treats unknown non-empty values (including "JSON") as TRACE.
  EXPECT_EQ(ParseLevel("json"), Level::kTrace);
  EXPECT_EQ(ParseLevel("loud"), Level::kTrace);
}

TEST(LogWriteTest, WritesTaggedLinesAtOrAboveThreshold) {
  SetThreshold(Level::kInfo);
  testing::internal::CaptureStderr();
  Debug("hidden");
  Info("shown info");
  Error("shown error");
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err, "[INFO] shown info\n[ERROR] shown error\n");
}

TEST(LogWriteTest, OffSilencesEverything) {
  SetThreshold(Level::kOff);
  testing::internal::CaptureStderr();
  Error("nothing");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

}  // namespace
}  // namespace nsxalb::log
