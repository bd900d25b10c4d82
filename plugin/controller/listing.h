// Internal to plugin/controller: paging. The Controller answers a collection GET one page at a
// time, with a `next` link to the following page; the client reads every page, within the
// provider's caps on pages and objects. Not for use outside the folder.
#ifndef NSXALB_PLUGIN_CONTROLLER_LISTING_H_
#define NSXALB_PLUGIN_CONTROLLER_LISTING_H_

#include <functional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/request_loop.h"

namespace nsxalb::controller::internal {

// Called with each listed object and the description of the GET that returned it.
using ListVisitor = std::function<absl::Status(nlohmann::json& item, const std::string& call_what)>;

// GETs the collection at `path` (with its query, including page_size) in `tenant`, and every
// page its `next` links lead to, by `deadline`, calling `visit` with each result. Stops at the
// first error, the Controller's or `visit`'s. `what` names the listing in errors ("SE groups").
// At most limits::kMaxListPages pages and limits::kMaxListedObjects results (ResourceExhausted
// beyond either); a `next` link that repeats a page is Internal.
absl::Status ForEachListed(RequestLoop& loop, absl::Time deadline, std::string path,
                           std::string_view tenant, absl::string_view what,
                           const ListVisitor& visit);

}  // namespace nsxalb::controller::internal

#endif  // NSXALB_PLUGIN_CONTROLLER_LISTING_H_
