// plan-report's "Estate" sections.
#include "plugin/cli/plan_report/plan_report_estate.h"

#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "plugin/cli/estate/estate_report.h"
#include "plugin/cli/estate/estate_view.h"
#include "plugin/cli/plan_report/plan_json.h"

namespace nsxalb::cli {
namespace {

using Json = nlohmann::json;

constexpr char kEstateType[] = "nsxalb_se_groups_usage";

}  // namespace

void RenderEstates(const Json& plan, std::ostream& out) {
  std::vector<const Json*> resources = PriorStateResources(plan);
  for (const Json* r : PlannedResources(plan)) resources.push_back(r);
  std::set<std::string> shown;
  for (const Json* resource : resources) {
    if (StringMember(*resource, "type") != kEstateType ||
        StringMember(*resource, "mode") != "data") {
      continue;
    }
    const std::string address = StringMember(*resource, "address");
    auto values = resource->find("values");
    // A data source read during apply has no value in the plan.
    if (values == resource->end() || !values->is_object() || !values->contains("groups") ||
        (*values)["groups"].is_null() || shown.count(address) > 0) {
      continue;
    }
    shown.insert(address);
    const std::string title = absl::StrCat("Estate: `", address, "`");
    absl::StatusOr<EstateView> estate = ReadEstateView(*values);
    if (!estate.ok()) {
      out << "\n### " << title
          << "\n\nThe data source's value is not an estate: " << estate.status().message() << ".\n";
      continue;
    }
    out << "\n" << EstateMarkdown(*estate, title, 3);
  }
}

}  // namespace nsxalb::cli
