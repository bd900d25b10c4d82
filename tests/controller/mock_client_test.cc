// Checks that MockClient implements the whole Client interface and can be driven by gMock.
#include "tests/controller/mock_client.h"

#include <memory>

#include "gtest/gtest.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::controller {
namespace {

using ::nsxalb::testing::IsOk;

using ::testing::Return;

TEST(MockClientTest, StandsInForTheClient) {
  auto mock = std::make_unique<MockClient>();
  SeGroup group;
  group.uuid = "serviceenginegroup-1";
  group.name = "g";
  EXPECT_CALL(*mock, GetSeGroup(std::string_view("serviceenginegroup-1"), std::string_view("")))
      .WillOnce(Return(group));
  EXPECT_CALL(*mock, DeleteSeGroup).WillOnce(Return(absl::NotFoundError("gone")));
  std::unique_ptr<Client> client = std::move(mock);
  auto got = client->GetSeGroup("serviceenginegroup-1", "");
  ASSERT_THAT(got, IsOk());
  EXPECT_EQ(got->name, "g");
  EXPECT_EQ(client->DeleteSeGroup("x", "").code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace nsxalb::controller
