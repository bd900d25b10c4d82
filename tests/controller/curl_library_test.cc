// Tests for curl_library.h: the libcurl table loads from Debian's libcurl4 and works, and a
// library that is missing or lacks libcurl's functions gives the clear error, not a crash.
#include "plugin/controller/curl_library.h"

#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::controller {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::Not;

using ::testing::HasSubstr;

TEST(CurlLibraryTest, LoadsEveryFunctionFromLibcurl4) {
  auto lib = LoadCurlLibrary(kCurlLibraryName);
  ASSERT_THAT(lib, IsOk());
  EXPECT_NE(lib->global_init, nullptr);
  EXPECT_NE(lib->easy_init, nullptr);
  EXPECT_NE(lib->easy_cleanup, nullptr);
  EXPECT_NE(lib->easy_reset, nullptr);
  EXPECT_NE(lib->easy_setopt, nullptr);
  EXPECT_NE(lib->easy_perform, nullptr);
  EXPECT_NE(lib->easy_getinfo, nullptr);
  EXPECT_NE(lib->easy_strerror, nullptr);
  EXPECT_NE(lib->share_init, nullptr);
  EXPECT_NE(lib->share_setopt, nullptr);
  EXPECT_NE(lib->share_cleanup, nullptr);
  EXPECT_NE(lib->slist_append, nullptr);
  EXPECT_NE(lib->slist_free_all, nullptr);
}

TEST(CurlLibraryTest, ProcessTableIsLoadedOnceAndCallable) {
  auto first = LoadCurl();
  ASSERT_THAT(first, IsOk());
  auto second = LoadCurl();
  ASSERT_THAT(second, IsOk());
  EXPECT_EQ(*first, *second);
  const CurlLibrary& curl = **first;

  // The variadic functions go through their pointers with libcurl's own argument types.
  CURL* easy = curl.easy_init();
  ASSERT_NE(easy, nullptr);
  EXPECT_EQ(curl.easy_setopt(easy, CURLOPT_URL, "https://127.0.0.1:1/"), CURLE_OK);
  EXPECT_EQ(curl.easy_setopt(easy, CURLOPT_TIMEOUT_MS, 1000L), CURLE_OK);
  long status = -1;
  EXPECT_EQ(curl.easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status), CURLE_OK);
  EXPECT_EQ(status, 0);  // no transfer yet
  curl.easy_reset(easy);
  curl.easy_cleanup(easy);

  CURLSH* share = curl.share_init();
  ASSERT_NE(share, nullptr);
  EXPECT_EQ(curl.share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS), CURLSHE_OK);
  EXPECT_EQ(curl.share_cleanup(share), CURLSHE_OK);

  curl_slist* list = curl.slist_append(nullptr, "Accept: application/json");
  ASSERT_NE(list, nullptr);
  EXPECT_STREQ(list->data, "Accept: application/json");
  curl.slist_free_all(list);

  EXPECT_STREQ(curl.easy_strerror(CURLE_OK), "No error");
}

TEST(CurlLibraryTest, MissingLibraryIsAClearError) {
  auto lib = LoadCurlLibrary("libnsxalb-no-such-curl.so.4");
  ASSERT_THAT(lib, Not(IsOk()));
  EXPECT_THAT(lib, StatusIs(absl::StatusCode::kFailedPrecondition));
  EXPECT_THAT(lib.status().message(),
              HasSubstr("libnsxalb-no-such-curl.so.4 could not be loaded ("));
  EXPECT_THAT(lib.status().message(), HasSubstr("install Debian's libcurl4 package"));
}

TEST(CurlLibraryTest, LibraryWithoutCurlFunctionsIsAClearError) {
  // libm exists on every glibc system but has none of libcurl's functions.
  auto lib = LoadCurlLibrary("libm.so.6");
  ASSERT_THAT(lib, Not(IsOk()));
  EXPECT_THAT(lib, StatusIs(absl::StatusCode::kFailedPrecondition));
  EXPECT_THAT(lib.status().message(), HasSubstr("libm.so.6 could not be loaded ("));
  EXPECT_THAT(lib.status().message(), HasSubstr("no function curl_global_init"));
  EXPECT_THAT(lib.status().message(), HasSubstr("install Debian's libcurl4 package"));
}

}  // namespace
}  // namespace nsxalb::controller
