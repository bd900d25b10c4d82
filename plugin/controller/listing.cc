#include "plugin/controller/listing.h"

#include <set>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "plugin/common/limits.h"
#include "plugin/common/status_macros.h"
#include "plugin/controller/response.h"

namespace nsxalb::controller::internal {

using Json = nlohmann::json;

absl::Status ForEachListed(RequestLoop& loop, absl::Time deadline, std::string path,
                           std::string_view tenant, absl::string_view what,
                           const ListVisitor& visit) {
  std::set<std::string> seen_pages;
  size_t listed = 0;
  for (int page_no = 0; page_no < limits::kMaxListPages; ++page_no) {
    if (!seen_pages.insert(path).second) {
      return absl::InternalError(absl::StrCat("controller: listing ", what,
                                              ": the Controller's next link repeats a page"));
    }
    Call call = MakeCall("GET", path, tenant);
    NSXALB_ASSIGN_OR_RETURN(auto response, loop.Send(call, deadline));
    NSXALB_ASSIGN_OR_RETURN(auto page, ParseBody(response, call.what));
    NSXALB_ASSIGN_OR_RETURN(auto results, Results(page, call.what));
    listed += results.size();
    if (listed > static_cast<size_t>(limits::kMaxListedObjects)) {
      return absl::ResourceExhaustedError(
          absl::StrCat("controller: listing ", what, ": more than ", limits::kMaxListedObjects,
                       ", the most the provider reads in one listing"));
    }
    for (Json& item : results) {
      NSXALB_RETURN_IF_ERROR(visit(item, call.what));
    }
    NSXALB_ASSIGN_OR_RETURN(auto next, NextPagePath(page, what));
    if (next.empty()) return absl::OkStatus();
    path = std::move(next);
  }
  return absl::ResourceExhaustedError(
      absl::StrCat("controller: listing ", what, ": the Controller's next links go on past ",
                   limits::kMaxListPages, " pages, the most the provider follows"));
}

}  // namespace nsxalb::controller::internal
