// Internal to nsxalb_cty: a small JSON document tree that keeps numbers as their exact source text
// and object members in document order (so duplicates can be reported). Built from nlohmann-json's
// SAX parser with a nesting bound, so hostile input can neither lose precision nor exhaust the
// stack.
#ifndef NSXALB_PLUGIN_CTY_INTERNAL_JSON_TREE_H_
#define NSXALB_PLUGIN_CTY_INTERNAL_JSON_TREE_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "plugin/common/limits.h"

namespace nsxalb::cty::internal {

// Deepest array/object nesting accepted by the cty decoders (see plugin/common/limits.h).
inline constexpr int kMaxNestingDepth = limits::kMaxNestingDepth;

// One JSON value.
struct JsonNode {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  std::string text;             // a string's contents, or a number's exact source text
  std::vector<JsonNode> items;  // array elements
  std::vector<std::pair<std::string, JsonNode>> members;  // object members, document order

  // "null", "bool", "number", "string", "array", "object".
  const char* KindName() const;
};

// Parses one JSON document (surrounding whitespace allowed). Errors give the byte offset but never
// echo the input, which may hold secrets.
absl::StatusOr<JsonNode> ParseJsonTree(std::string_view text);

// Quotes and escapes `s` as a JSON string (invalid UTF-8 is replaced, never an error).
std::string JsonQuote(std::string_view s);

}  // namespace nsxalb::cty::internal

#endif  // NSXALB_PLUGIN_CTY_INTERNAL_JSON_TREE_H_
