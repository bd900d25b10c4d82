#include "plugin/controller/listing.h"

#include <set>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "plugin/common/limits.h"
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
    auto response = loop.Send(call, deadline);
    if (!response.ok()) return response.status();
    auto page = ParseBody(*response, call.what);
    if (!page.ok()) return page.status();
    auto results = Results(*page, call.what);
    if (!results.ok()) return results.status();
    listed += results->size();
    if (listed > static_cast<size_t>(limits::kMaxListedObjects)) {
      return absl::ResourceExhaustedError(
          absl::StrCat("controller: listing ", what, ": more than ", limits::kMaxListedObjects,
                       ", the most the provider reads in one listing"));
    }
    for (Json& item : *results) {
      if (absl::Status st = visit(item, call.what); !st.ok()) return st;
    }
    auto next = NextPagePath(*page, what);
    if (!next.ok()) return next.status();
    if (next->empty()) return absl::OkStatus();
    path = *std::move(next);
  }
  return absl::ResourceExhaustedError(
      absl::StrCat("controller: listing ", what, ": the Controller's next links go on past ",
                   limits::kMaxListPages, " pages, the most the provider follows"));
}

}  // namespace nsxalb::controller::internal
