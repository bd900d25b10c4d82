// The Controller client's limits (plugin/common/limits.h), each at the limit: the default number
// of retries and the total time of one operation against the emulator; how far one listing reads
// (objects and pages) and the largest response read against a minimal fake Controller
// (fake_controller.h), which serves thousands of objects or pages, or 64 MiB, in well under a
// second.
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "plugin/common/build_info.h"
#include "plugin/common/limits.h"
#include "plugin/controller/client.h"
#include "plugin/controller/curl_transport.h"
#include "tests/controller/fake_clock.h"
#include "tests/controller/fake_controller.h"
#include "tests/support/emulator_process.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::controller {
namespace {

using ::nsxalb::testing::IsOk;
using ::nsxalb::testing::StatusIs;
using ::testing::Not;

using ::nsxalb::testing::EmulatorProcess;
using ::testing::HasSubstr;
using Json = nlohmann::json;

class ClientLimitsTest : public ::testing::Test {
 protected:
  void StartEmulator() { Start({}); }

  void Start(std::vector<std::string> args) {
    EmulatorProcess::Options options;
    options.extra_args = std::move(args);
    auto emulator = EmulatorProcess::Start(options);
    ASSERT_THAT(emulator, IsOk());
    emulator_ = *std::move(emulator);
  }

  ClientConfig Config() const {
    ClientConfig c;
    c.controller = emulator_->url();
    c.username = "admin";
    c.password = "admin";
    c.ca_file = emulator_->ca_file();
    return c;
  }

  std::unique_ptr<Client> NewClientOrDie(const ClientConfig& config, ClientHooks hooks = {}) {
    auto client = NewClient(config, std::move(hooks));
    EXPECT_THAT(client, IsOk());
    return client.ok() ? *std::move(client) : nullptr;
  }

  int Count(const std::string& key) {
    auto counters = emulator_->Control("GET", "counters");
    EXPECT_THAT(counters, IsOk());
    return counters.ok() ? (*counters)["requests"].value(key, 0) : -1;
  }

  void Fault(const Json& faults) {
    auto r = emulator_->Control("POST", "faults", faults);
    ASSERT_THAT(r, IsOk());
  }

  std::unique_ptr<EmulatorProcess> emulator_;
};

TEST_F(ClientLimitsTest, DefaultRetriesAtTheLimit) {
  StartEmulator();
  FakeClock clock;
  const ClientConfig config = Config();  // the default max_retries
  auto client = NewClientOrDie(config, {&clock, [] { return 0.0; }});
  ASSERT_THAT(client->ControllerVersion(), IsOk());

  // The last retry allowed succeeds.
  Fault({{"fail_next", limits::kDefaultMaxRetries}, {"fail_status", 503}});
  auto listed = client->ListSeGroups("", "");
  ASSERT_THAT(listed, IsOk());
  EXPECT_EQ(Count("GET /api/serviceenginegroup"), limits::kDefaultMaxRetries + 1);

  // One failure more and the call gives up.
  Fault({{"fail_next", limits::kDefaultMaxRetries + 1}, {"fail_status", 503}});
  auto failed = client->ListSeGroups("", "");
  ASSERT_THAT(failed, Not(IsOk()));
  EXPECT_THAT(failed, StatusIs(absl::StatusCode::kUnavailable));
  EXPECT_THAT(
      std::string(failed.status().message()),
      HasSubstr(absl::StrCat("gave up after ", limits::kDefaultMaxRetries + 1, " attempts")));
  EXPECT_EQ(Count("GET /api/serviceenginegroup"), 2 * (limits::kDefaultMaxRetries + 1));
}

TEST_F(ClientLimitsTest, TotalTimeAtTheLimit) {
  StartEmulator();
  FakeClock clock;
  ClientConfig config = Config();  // the default total_timeout and backoff
  config.max_retries = limits::kMaxRetries;
  auto client = NewClientOrDie(config, {&clock, [] { return 0.999; }});
  ASSERT_THAT(client->ControllerVersion(), IsOk());
  Fault({{"fail_next", 100000}, {"fail_status", 503}});
  auto failed = client->ListSeGroups("", "");
  ASSERT_THAT(failed, Not(IsOk()));
  EXPECT_THAT(failed, StatusIs(absl::StatusCode::kDeadlineExceeded));
  EXPECT_THAT(std::string(failed.status().message()), HasSubstr("total_timeout 5m"));
  absl::Duration slept;
  for (absl::Duration d : clock.sleeps()) slept += d;
  // Every retry the budget allowed was made, and none past it.
  EXPECT_LE(slept, absl::Seconds(limits::kDefaultTotalTimeoutSeconds));
  EXPECT_GT(slept + config.backoff_max, absl::Seconds(limits::kDefaultTotalTimeoutSeconds));
}

class ListingLimitsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto fake = FakeController::Start();
    ASSERT_THAT(fake, IsOk());
    fake_ = *std::move(fake);
  }

  std::unique_ptr<Client> NewClientForFake(int page_size) {
    ClientConfig c;
    c.controller = fake_->url();
    c.username = "admin";
    c.password = "admin";
    c.ca_file = fake_->ca_file();
    c.page_size = page_size;
    auto client = NewClient(c);
    EXPECT_THAT(client, IsOk());
    return client.ok() ? *std::move(client) : nullptr;
  }

  std::unique_ptr<FakeController> fake_;
};

TEST_F(ListingLimitsTest, ObjectsAtTheLimit) {
  auto client = NewClientForFake(200);
  fake_->set_objects(limits::kMaxListedObjects);
  auto listed = client->ListSeGroups("", "");
  ASSERT_THAT(listed, IsOk());
  EXPECT_EQ(listed->size(), static_cast<size_t>(limits::kMaxListedObjects));

  fake_->set_objects(limits::kMaxListedObjects + 1);
  auto over = client->ListSeGroups("", "");
  ASSERT_THAT(over, Not(IsOk()));
  EXPECT_THAT(over, StatusIs(absl::StatusCode::kResourceExhausted));
  EXPECT_THAT(std::string(over.status().message()),
              HasSubstr(absl::StrCat("listing SE groups: more than ", limits::kMaxListedObjects)));
}

TEST_F(ListingLimitsTest, RequestsCarryTheVersionInTheUserAgent) {
  auto client = NewClientForFake(25);
  ASSERT_THAT(client->ListSeGroups("", ""), IsOk());
  EXPECT_EQ(fake_->login_user_agent(),
            absl::StrCat("terraform-provider-nsxalb/", build_info::kVersion));
}

TEST_F(ListingLimitsTest, PagesAtTheLimit) {
  auto client = NewClientForFake(1);
  fake_->set_objects(limits::kMaxListPages);
  auto listed = client->ListSeGroups("", "");
  ASSERT_THAT(listed, IsOk());
  EXPECT_EQ(listed->size(), static_cast<size_t>(limits::kMaxListPages));
  EXPECT_EQ(fake_->pages_served(), limits::kMaxListPages);

  fake_->set_objects(limits::kMaxListPages + 1);
  auto over = client->ListSeGroups("", "");
  ASSERT_THAT(over, Not(IsOk()));
  EXPECT_THAT(over, StatusIs(absl::StatusCode::kResourceExhausted));
  EXPECT_THAT(std::string(over.status().message()),
              HasSubstr(absl::StrCat("past ", limits::kMaxListPages, " pages")));
  // It stopped at the limit instead of reading the last page.
  EXPECT_EQ(fake_->pages_served(), 2 * limits::kMaxListPages);
}

TEST_F(ListingLimitsTest, ResponseSizeAtTheLimit) {
  std::atomic<bool> cancelled{false};
  auto transport = CurlTransport::Create(TlsOptions{fake_->ca_file(), "", false}, &cancelled);
  ASSERT_THAT(transport, IsOk());
  HttpRequest request;
  request.method = "GET";
  request.url = absl::StrCat(fake_->url(), "/big?bytes=", limits::kMaxControllerResponseBytes);
  TransportResult at = (*transport)->Perform(request);
  ASSERT_THAT(at.status, IsOk());
  EXPECT_EQ(at.response.body.size(), limits::kMaxControllerResponseBytes);

  request.url = absl::StrCat(fake_->url(), "/big?bytes=", limits::kMaxControllerResponseBytes + 1);
  TransportResult over = (*transport)->Perform(request);
  ASSERT_THAT(over.status, Not(IsOk()));
  EXPECT_THAT(over.status, StatusIs(absl::StatusCode::kResourceExhausted));
  EXPECT_FALSE(over.retryable);
  EXPECT_THAT(std::string(over.status.message()), HasSubstr("/big"));
  EXPECT_THAT(std::string(over.status.message()),
              HasSubstr("HTTP 200: the response is larger than 64 MiB"));
}

}  // namespace
}  // namespace nsxalb::controller
