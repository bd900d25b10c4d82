// The one step the readers (group_reader.h, estate_reader.h) share with the Controller: a
// metrics collection request whose answer streams into a CollectionDecoder (decode.h), chunk by
// chunk as it arrives, so that no answer is ever held whole. Internal to plugin/segroup/usage.
#ifndef NSXALB_PLUGIN_SEGROUP_USAGE_COLLECTION_STREAM_H_
#define NSXALB_PLUGIN_SEGROUP_USAGE_COLLECTION_STREAM_H_

#include <string_view>

#include "absl/status/status.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/client.h"
#include "plugin/segroup/usage/decode.h"

namespace nsxalb::segroup::usage_internal {

// Sends `request` (UsageCollectionRequest of the decoder's SEs) in `tenant` and decodes its answer
// into `decoder` (started over on every attempt the client makes). The client's error when the
// call failed; the decoder's when the answer is not JSON.
absl::Status StreamCollection(controller::Client& client, const nlohmann::json& request,
                              std::string_view tenant, CollectionDecoder& decoder);

}  // namespace nsxalb::segroup::usage_internal

#endif  // NSXALB_PLUGIN_SEGROUP_USAGE_COLLECTION_STREAM_H_
