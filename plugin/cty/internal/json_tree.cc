// Implementation of the exact-number JSON tree on top of nlohmann-json's SAX interface.
#include "plugin/cty/internal/json_tree.h"

#include <cstddef>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace nsxalb::cty::internal {
namespace {

using json = nlohmann::json;

// Builds a JsonNode from SAX events without recursion: open containers live on `stack_`.
class TreeBuilder {
 public:
  bool null() { return Add(JsonNode{}); }
  bool boolean(bool v) {
    JsonNode n;
    n.kind = JsonNode::Kind::kBool;
    n.boolean = v;
    return Add(std::move(n));
  }
  bool number_integer(json::number_integer_t v) { return Number(std::to_string(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return Number(std::to_string(v)); }
  // nlohmann hands over the token's source text, which keeps every digit.
  bool number_float(json::number_float_t /*v*/, const json::string_t& s) { return Number(s); }
  bool string(json::string_t& v) {
    JsonNode n;
    n.kind = JsonNode::Kind::kString;
    n.text = std::move(v);
    return Add(std::move(n));
  }
  bool binary(json::binary_t& /*v*/) {
    error_ = "binary values are not JSON";
    return false;
  }
  bool start_object(std::size_t /*n*/) { return Open(JsonNode::Kind::kObject); }
  bool key(json::string_t& k) {
    stack_.back().second = std::move(k);
    return true;
  }
  bool end_object() { return Close(); }
  bool start_array(std::size_t /*n*/) { return Open(JsonNode::Kind::kArray); }
  bool end_array() { return Close(); }
  bool parse_error(std::size_t position, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& /*ex*/) {
    error_ = absl::StrCat("malformed JSON near byte ", position);
    return false;
  }

  const std::string& error() const { return error_; }
  bool done() const { return done_; }
  JsonNode TakeRoot() { return std::move(root_); }

 private:
  bool Number(std::string text) {
    JsonNode n;
    n.kind = JsonNode::Kind::kNumber;
    n.text = std::move(text);
    return Add(std::move(n));
  }
  bool Open(JsonNode::Kind kind) {
    if (static_cast<int>(stack_.size()) >= kMaxNestingDepth) {
      error_ = absl::StrCat("JSON nested deeper than ", kMaxNestingDepth, " levels");
      return false;
    }
    JsonNode n;
    n.kind = kind;
    stack_.emplace_back(std::move(n), std::string());
    return true;
  }
  bool Close() {
    JsonNode n = std::move(stack_.back().first);
    stack_.pop_back();
    return Add(std::move(n));
  }
  bool Add(JsonNode n) {
    if (stack_.empty()) {
      root_ = std::move(n);
      done_ = true;
      return true;
    }
    JsonNode& parent = stack_.back().first;
    if (parent.kind == JsonNode::Kind::kArray) {
      parent.items.push_back(std::move(n));
    } else {
      parent.members.emplace_back(std::move(stack_.back().second), std::move(n));
    }
    return true;
  }

  std::vector<std::pair<JsonNode, std::string>> stack_;  // open container, pending key
  JsonNode root_;
  bool done_ = false;
  std::string error_;
};

}  // namespace

const char* JsonNode::KindName() const {
  switch (kind) {
    case Kind::kNull:
      return "null";
    case Kind::kBool:
      return "bool";
    case Kind::kNumber:
      return "number";
    case Kind::kString:
      return "string";
    case Kind::kArray:
      return "array";
    case Kind::kObject:
      return "object";
  }
  return "?";
}

absl::StatusOr<JsonNode> ParseJsonTree(std::string_view text) {
  TreeBuilder builder;
  bool ok = false;
  try {
    ok = json::sax_parse(text.begin(), text.end(), &builder);
  } catch (const std::exception&) {
    ok = false;
  }
  if (!ok || !builder.done()) {
    return absl::InvalidArgumentError(builder.error().empty() ? std::string("malformed JSON")
                                                              : builder.error());
  }
  return builder.TakeRoot();
}

std::string JsonQuote(std::string_view s) {
  return json(std::string(s)).dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace nsxalb::cty::internal
