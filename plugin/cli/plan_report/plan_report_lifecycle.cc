// Implementation of plan_report_lifecycle.h.
#include "plugin/cli/plan_report/plan_report_lifecycle.h"

#include <optional>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "plugin/cli/common/markdown.h"
#include "plugin/segroup/fields.h"
#include "plugin/segroup/lifecycle/finding.h"
#include "plugin/segroup/lifecycle/ses_view.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/rules.h"

namespace nsxalb::cli {
namespace {

namespace lc = ::nsxalb::segroup::lifecycle;
using Json = nlohmann::json;

// The member `name` of an object, null when absent.
const Json& Member(const Json& object, const char* name) {
  static const Json kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(name);
  return it == object.end() ? kNull : *it;
}

// One group's lines, or "" when its SEs all have the settings the plan leaves.
std::string GroupLines(const PlanGroupSes& g) {
  const Json& recorded = Member(g.before, "service_engines");
  if (!g.after.is_object() || recorded.is_null()) return "";
  absl::StatusOr<std::vector<lc::RunningSe>> running =
      lc::RunningSesFromSummaryJson(recorded, g.before);
  if (!running.ok()) {
    return absl::StrCat("- `", g.address, "`: its recorded ", running.status().message(), "\n");
  }
  if (running->empty()) return "";
  const std::vector<std::string>& names = segroup::TypedFieldNames();
  lc::RebootWait wait;
  wait.changed_now =
      lc::ChangedFieldsOfClass(names, g.before, g.after, controller::TakesEffect::kAfterSeReboot);
  for (const Json& f : Member(recorded, "reboot_fields")) {
    if (f.is_string()) wait.recorded.push_back(f.get<std::string>());
  }
  lc::SesBehindInput in;
  const Json& name = Member(g.after, "name");
  in.group_name = name.is_string() ? name.get<std::string>() : g.address;
  in.settings = g.after;
  const bool changes =
      !lc::ChangedFieldsOfClass(names, g.before, g.after, controller::TakesEffect::kNewSesOnly)
           .empty() ||
      !wait.changed_now.empty();
  if (changes) in.prior_settings = g.before;
  in.ses = lc::MatchSettings(*std::move(running), g.after, wait);
  if (g.sizing != nullptr) {
    in.workload = g.sizing->workload;
    in.planned_shape = g.sizing->planned_shape;
  }
  const std::optional<lc::SesBehindFinding> found = lc::SesBehindSettings(in);
  if (!found.has_value()) return "";
  std::string out = absl::StrCat("- `", g.address, "`: **", found->finding.summary, "**",
                                 changes ? " (this plan changes the settings)" : "", ".\n");
  for (const lc::LaggingSe& lag : in.ses.lagging) {
    absl::StrAppend(&out, "  - ", MarkdownCell(lag.se.name), ": ", lc::ShapeText(lag.se), "; ",
                    lc::MatchText(in.ses, lag.se), "\n");
  }
  if (found->load.has_value()) {
    absl::StrAppend(&out, "  - At the running shape (rule ",
                    sizing::rules::kUtilizationAtRunningShape,
                    "): ", MarkdownCell(found->load->summary), "\n");
  }
  absl::StrAppend(&out, "  - ", MarkdownCell(found->finding.detail), "\n");
  return out;
}

}  // namespace

std::string SesBehindSection(const std::vector<PlanGroupSes>& groups, const std::string& heading) {
  std::string lines;
  int recorded = 0;
  for (const PlanGroupSes& g : groups) {
    if (!Member(g.before, "service_engines").is_null()) ++recorded;
    absl::StrAppend(&lines, GroupLines(g));
  }
  if (recorded == 0) return "";
  return absl::StrCat(
      "\n", heading, " SEs behind settings\n\n",
      lines.empty()
          ? absl::StrCat("Every running SE of the ",
                         sizing::FormatCount(recorded, "group", "groups"),
                         " with running SEs recorded has the settings this plan leaves.\n")
          : absl::StrCat(lines, "\n(rule ", sizing::rules::kSesBehindSettings,
                         ": a warning, never an error: new-ses-only fields reach running SEs "
                         "only when they are replaced, after-se-reboot fields when they "
                         "reboot.)\n"));
}

}  // namespace nsxalb::cli
