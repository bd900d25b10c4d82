// libFuzzer entry point for the msgpack and JSON decoders. For every input and each of a few
// expected types it checks the decoder's contract: either a value whose encoding is stable (and,
// without dynamic types, decodes back to an equal value), or an InvalidArgument error that
// carries an attribute path and begins with it. Anything else (a crash, a pathless error, a
// broken round trip) aborts.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "plugin/cty/json.h"
#include "plugin/cty/msgpack.h"
#include "plugin/cty/path.h"
#include "plugin/cty/type.h"
#include "plugin/cty/value.h"

namespace {

using nsxalb::cty::Type;

const std::vector<Type>& FuzzTypes() {
  static const auto* types = new std::vector<Type>{
      Type::Dynamic(),
      Type::Number(),
      Type::Object({{"id", Type::String()},
                    {"size", Type::Number()},
                    {"on", Type::Bool()},
                    {"tags", Type::Set(Type::String())},
                    {"labels", Type::Map(Type::Number())},
                    {"any", Type::Dynamic()},
                    {"pair", Type::Tuple({Type::String(), Type::Number()})},
                    {"vcenters", Type::List(Type::Object({{"name", Type::String()}}))}}),
      Type::List(Type::List(Type::Dynamic())),
  };
  return *types;
}

void Check(bool ok) {
  if (!ok) std::abort();
}

void CheckError(const absl::Status& status) {
  Check(status.code() == absl::StatusCode::kInvalidArgument);
  std::optional<nsxalb::cty::AttributePath> path = nsxalb::cty::ErrorPath(status);
  Check(path.has_value());
  Check(std::string_view(status.message().data(), status.message().size())
            .rfind(path->ToString() + ": ", 0) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  for (const Type& type : FuzzTypes()) {
    absl::StatusOr<nsxalb::cty::Value> value = nsxalb::cty::DecodeMsgpack(input, type);
    if (!value.ok()) {
      CheckError(value.status());
    } else {
      absl::StatusOr<std::string> bytes = nsxalb::cty::EncodeMsgpack(*value, type);
      Check(bytes.ok());
      // A null or unknown inside a dynamic wrapper ([type, nil]) re-encodes without its type, as
      // in cty, so the check is that the encoding is stable after one round.
      absl::StatusOr<nsxalb::cty::Value> again = nsxalb::cty::DecodeMsgpack(*bytes, type);
      Check(again.ok());
      absl::StatusOr<std::string> bytes_again = nsxalb::cty::EncodeMsgpack(*again, type);
      Check(bytes_again.ok() && *bytes_again == *bytes);
      if (!type.HasDynamic()) Check(again->Equals(*value));
    }
    absl::StatusOr<nsxalb::cty::Value> from_json = nsxalb::cty::DecodeJson(input, type);
    if (!from_json.ok()) CheckError(from_json.status());
  }
  return 0;
}
