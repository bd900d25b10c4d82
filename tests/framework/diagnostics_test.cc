// Diagnostics: severities, attribute paths from statuses, and the detail style.
#include "plugin/framework/diagnostics.h"

#include <gtest/gtest.h>

#include "plugin/framework/provider.h"
#include "plugin/framework/schema.h"
#include "plugin/framework/value_util.h"

namespace nsxalb::framework {
namespace {

TEST(DiagnosticsTest, WarningsAreNotErrors) {
  Diagnostics d;
  d.AddWarning("careful", "detail");
  EXPECT_FALSE(d.HasError());
  d.AddAttributeError(cty::AttributePath().Attribute("a"), "bad", "detail");
  EXPECT_TRUE(d.HasError());
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d.items()[1].path, cty::AttributePath().Attribute("a"));
  EXPECT_FALSE(d.items()[0].path.has_value());
}

TEST(DiagnosticsTest, StatusPathBecomesTheAttributePath) {
  const cty::AttributePath path =
      cty::AttributePath().Attribute("rules").Index(2).Attribute("port");
  Diagnostics d;
  d.AddStatusError("Invalid value", cty::PathError(path, "a number is required"));
  ASSERT_EQ(d.size(), 1u);
  ASSERT_TRUE(d.items()[0].path.has_value());
  EXPECT_EQ(*d.items()[0].path, path);
  EXPECT_NE(d.items()[0].detail.find("a number is required"), std::string::npos);

  Diagnostics plain;
  plain.AddStatusError("Failed", absl::InternalError("no path"));
  EXPECT_FALSE(plain.items()[0].path.has_value());
  EXPECT_EQ(plain.items()[0].detail, "no path");

  Diagnostics own;
  own.AddStatusError("Failed", "my detail", cty::PathError(path, "x"));
  EXPECT_EQ(own.items()[0].detail, "my detail");
  EXPECT_EQ(*own.items()[0].path, path);
}

TEST(DiagnosticsTest, AppendKeepsOrder) {
  Diagnostics a, b;
  a.AddWarning("one", "");
  b.AddError("two", "");
  a.Append(b);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a.items()[1].summary, "two");
  EXPECT_TRUE(a.HasError());
}

TEST(DiagnosticsTest, ErrorDetailStyle) {
  EXPECT_EQ(ErrorDetail("creating SE group g1", "the Controller refused the request.",
                        "HTTP 400: bad field"),
            "While creating SE group g1, the Controller refused the request.\n\n"
            "Original Error: HTTP 400: bad field");
  EXPECT_EQ(ErrorDetail("reading x", "", ""), "While reading x, an unexpected error occurred.");
}

TEST(EnvDefaultsTest, FillsNullAttributesFromTheFirstSetVariable) {
  Block block;
  Attribute host;
  host.name = "host";
  host.type = cty::Type::String();
  host.optional = true;
  host.env = {"A_HOST", "B_HOST"};
  Attribute flag;
  flag.name = "flag";
  flag.type = cty::Type::Bool();
  flag.optional = true;
  flag.env = {"A_FLAG"};
  block.attributes = {{"host", host}, {"flag", flag}};
  std::map<std::string, std::string> vars = {{"B_HOST", "h.example"}, {"A_FLAG", "maybe"}};
  EnvLookup env = [&](const std::string& n) -> std::optional<std::string> {
    auto it = vars.find(n);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
  Diagnostics d;
  cty::Value out = ApplyEnvDefaults(block, EmptyObject(block), env, d);
  EXPECT_TRUE(out.GetAttribute("host")->Equals(cty::Value::String("h.example")));
  ASSERT_TRUE(d.HasError());  // "maybe" is not a bool
  EXPECT_EQ(*d.items()[0].path, cty::AttributePath().Attribute("flag"));
  EXPECT_EQ(d.ToString().find("maybe"), std::string::npos);  // the value is not echoed

  vars["A_FLAG"] = "true";
  Diagnostics d2;
  cty::Value configured = EmptyObject(block).WithAttribute("host", cty::Value::String("mine"));
  out = ApplyEnvDefaults(block, configured, env, d2);
  EXPECT_FALSE(d2.HasError());
  EXPECT_TRUE(out.GetAttribute("host")->Equals(cty::Value::String("mine")));
  EXPECT_TRUE(out.GetAttribute("flag")->Equals(cty::Value::Bool(true)));
}

}  // namespace
}  // namespace nsxalb::framework
