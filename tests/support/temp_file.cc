// Temporary files named by test and process (temp_file.h).
#include "tests/support/temp_file.h"

#include <unistd.h>

#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace nsxalb::testing {

std::string TestTempPath(absl::string_view name) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return absl::StrCat(::testing::TempDir(), "/", test != nullptr ? test->name() : "none", "-",
                      getpid(), "-", name);
}

std::string WriteTestTempFile(absl::string_view name, absl::string_view text) {
  std::string path = TestTempPath(name);
  std::ofstream(path, std::ios::trunc) << text;
  return path;
}

}  // namespace nsxalb::testing
