// Implementation of collection_stream.h.
#include "plugin/segroup/usage/collection_stream.h"

#include "plugin/common/status_macros.h"

namespace nsxalb::segroup::usage_internal {
namespace {

// The client's body sink over a decoder.
class DecoderSink final : public controller::BodySink {
 public:
  explicit DecoderSink(CollectionDecoder& decoder) : decoder_(decoder) {}

  absl::Status Begin() override {
    decoder_.Reset();
    return absl::OkStatus();
  }
  absl::Status Write(std::string_view chunk) override { return decoder_.Feed(chunk); }

 private:
  CollectionDecoder& decoder_;
};

}  // namespace

absl::Status StreamCollection(controller::Client& client, const nlohmann::json& request,
                              std::string_view tenant, CollectionDecoder& decoder) {
  DecoderSink sink(decoder);
  NSXALB_RETURN_IF_ERROR(client.StreamMetricsCollection(request, tenant, sink));
  return decoder.Finish();
}

}  // namespace nsxalb::segroup::usage_internal
