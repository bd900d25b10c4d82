// Tests for the private socket directory (plugin/host/socket_dir.h).
#include "plugin/host/socket_dir.h"

#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::host {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::Not;

using ::testing::HasSubstr;
using ::testing::StartsWith;

class SocketDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char templ[] = "/tmp/nsxalb-sockdir-test-XXXXXX";
    ASSERT_NE(mkdtemp(templ), nullptr);
    parent_ = templ;
  }
  void TearDown() override { rmdir(parent_.c_str()); }
  std::string parent_;
};

TEST_F(SocketDirTest, CreatesAPrivateDirectory) {
  absl::StatusOr<SocketDir> dir = CreateSocketDir(parent_);
  ASSERT_THAT(dir, IsOk());
  EXPECT_THAT(dir->dir, StartsWith(parent_ + "/"));
  EXPECT_EQ(dir->socket_path, dir->dir + "/plugin.sock");
  struct stat st = {};
  ASSERT_EQ(stat(dir->dir.c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  RemoveSocketDir(*dir);
  EXPECT_NE(stat(dir->dir.c_str(), &st), 0);
}

TEST_F(SocketDirTest, TwoDirectoriesDiffer) {
  absl::StatusOr<SocketDir> a = CreateSocketDir(parent_);
  absl::StatusOr<SocketDir> b = CreateSocketDir(parent_ + "/");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->dir, b->dir);
  EXPECT_THAT(b->dir, StartsWith(parent_ + "/nsxalb-"));  // trailing slash not doubled
  RemoveSocketDir(*a);
  RemoveSocketDir(*b);
}

TEST_F(SocketDirTest, RelativeParentBecomesAbsolute) {
  char cwd[4096];
  ASSERT_NE(getcwd(cwd, sizeof(cwd)), nullptr);
  ASSERT_EQ(chdir(parent_.c_str()), 0);
  absl::StatusOr<SocketDir> dir = CreateSocketDir(".");
  ASSERT_EQ(chdir(cwd), 0);
  ASSERT_THAT(dir, IsOk());
  EXPECT_THAT(dir->dir, StartsWith("/"));
  EXPECT_THAT(dir->socket_path, StartsWith(parent_));
  RemoveSocketDir(*dir);
}

TEST_F(SocketDirTest, PathOverSunPathLimitIsAClearErrorAndCreatesNothing) {
  const std::string parent = parent_ + "/" + std::string(120, 'd');
  absl::StatusOr<SocketDir> dir = CreateSocketDir(parent);
  ASSERT_THAT(dir, Not(IsOk()));
  EXPECT_THAT(dir, StatusIs(absl::StatusCode::kInvalidArgument));
  EXPECT_THAT(dir.status().message(), HasSubstr("107"));
  EXPECT_THAT(dir.status().message(), HasSubstr("TMPDIR"));
  EXPECT_THAT(dir.status().message(), HasSubstr("PLUGIN_UNIX_SOCKET_DIR"));
  EXPECT_THAT(dir.status().message(), HasSubstr(parent));
}

TEST_F(SocketDirTest, ExactlyAtTheLimitIsAccepted) {
  // parent + "/nsxalb-XXXXXX/plugin.sock" is 26 bytes after the parent.
  const size_t suffix = std::string("/nsxalb-XXXXXX/plugin.sock").size();
  std::string parent = parent_ + "/";
  parent += std::string(kMaxUnixSocketPathLength - suffix - parent.size(), 'e');
  ASSERT_EQ(mkdir(parent.c_str(), 0700), 0);
  absl::StatusOr<SocketDir> dir = CreateSocketDir(parent);
  ASSERT_THAT(dir, IsOk());
  EXPECT_EQ(dir->socket_path.size(), kMaxUnixSocketPathLength);
  RemoveSocketDir(*dir);
  absl::StatusOr<SocketDir> over = CreateSocketDir(parent + "f");
  EXPECT_THAT(over, Not(IsOk()));
  rmdir(parent.c_str());
}

TEST_F(SocketDirTest, MissingParentIsUnavailable) {
  absl::StatusOr<SocketDir> dir = CreateSocketDir(parent_ + "/does-not-exist");
  ASSERT_THAT(dir, Not(IsOk()));
  EXPECT_THAT(dir, StatusIs(absl::StatusCode::kUnavailable));
  EXPECT_THAT(dir.status().message(), HasSubstr("does-not-exist"));
}

TEST_F(SocketDirTest, ListensBeforeAnyoneAccepts) {
  absl::StatusOr<SocketDir> dir = CreateSocketDir(parent_);
  ASSERT_THAT(dir, IsOk());
  absl::StatusOr<int> listener = ListenOnSocket(*dir);
  ASSERT_THAT(listener, IsOk());
  // A client connects at once (the kernel queues it); the accept comes later.
  const int client = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address = {};
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path, dir->socket_path.c_str(), dir->socket_path.size());
  EXPECT_EQ(connect(client, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  const int accepted = accept(*listener, nullptr, nullptr);
  EXPECT_GE(accepted, 0);
  close(accepted);
  close(client);
  close(*listener);
  RemoveSocketDir(*dir);
}

TEST_F(SocketDirTest, ListeningTwiceOnOnePathIsUnavailable) {
  absl::StatusOr<SocketDir> dir = CreateSocketDir(parent_);
  ASSERT_THAT(dir, IsOk());
  absl::StatusOr<int> first = ListenOnSocket(*dir);
  ASSERT_THAT(first, IsOk());
  absl::StatusOr<int> second = ListenOnSocket(*dir);
  ASSERT_THAT(second, Not(IsOk()));
  EXPECT_THAT(second, StatusIs(absl::StatusCode::kUnavailable));
  EXPECT_THAT(second.status().message(), HasSubstr(dir->socket_path));
  close(*first);
  RemoveSocketDir(*dir);
}

}  // namespace
}  // namespace nsxalb::host
