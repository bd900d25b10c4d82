// Implementation of attribute paths and path-carrying errors.
#include "plugin/cty/path.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "plugin/cty/internal/json_tree.h"

namespace nsxalb::cty {
namespace {

// The payload key under which PathError stores the path.
constexpr char kPathPayloadUrl[] = "type.nsxalb.dev/nsxalb.cty.AttributePath";

// Payload format, one record per step: 'a' or 'k', decimal length, ':', bytes; or 'i', decimal
// index, ';'.
std::string SerializePath(const AttributePath& path) {
  std::string out;
  for (const AttributePath::Step& step : path.steps()) {
    switch (step.kind) {
      case AttributePath::Step::Kind::kAttribute:
        absl::StrAppend(&out, "a", step.name.size(), ":", step.name);
        break;
      case AttributePath::Step::Kind::kElementKeyString:
        absl::StrAppend(&out, "k", step.name.size(), ":", step.name);
        break;
      case AttributePath::Step::Kind::kElementKeyInt:
        absl::StrAppend(&out, "i", step.index, ";");
        break;
    }
  }
  return out;
}

std::optional<AttributePath> ParsePath(const std::string& in) {
  std::vector<AttributePath::Step> steps;
  size_t pos = 0;
  while (pos < in.size()) {
    char tag = in[pos++];
    char end = tag == 'i' ? ';' : ':';
    size_t stop = in.find(end, pos);
    if (stop == std::string::npos) return std::nullopt;
    std::string number = in.substr(pos, stop - pos);
    pos = stop + 1;
    AttributePath::Step step;
    if (tag == 'i') {
      if (!absl::SimpleAtoi(number, &step.index)) return std::nullopt;
      step.kind = AttributePath::Step::Kind::kElementKeyInt;
    } else {
      size_t length = 0;
      if (!absl::SimpleAtoi(number, &length) || length > in.size() - pos) return std::nullopt;
      step.kind = tag == 'a' ? AttributePath::Step::Kind::kAttribute
                             : AttributePath::Step::Kind::kElementKeyString;
      if (tag != 'a' && tag != 'k') return std::nullopt;
      step.name = in.substr(pos, length);
      pos += length;
    }
    steps.push_back(std::move(step));
  }
  return AttributePath(std::move(steps));
}

}  // namespace

AttributePath AttributePath::Of(std::string name) {
  return AttributePath().Attribute(std::move(name));
}

AttributePath AttributePath::Attribute(std::string name) const {
  AttributePath out = *this;
  Step step;
  step.kind = Step::Kind::kAttribute;
  step.name = std::move(name);
  out.steps_.push_back(std::move(step));
  return out;
}

AttributePath AttributePath::ElementKey(std::string key) const {
  AttributePath out = *this;
  Step step;
  step.kind = Step::Kind::kElementKeyString;
  step.name = std::move(key);
  out.steps_.push_back(std::move(step));
  return out;
}

AttributePath AttributePath::Index(int64_t index) const {
  AttributePath out = *this;
  Step step;
  step.kind = Step::Kind::kElementKeyInt;
  step.index = index;
  out.steps_.push_back(std::move(step));
  return out;
}

std::string AttributePath::ToString() const {
  if (steps_.empty()) return "(root)";
  std::string out;
  for (const Step& step : steps_) {
    switch (step.kind) {
      case Step::Kind::kAttribute:
        absl::StrAppend(&out, ".", step.name);
        break;
      case Step::Kind::kElementKeyString:
        absl::StrAppend(&out, "[", internal::JsonQuote(step.name), "]");
        break;
      case Step::Kind::kElementKeyInt:
        absl::StrAppend(&out, "[", step.index, "]");
        break;
    }
  }
  return out;
}

absl::Status PathError(const AttributePath& path, std::string_view message) {
  absl::Status status =
      absl::InvalidArgumentError(absl::StrCat(path.ToString(), ": ", std::string(message)));
  status.SetPayload(kPathPayloadUrl, absl::Cord(SerializePath(path)));
  return status;
}

std::optional<AttributePath> ErrorPath(const absl::Status& status) {
  // GetPayload answers in Abseil's own optional (not std::optional with Debian's Abseil).
  const auto payload = status.GetPayload(kPathPayloadUrl);
  if (!payload.has_value()) return std::nullopt;
  return ParsePath(std::string(*payload));
}

}  // namespace nsxalb::cty
