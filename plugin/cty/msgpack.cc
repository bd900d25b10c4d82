// Implementation of the msgpack codec. Decoding runs msgpack-cxx's event parser (no intermediate
// object tree, no recursion in the parser) with a visitor that knows, at every event, the type it
// expects and the attribute path it is at; so every error names its path, and hostile lengths
// never allocate more than the input holds. Encoding uses msgpack-cxx's packer.
#include "plugin/cty/msgpack.h"

#include <cmath>
#include <cstdint>
#include <exception>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "msgpack.hpp"
#include "plugin/common/status_macros.h"
#include "plugin/cty/internal/json_tree.h"
#include "plugin/cty/internal/lazy_path.h"
#include "plugin/cty/path.h"

namespace nsxalb::cty {
namespace {

using internal::JsonQuote;
using internal::kMaxNestingDepth;

// The parser's events, turned into a Value of the expected type.
class Decoder : public msgpack::null_visitor {
 public:
  explicit Decoder(const Type& root) : expect_(root) {}

  bool visit_nil() {
    if (!InValue("nil")) return false;
    return Deliver(Value::Null(expect_));
  }
  bool visit_boolean(bool v) {
    if (!InValue("bool")) return false;
    if (expect_.kind() != Type::Kind::kBool) return Mismatch("bool");
    return Deliver(Value::Bool(v));
  }
  bool visit_positive_integer(uint64_t v) {
    if (!InValue("number")) return false;
    if (expect_.kind() != Type::Kind::kNumber) return Mismatch("number");
    if (v <= static_cast<uint64_t>(INT64_MAX)) {
      return Deliver(Value::Int(static_cast<int64_t>(v)));
    }
    return Deliver(Value::NumberVal(*Number::FromDecimal(std::to_string(v))));
  }
  bool visit_negative_integer(int64_t v) {
    if (!InValue("number")) return false;
    if (expect_.kind() != Type::Kind::kNumber) return Mismatch("number");
    return Deliver(Value::Int(v));
  }
  bool visit_float32(float v) { return visit_float64(static_cast<double>(v)); }
  bool visit_float64(double v) {
    if (!InValue("number")) return false;
    if (expect_.kind() != Type::Kind::kNumber) return Mismatch("number");
    if (std::isnan(v)) return Fail(CurrentPath(), "NaN is not a valid number");
    return Deliver(Value::Float(v));
  }
  bool visit_str(const char* v, uint32_t size) {
    std::string s(v, size);
    if (mode_ == Mode::kKey) return Key(std::move(s));
    if (mode_ == Mode::kDynamicType) return DynamicType(s);
    if (expect_.kind() == Type::Kind::kString) return Deliver(Value::String(std::move(s)));
    if (expect_.kind() == Type::Kind::kNumber) {
      absl::StatusOr<Number> n = Number::FromDecimal(s);
      if (!n.ok()) return Fail(CurrentPath(), "a number is required, got string");
      return Deliver(Value::NumberVal(*std::move(n)));
    }
    return Mismatch("string");
  }
  bool visit_bin(const char* v, uint32_t size) {
    if (mode_ == Mode::kDynamicType) return DynamicType(std::string(v, size));
    if (!InValue("binary")) return false;
    // Go's msgpack reads bin as a string too.
    if (expect_.kind() == Type::Kind::kString) return Deliver(Value::String(std::string(v, size)));
    return Mismatch("binary");
  }
  bool visit_ext(const char* /*v*/, uint32_t /*size*/) {
    // Any extension is an unknown. Refinements (type 12) only narrow an unknown, and Terraform
    // compares plans without them, so the payload is not interpreted.
    if (!InValue("ext")) return false;
    return Deliver(Value::Unknown(expect_));
  }

  bool start_array(uint32_t n) {
    if (!InValue("array")) return false;
    Frame frame;
    frame.type = expect_;
    frame.depth = steps_.size();
    switch (expect_.kind()) {
      case Type::Kind::kList:
        frame.kind = Frame::Kind::kList;
        break;
      case Type::Kind::kSet:
        frame.kind = Frame::Kind::kSet;
        break;
      case Type::Kind::kTuple:
        if (n != expect_.tuple_elements().size()) {
          return Fail(CurrentPath(), absl::StrCat("a tuple of ", expect_.tuple_elements().size(),
                                                  " elements is required (", n, " given)"));
        }
        frame.kind = Frame::Kind::kTuple;
        break;
      case Type::Kind::kDynamic:
        if (n != 2) {
          return Fail(CurrentPath(),
                      absl::StrCat("a dynamic value must be a [type, value] array of 2 "
                                   "elements (",
                                   n, " given)"));
        }
        frame.kind = Frame::Kind::kDynamic;
        break;
      default:
        return Mismatch("array");
    }
    return Push(std::move(frame));
  }
  bool start_array_item() {
    Frame& top = stack_.back();
    mode_ = Mode::kValue;
    AtFrame(top);
    switch (top.kind) {
      case Frame::Kind::kList:
      case Frame::Kind::kSet:
        expect_ = top.type.element();
        PushIndex(top.next);
        break;
      case Frame::Kind::kTuple:
        expect_ = top.type.tuple_elements()[static_cast<size_t>(top.next)];
        PushIndex(top.next);
        break;
      case Frame::Kind::kDynamic:
        if (top.next == 0) {
          mode_ = Mode::kDynamicType;
        } else {
          expect_ = top.dynamic_type;
        }
        break;
      default:
        break;
    }
    return true;
  }
  bool end_array_item() {
    ++stack_.back().next;
    mode_ = Mode::kValue;
    return true;
  }
  bool end_array() {
    Frame top = std::move(stack_.back());
    stack_.pop_back();
    switch (top.kind) {
      case Frame::Kind::kList:
        return Deliver(Value::List(top.type.element(), std::move(top.items)));
      case Frame::Kind::kSet:
        return Deliver(Value::Set(top.type.element(), std::move(top.items)));
      case Frame::Kind::kTuple:
        return Deliver(Value::Tuple(std::move(top.items)));
      case Frame::Kind::kDynamic:
        if (top.items.empty()) return Fail(PathOf(top), "a dynamic value has no value");
        return Deliver(std::move(top.items.back()));
      default:
        return Fail(PathOf(top), "malformed msgpack");
    }
  }

  bool start_map(uint32_t /*n*/) {
    if (!InValue("map")) return false;
    Frame frame;
    frame.type = expect_;
    frame.depth = steps_.size();
    if (expect_.kind() == Type::Kind::kObject) {
      frame.kind = Frame::Kind::kObject;
    } else if (expect_.kind() == Type::Kind::kMap) {
      frame.kind = Frame::Kind::kMap;
    } else {
      return Mismatch("map");
    }
    return Push(std::move(frame));
  }
  bool start_map_key() {
    mode_ = Mode::kKey;
    AtFrame(stack_.back());
    return true;
  }
  bool end_map_key() {
    mode_ = Mode::kValue;
    return true;
  }
  bool start_map_value() {
    Frame& top = stack_.back();
    mode_ = Mode::kValue;
    AtFrame(top);
    AttributePath::Step& step = steps_.emplace_back();
    step.name = top.key;
    if (top.kind == Frame::Kind::kObject) {
      expect_ = *top.key_type;
    } else {
      expect_ = top.type.element();
      step.kind = AttributePath::Step::Kind::kElementKeyString;
    }
    return true;
  }
  bool end_map_value() {
    ++stack_.back().next;
    return true;
  }
  bool end_map() {
    Frame top = std::move(stack_.back());
    stack_.pop_back();
    if (top.kind == Frame::Kind::kMap) {
      return Deliver(Value::Map(top.type.element(), std::move(top.entries)));
    }
    const auto& attributes = top.type.attributes();
    if (top.entries.size() != attributes.size()) {
      std::string missing;
      for (const auto& [name, type] : attributes) {
        if (top.entries.count(name) == 0) {
          absl::StrAppend(&missing, missing.empty() ? "" : ", ", JsonQuote(name));
        }
      }
      return Fail(PathOf(top),
                  absl::StrCat("an object with ", attributes.size(), " attributes is required (",
                               top.entries.size(), " given); missing ", missing));
    }
    return Deliver(Value::Object(std::move(top.entries), top.type));
  }

  void parse_error(size_t /*parsed_offset*/, size_t error_offset) {
    Fail(CurrentPath(), absl::StrCat("malformed msgpack at byte ", error_offset));
  }
  void insufficient_bytes(size_t /*parsed_offset*/, size_t /*error_offset*/) {
    Fail(CurrentPath(), "truncated msgpack: the input ends inside this value");
  }

  const absl::Status& error() const { return error_; }
  std::optional<Value> TakeResult() { return std::move(result_); }

 private:
  enum class Mode { kValue, kKey, kDynamicType };

  struct Frame {
    enum class Kind { kList, kSet, kTuple, kDynamic, kMap, kObject };
    Kind kind = Kind::kList;
    Type type;
    size_t depth = 0;  // the frame's own path: the first `depth` of the decoder's steps
    int64_t next = 0;  // index of the item being read
    std::vector<Value> items;
    std::map<std::string, Value> entries;
    std::string key;                 // key of the map entry being read
    const Type* key_type = nullptr;  // an object's: the type of attribute `key`
    Type dynamic_type;               // type announced by a dynamic value's first element
  };

  // Records the first error only; returns false so the parser stops.
  bool Fail(const AttributePath& path, std::string_view message) {
    if (error_.ok()) error_ = PathError(path, message);
    return false;
  }

  // A value event where a map key or a dynamic type was due is an error.
  bool InValue(const char* got) {
    if (mode_ == Mode::kKey) {
      return Fail(PathOf(stack_.back()), absl::StrCat("map keys must be strings, got ", got));
    }
    if (mode_ == Mode::kDynamicType) {
      return Fail(CurrentPath(),
                  absl::StrCat("a dynamic value's type must be JSON type text, got ", got));
    }
    return true;
  }

  bool Mismatch(const char* got) {
    if (expect_.kind() == Type::Kind::kDynamic) {
      return Fail(CurrentPath(),
                  absl::StrCat("a dynamic value must be a [type, value] array, got ", got));
    }
    return Fail(CurrentPath(),
                absl::StrCat(expect_.FriendlyNameWithArticle(), " is required, got ", got));
  }

  bool Push(Frame frame) {
    if (static_cast<int>(stack_.size()) >= kMaxNestingDepth) {
      return Fail(CurrentPath(),
                  absl::StrCat("value nested deeper than ", kMaxNestingDepth, " levels"));
    }
    stack_.push_back(std::move(frame));
    return true;
  }

  void PushIndex(int64_t index) {
    AttributePath::Step& step = steps_.emplace_back();
    step.kind = AttributePath::Step::Kind::kElementKeyInt;
    step.index = index;
  }

  bool Key(std::string key) {
    Frame& top = stack_.back();
    // Terraform sends keys sorted, so a key after the last one read is new (no lookup).
    const bool repeated =
        !top.entries.empty() && !(top.entries.rbegin()->first < key) && top.entries.count(key) != 0;
    if (top.kind == Frame::Kind::kObject) {
      auto attribute = top.type.attributes().find(key);
      if (attribute == top.type.attributes().end()) {
        return Fail(PathOf(top), absl::StrCat("unsupported attribute ", JsonQuote(key)));
      }
      if (repeated) return Fail(PathOf(top).Attribute(key), "attribute given more than once");
      top.key_type = &attribute->second;
    } else if (repeated) {
      return Fail(PathOf(top).ElementKey(key), "map key given more than once");
    }
    top.key = std::move(key);
    return true;
  }

  bool DynamicType(const std::string& json) {
    absl::StatusOr<Type> type = Type::FromJson(json);
    if (!type.ok()) {
      return Fail(CurrentPath(), absl::StrCat("a dynamic value's type: ", type.status().message()));
    }
    stack_.back().dynamic_type = *std::move(type);
    mode_ = Mode::kValue;
    return true;
  }

  bool Deliver(Value v) {
    if (stack_.empty()) {
      result_ = std::move(v);
      return true;
    }
    Frame& top = stack_.back();
    if (top.kind == Frame::Kind::kMap || top.kind == Frame::Kind::kObject) {
      top.entries.emplace_hint(top.entries.end(), std::move(top.key), std::move(v));
    } else {
      top.items.push_back(std::move(v));
    }
    return true;
  }

  // The path of the frame `top` (its first top.depth steps).
  AttributePath PathOf(const Frame& top) const {
    return AttributePath(
        std::vector<AttributePath::Step>(steps_.begin(), steps_.begin() + top.depth));
  }
  // The path of the value being read. Paths are built only for errors: the decoder keeps one
  // stack of steps, cut back to a frame's depth and extended by one step per item.
  AttributePath CurrentPath() const { return AttributePath(steps_); }
  // Cuts the steps back to the frame's own path.
  void AtFrame(const Frame& top) { steps_.resize(top.depth); }

  Type expect_;                             // type of the value being read
  std::vector<AttributePath::Step> steps_;  // path of the value being read
  Mode mode_ = Mode::kValue;
  std::vector<Frame> stack_;
  std::optional<Value> result_;
  absl::Status error_;
};

// A packer stream appending to a std::string.
struct StringStream {
  std::string* out;
  void write(const char* data, size_t size) { out->append(data, size); }
};

using Packer = msgpack::packer<StringStream>;

using Where = internal::LazyPath;

absl::Status Encode(Packer& pk, const Value& value, const Type& type, const Where& where,
                    int depth) {
  if (depth > kMaxNestingDepth) {
    return PathError(where.Path(),
                     absl::StrCat("value nested deeper than ", kMaxNestingDepth, " levels"));
  }
  if (value.IsNull()) {
    pk.pack_nil();
    return absl::OkStatus();
  }
  if (!value.IsKnown()) {
    const char zero = 0;
    pk.pack_ext(1, 0);
    pk.pack_ext_body(&zero, 1);
    return absl::OkStatus();
  }
  if (type.kind() == Type::Kind::kDynamic) {
    const std::string type_json = value.type().ToJson();
    pk.pack_array(2);
    pk.pack_bin(static_cast<uint32_t>(type_json.size()));
    pk.pack_bin_body(type_json.data(), static_cast<uint32_t>(type_json.size()));
    return Encode(pk, value, value.type(), where, depth + 1);
  }
  if (value.type().kind() != type.kind()) {
    return PathError(where.Path(), absl::StrCat(type.FriendlyNameWithArticle(),
                                                " is required, got ", value.type().FriendlyName()));
  }
  switch (type.kind()) {
    case Type::Kind::kString: {
      const std::string& s = value.AsString();
      if (s.size() > UINT32_MAX) return PathError(where.Path(), "string too long for msgpack");
      pk.pack_str(static_cast<uint32_t>(s.size()));
      pk.pack_str_body(s.data(), static_cast<uint32_t>(s.size()));
      return absl::OkStatus();
    }
    case Type::Kind::kNumber: {
      const Number& n = value.AsNumber();
      if (absl::StatusOr<int64_t> i = n.AsInt64(); i.ok()) {
        pk.pack_int64(*i);
      } else if (n.ToString() == "NaN") {
        return PathError(where.Path(), "NaN is not a valid number");
      } else if (std::optional<double> d = n.ExactDouble(); d.has_value()) {
        pk.pack_double(*d);
      } else {
        const std::string text = n.ToString();
        pk.pack_str(static_cast<uint32_t>(text.size()));
        pk.pack_str_body(text.data(), static_cast<uint32_t>(text.size()));
      }
      return absl::OkStatus();
    }
    case Type::Kind::kBool:
      if (value.AsBool()) {
        pk.pack_true();
      } else {
        pk.pack_false();
      }
      return absl::OkStatus();
    case Type::Kind::kList:
    case Type::Kind::kSet: {
      pk.pack_array(static_cast<uint32_t>(value.elements().size()));
      for (size_t i = 0; i < value.elements().size(); ++i) {
        const Where item = where.Index(static_cast<int64_t>(i));
        NSXALB_RETURN_IF_ERROR(Encode(pk, value.elements()[i], type.element(), item, depth + 1));
      }
      return absl::OkStatus();
    }
    case Type::Kind::kTuple: {
      const auto& types = type.tuple_elements();
      if (value.elements().size() != types.size()) {
        return PathError(where.Path(),
                         absl::StrCat("a tuple of ", types.size(), " elements is required (",
                                      value.elements().size(), " given)"));
      }
      pk.pack_array(static_cast<uint32_t>(types.size()));
      for (size_t i = 0; i < types.size(); ++i) {
        const Where item = where.Index(static_cast<int64_t>(i));
        NSXALB_RETURN_IF_ERROR(Encode(pk, value.elements()[i], types[i], item, depth + 1));
      }
      return absl::OkStatus();
    }
    case Type::Kind::kMap: {
      pk.pack_map(static_cast<uint32_t>(value.entries().size()));
      for (const auto& [key, e] : value.entries()) {
        pk.pack_str(static_cast<uint32_t>(key.size()));
        pk.pack_str_body(key.data(), static_cast<uint32_t>(key.size()));
        const Where entry = where.ElementKey(key);
        NSXALB_RETURN_IF_ERROR(Encode(pk, e, type.element(), entry, depth + 1));
      }
      return absl::OkStatus();
    }
    case Type::Kind::kObject: {
      // The value's attributes and the type's are both sorted by name: when they pair up one
      // to one (always, for a value decoded or built for this type), nothing needs looking up.
      const auto& attributes = type.attributes();
      const auto& entries = value.entries();
      bool paired = entries.size() == attributes.size();
      auto entry = entries.begin();
      for (auto a = attributes.begin(); paired && a != attributes.end(); ++a, ++entry) {
        paired = a->first == entry->first;
      }
      if (!paired) {
        for (const auto& [name, e] : entries) {
          if (attributes.count(name) == 0) {
            return PathError(where.Path(), absl::StrCat("unsupported attribute ", JsonQuote(name)));
          }
        }
        for (const auto& [name, attr_type] : attributes) {
          if (entries.count(name) == 0) {
            return PathError(where.Path(),
                             absl::StrCat("attribute ", JsonQuote(name), " is required"));
          }
        }
      }
      // Byte-wise sorted keys, as Terraform writes them (std::map orders std::string that way).
      pk.pack_map(static_cast<uint32_t>(attributes.size()));
      auto e = entries.begin();
      for (const auto& [name, attr_type] : attributes) {
        pk.pack_str(static_cast<uint32_t>(name.size()));
        pk.pack_str_body(name.data(), static_cast<uint32_t>(name.size()));
        const Where attribute = where.Attribute(name);
        NSXALB_RETURN_IF_ERROR(Encode(pk, (e++)->second, attr_type, attribute, depth + 1));
      }
      return absl::OkStatus();
    }
    case Type::Kind::kDynamic:
      break;
  }
  return PathError(where.Path(), "value of unsupported type");
}

}  // namespace

absl::StatusOr<Value> DecodeMsgpack(std::string_view bytes, const Type& type) {
  if (bytes.empty()) return PathError(AttributePath(), "empty msgpack input");
  Decoder decoder(type);
  size_t offset = 0;
  bool ok = false;
  try {
    ok = msgpack::parse(bytes.data(), bytes.size(), offset, decoder);
  } catch (const std::exception&) {
    return PathError(AttributePath(), "malformed msgpack");
  }
  if (!decoder.error().ok()) return decoder.error();
  std::optional<Value> result = decoder.TakeResult();
  if (!ok || !result.has_value()) return PathError(AttributePath(), "malformed msgpack");
  if (offset != bytes.size()) {
    return PathError(AttributePath(),
                     absl::StrCat(bytes.size() - offset, " unexpected bytes after the value"));
  }
  return *std::move(result);
}

absl::StatusOr<std::string> EncodeMsgpack(const Value& value, const Type& type) {
  std::string out;
  StringStream stream{&out};
  Packer packer(stream);
  NSXALB_RETURN_IF_ERROR(Encode(packer, value, type, Where(), 0));
  return out;
}

}  // namespace nsxalb::cty
