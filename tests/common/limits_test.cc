// Each limit of plugin/common/limits.h that a pure function enforces, tested at the limit: the
// limit itself is accepted and one more is refused with an error that names it. The limits that
// need a Controller or a process are tested where those are at hand:
//   kMaxGrpcMessageBytes            tests/host/plugin_host_test.cc (GrpcMessageSizeAtTheLimit)
//   kMaxControllerResponseBytes, kDefaultMaxRetries, the total time, kMaxListedObjects and
//   kMaxListPages                   tests/controller/client_limits_test.cc
#include "plugin/common/limits.h"

#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "plugin/controller/config.h"
#include "plugin/controller/errors.h"
#include "plugin/controller/response.h"
#include "plugin/cty/json.h"
#include "plugin/cty/msgpack.h"
#include "plugin/cty/type.h"
#include "plugin/framework/schema.h"
#include "plugin/provider/config.h"
#include "plugin/provider/provider.h"
#include "plugin/segroup/fields.h"
#include "tests/support/status_matchers.h"

namespace nsxalb::limits {
namespace {

using ::nsxalb::testing::IsOk;
using ::testing::Not;

using ::testing::HasSubstr;

constexpr int kDepth = kMaxNestingDepth;

// `levels` nested JSON arrays around 1: "[[1]]" for 2.
std::string JsonArrays(int levels) {
  return std::string(levels, '[') + "1" + std::string(levels, ']');
}

// `levels` nested JSON objects, the outermost with key `outer`: {"outer":{"a":1}} for 2.
std::string JsonObjects(int levels, const std::string& outer) {
  std::string text = "1";
  for (int i = 1; i < levels; ++i) text = absl::StrCat("{\"a\":", text, "}");
  return absl::StrCat("{\"", outer, "\":", text, "}");
}

// A list type nested `levels` deep and its msgpack value (single-element arrays around "x").
cty::Type Lists(int levels, cty::Type inner = cty::Type::String()) {
  cty::Type t = inner;
  for (int i = 0; i < levels; ++i) t = cty::Type::List(t);
  return t;
}
std::string MsgpackLists(int levels) {
  return std::string(levels, static_cast<char>(0x91)) + "\xa1x";
}

TEST(NestingDepthTest, CtyMsgpackAtTheLimit) {
  EXPECT_THAT(cty::DecodeMsgpack(MsgpackLists(kDepth), Lists(kDepth)), IsOk());
  auto deeper = cty::DecodeMsgpack(MsgpackLists(kDepth + 1), Lists(kDepth + 1));
  ASSERT_THAT(deeper, Not(IsOk()));
  EXPECT_THAT(std::string(deeper.status().message()),
              HasSubstr(absl::StrCat("nested deeper than ", kDepth, " levels")));
}

TEST(NestingDepthTest, CtyJsonAtTheLimit) {
  auto at = cty::DecodeJson(JsonArrays(kDepth), Lists(kDepth, cty::Type::Number()));
  EXPECT_THAT(at, IsOk());
  auto deeper = cty::DecodeJson(JsonArrays(kDepth + 1), Lists(kDepth + 1, cty::Type::Number()));
  ASSERT_THAT(deeper, Not(IsOk()));
  EXPECT_THAT(std::string(deeper.status().message()), HasSubstr("nested deeper than"));
}

TEST(NestingDepthTest, ControllerJsonAtTheLimit) {
  for (const std::string& text : {JsonArrays(kDepth), JsonObjects(kDepth, "a")}) {
    EXPECT_THAT(controller::ParseJsonLimited(text), IsOk()) << text;
  }
  for (const std::string& text : {JsonArrays(kDepth + 1), JsonObjects(kDepth + 1, "a")}) {
    auto parsed = controller::ParseJsonLimited(text);
    ASSERT_THAT(parsed, Not(IsOk()));
    EXPECT_EQ(parsed.status().message(), "JSON nested deeper than 64 levels");
  }
  controller::HttpResponse response;
  response.status = 200;
  response.body = JsonArrays(kDepth + 1);
  auto body = controller::ParseBody(response, "GET /api/serviceenginegroup");
  ASSERT_THAT(body, Not(IsOk()));
  EXPECT_EQ(body.status().message(),
            "controller: GET /api/serviceenginegroup: HTTP 200: the response is JSON nested "
            "deeper than 64 levels");
}

TEST(NestingDepthTest, ControllerJsonBracketsInStringsDoNotCount) {
  // The depth is counted before parsing, outside strings only: brackets in a string, after an
  // escaped quote or an escaped backslash, are text.
  const std::string brackets(kDepth + 10, '[');
  for (const std::string& text : {absl::StrCat(R"({"a":")", brackets, R"("})"),
                                  absl::StrCat(R"({"a":"\")", brackets, R"("})"),
                                  absl::StrCat(R"({"a":"\\", "b":")", brackets, R"("})")}) {
    auto parsed = controller::ParseJsonLimited(text);
    EXPECT_THAT(parsed, IsOk()) << text << ": " << parsed.status();
  }
  // After an escaped backslash the quote ends the string, so the brackets that follow count.
  auto deep = controller::ParseJsonLimited(
      absl::StrCat(R"({"a":"\\",)", R"("b":)", JsonArrays(kDepth), "}"));
  ASSERT_THAT(deep, Not(IsOk()));
  EXPECT_EQ(deep.status().message(), "JSON nested deeper than 64 levels");
}

TEST(NestingDepthTest, DeeplyNestedErrorBodyIsShownAsText) {
  // A million levels: parsing stops at the limit and the text is cut, nothing recurses.
  const std::string body = JsonArrays(1000000);
  EXPECT_EQ(controller::ControllerErrorText(body).size(), 503u);
  // The member holding the error text nested that deep crashed the provider (stack overflow
  // printing it) before the bound.
  EXPECT_EQ(controller::ControllerErrorText(R"({"error":)" + JsonArrays(200000) + "}").size(),
            503u);
  EXPECT_EQ(controller::ControllerErrorText(R"({"error":)" + JsonArrays(kDepth - 1) + "}"),
            std::string(kDepth - 1, '[') + "1" + std::string(kDepth - 1, ']'));
}

TEST(NestingDepthTest, ExtraFieldsAtTheLimit) {
  EXPECT_THAT(segroup::ParseExtraFields(JsonObjects(kDepth, "realtime_se_metrics")), IsOk());
  auto deeper = segroup::ParseExtraFields(JsonObjects(kDepth + 1, "realtime_se_metrics"));
  ASSERT_THAT(deeper, Not(IsOk()));
  EXPECT_THAT(std::string(deeper.status().message()), HasSubstr("nested deeper than 64 levels"));
  // A refresh of text that is too deep keeps the text (it was refused at validate).
  const std::string too_deep = JsonObjects(kDepth + 1, "realtime_se_metrics");
  EXPECT_EQ(segroup::RefreshedExtraFields(too_deep, nlohmann::json::object()), too_deep);
}

controller::ClientConfig ValidClientConfig() {
  controller::ClientConfig config;
  config.controller = "ctrl.example.com";
  config.username = "admin";
  config.password = "secret";
  return config;
}

TEST(RetriesAndTimeTest, DefaultsAreTheNamedLimits) {
  const controller::ClientConfig defaults;
  EXPECT_EQ(defaults.max_retries, kDefaultMaxRetries);
  EXPECT_EQ(defaults.total_timeout, absl::Seconds(kDefaultTotalTimeoutSeconds));
}

TEST(RetriesAndTimeTest, ClientSettingsAtTheLimit) {
  controller::ClientConfig config = ValidClientConfig();
  config.max_retries = kMaxRetries;
  config.total_timeout = absl::Seconds(kMaxTotalTimeoutSeconds);
  EXPECT_THAT(controller::ValidateConfig(config), IsOk());
  config.max_retries = kMaxRetries + 1;
  auto retries = controller::ValidateConfig(config);
  ASSERT_THAT(retries, Not(IsOk()));
  EXPECT_THAT(std::string(retries.status().message()),
              HasSubstr(absl::StrCat("max_retries must be between 0 and ", kMaxRetries)));
  config.max_retries = kMaxRetries;
  config.total_timeout = absl::Seconds(kMaxTotalTimeoutSeconds + 1);
  auto total = controller::ValidateConfig(config);
  ASSERT_THAT(total, Not(IsOk()));
  EXPECT_THAT(std::string(total.status().message()),
              HasSubstr(absl::StrCat("at most ", kMaxTotalTimeoutSeconds, " seconds")));
}

TEST(RetriesAndTimeTest, ProviderTimeoutSecondsAtTheLimit) {
  const framework::Block& block = provider::EmbeddedProviderSchema().block;
  const cty::Type type = framework::ImpliedType(block);
  auto check = [&](int64_t seconds, provider::ProviderConfig* out) {
    cty::Value config =
        cty::Value::ObjectOf(type, {{"controller", cty::Value::String("ctrl.example.com")},
                                    {"username", cty::Value::String("admin")},
                                    {"password", cty::Value::String("secret")},
                                    {"timeout_seconds", cty::Value::Int(seconds)}});
    return provider::CheckConfig(
        block, config, provider::ConfigPhase::kConfigure,
        [](const std::string&) { return std::optional<std::string>(); }, out);
  };
  provider::ProviderConfig out;
  framework::Diagnostics at = check(kMaxTotalTimeoutSeconds, &out);
  ASSERT_FALSE(at.HasError()) << at.ToString();
  EXPECT_EQ(out.client.total_timeout, absl::Seconds(kMaxTotalTimeoutSeconds));
  EXPECT_THAT(controller::ValidateConfig(out.client), IsOk());
  framework::Diagnostics over = check(kMaxTotalTimeoutSeconds + 1, nullptr);
  ASSERT_TRUE(over.HasError());
  EXPECT_THAT(over.ToString(), HasSubstr(absl::StrCat("from 1 to ", kMaxTotalTimeoutSeconds)));
}

}  // namespace
}  // namespace nsxalb::limits
