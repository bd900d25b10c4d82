// Temporary files named by test and process (temp_file.h).
#include "tests/support/temp_file.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace nsxalb::testing {
namespace {

// The paths TestTempPath handed out, removed when the test process exits, so that runs of the
// suite do not pile files up in ::testing::TempDir().
class TempPathsRemovedAtExit {
 public:
  TempPathsRemovedAtExit() = default;
  TempPathsRemovedAtExit(const TempPathsRemovedAtExit&) = delete;
  TempPathsRemovedAtExit& operator=(const TempPathsRemovedAtExit&) = delete;
  ~TempPathsRemovedAtExit() {
    for (const std::string& path : paths_) std::remove(path.c_str());
  }

  void Add(const std::string& path) { paths_.push_back(path); }

 private:
  std::vector<std::string> paths_;
};

TempPathsRemovedAtExit& TempPaths() {
  static TempPathsRemovedAtExit paths;
  return paths;
}

}  // namespace

std::string TestTempPath(absl::string_view name) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string path = absl::StrCat(
      ::testing::TempDir(), "/", test != nullptr ? test->name() : "none", "-", getpid(), "-", name);
  TempPaths().Add(path);
  return path;
}

std::string WriteTestTempFile(absl::string_view name, absl::string_view text) {
  std::string path = TestTempPath(name);
  std::ofstream(path, std::ios::trunc) << text;
  return path;
}

}  // namespace nsxalb::testing
