// Temporary files of a gtest case that no other test process shares: CTest runs each case in a
// process of its own, two or more at a time, all with the same ::testing::TempDir().
#ifndef NSXALB_TESTS_SUPPORT_TEMP_FILE_H_
#define NSXALB_TESTS_SUPPORT_TEMP_FILE_H_

#include <string>

#include "absl/strings/string_view.h"

namespace nsxalb::testing {

// ::testing::TempDir()/<running test's name>-<pid>-<name>. Whatever is at that path is removed
// when the test process exits.
std::string TestTempPath(absl::string_view name);

// Writes `text` to TestTempPath(name), replacing the file; returns the path.
std::string WriteTestTempFile(absl::string_view name, absl::string_view text);

}  // namespace nsxalb::testing

#endif  // NSXALB_TESTS_SUPPORT_TEMP_FILE_H_
