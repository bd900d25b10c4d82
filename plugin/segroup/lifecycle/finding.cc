// Implementation of finding.h.
#include "plugin/segroup/lifecycle/finding.h"

#include <cmath>
#include <cstdint>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/segroup/sizing_plan.h"
#include "plugin/sizing/format.h"
#include "plugin/sizing/rules.h"
#include "plugin/sizing/service_units.h"

namespace nsxalb::segroup::lifecycle {
namespace {

using Json = nlohmann::json;
namespace sz = sizing;

// At most this many SEs are named in a finding; the rest are counted.
constexpr size_t kNamedSes = 8;

// A setting's value for prose: "8,192", "true", "HA_MODE_SHARED", "unset".
std::string ValueText(const Json& v) {
  if (v.is_null()) return "unset";
  if (v.is_number()) {
    const double d = v.get<double>();
    if (d == std::floor(d) && std::fabs(d) < 1e15) return sz::FormatInt(static_cast<int64_t>(d));
    return v.dump();
  }
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

// "a, b and c".
std::string JoinAnd(const std::vector<std::string>& parts) {
  if (parts.size() <= 1) return absl::StrJoin(parts, "");
  return absl::StrCat(absl::StrJoin(std::vector<std::string>(parts.begin(), parts.end() - 1), ", "),
                      " and ", parts.back());
}

// "vcpus_per_se 4 -> 5 and memory_per_se 8,192 -> 10,240" (with a prior that differs), else
// "vcpus_per_se 5 and memory_per_se 10,240".
std::string FieldsText(const std::vector<std::string>& fields, const SesBehindInput& in) {
  std::vector<std::string> parts;
  for (const std::string& f : fields) {
    const Json now = MemberOrNull(in.settings, f);
    if (!in.prior_settings.is_null() && MemberOrNull(in.prior_settings, f) != now) {
      parts.push_back(absl::StrCat(f, " ", ValueText(MemberOrNull(in.prior_settings, f)), " -> ",
                                   ValueText(now)));
    } else {
      parts.push_back(absl::StrCat(f, " ", ValueText(now)));
    }
  }
  return JoinAnd(parts);
}

// "se-1, se-2 and se-3", at most kNamedSes names, then "and N more".
std::string SeNames(const std::vector<const LaggingSe*>& ses) {
  std::vector<std::string> names;
  for (size_t i = 0; i < ses.size() && i < kNamedSes; ++i) names.push_back(ses[i]->se.name);
  if (ses.size() > kNamedSes) {
    return absl::StrCat(absl::StrJoin(names, ", "), " and ", ses.size() - kNamedSes, " more");
  }
  return JoinAnd(names);
}

// "4 vCPUs and 8,192 MB" (", and 20 GB of disk" when the disk is concerned).
std::string ShapeText(const RunningSe& se, bool with_disk) {
  const std::string cpu = sz::FormatVcpus(se.vcpus);
  if (with_disk) {
    return absl::StrCat(cpu, ", ", sz::FormatInt(se.memory_mb), " MB and ",
                        sz::FormatInt(se.disk_gb), " GB of disk");
  }
  return absl::StrCat(cpu, " and ", sz::FormatInt(se.memory_mb), " MB");
}

// "checkout's 3 running SEs (a, b and c)" or "2 of checkout's 3 running SEs (a and b)".
std::string WhoText(const SesBehindInput& in, const std::vector<const LaggingSe*>& ses) {
  const size_t running = in.ses.running.size();
  const std::string of = ses.size() == running
                             ? absl::StrCat(in.group_name, "'s ")
                             : absl::StrCat(ses.size(), " of ", in.group_name, "'s ");
  return absl::StrCat(of,
                      sz::FormatCount(static_cast<int64_t>(running), "running SE", "running SEs"),
                      " (", SeNames(ses), ")");
}

// The sentences about the SEs that lag on their shape.
std::string NewSesOnlyText(const SesBehindInput& in, const std::vector<const LaggingSe*>& ses,
                           const std::vector<std::string>& fields, SesBehindFinding& out) {
  const bool disk = std::find(fields.begin(), fields.end(), "disk_per_se") != fields.end();
  std::set<std::string> shapes;
  for (const LaggingSe* lag : ses) shapes.insert(ShapeText(lag->se, disk));
  std::string keep;
  if (shapes.size() == 1) {
    keep = absl::StrCat(sz::Agree(ses.size(), " keeps ", " keep "), *shapes.begin());
  } else {
    std::vector<std::string> each;
    each.reserve(ses.size());
    for (const LaggingSe* lag : ses) {
      each.push_back(absl::StrCat(lag->se.name, " ", ShapeText(lag->se, disk)));
    }
    keep = absl::StrCat(" keep their shapes (", absl::StrJoin(each, "; "), ")");
  }
  std::string text =
      absl::StrCat(FieldsText(fields, in), " ", sz::Agree(fields.size(), "reaches", "reach"),
                   " new SEs only: ", WhoText(in, ses), keep,
                   sz::Agree(static_cast<int64_t>(ses.size()), " until it is replaced.",
                             " until they are replaced."));
  if (in.workload.has_value() && in.planned_shape.has_value()) {
    out.load = LoadAtRunningShape(*in.workload, *in.planned_shape, in.ses);
    if (out.load.has_value()) {
      absl::StrAppend(&text, " At their size (rule ", sz::rules::kUtilizationAtRunningShape, ") ",
                      out.load->summary, ".");
    }
  }
  // What the Controller may still add: at the new settings.
  const Json max_se = MemberOrNull(in.settings, "max_se");
  const Json vcpus = MemberOrNull(in.settings, "vcpus_per_se");
  const Json memory = MemberOrNull(in.settings, "memory_per_se");
  if (max_se.is_number()) {
    const int64_t room =
        static_cast<int64_t>(max_se.get<double>()) - static_cast<int64_t>(in.ses.running.size());
    if (room > 0) {
      absl::StrAppend(&text, " The Controller may still add ", sz::FormatCount(room, "SE", "SEs"),
                      " up to max_se ", ValueText(max_se), ", and ",
                      sz::Agree(room, "it comes", "those come"), " at the new settings (",
                      vcpus.is_number() ? sz::FormatVcpus(vcpus.get<int64_t>()) : "vCPUs unset",
                      ", ", ValueText(memory), " MB): only the running SEs lag.");
    } else {
      absl::StrAppend(&text, " max_se ", ValueText(max_se),
                      " leaves the Controller no room to add SEs at the new settings until "
                      "running ones go.");
    }
  }
  if (vcpus.is_number()) {
    const sz::ServiceUnitSettings licence = LicenceSettingsOf(in.settings);
    out.service_units =
        ServiceUnitsOfRunning(in.ses, static_cast<int>(vcpus.get<double>()), licence);
    absl::StrAppend(
        &text, " The running SEs consume ", sz::FormatServiceUnits(out.service_units->running),
        ", and ", sz::FormatServiceUnits(out.service_units->replaced),
        " once replaced at the new settings (rule ", sz::rules::kServiceUnitsOfRunningSes, ")");
    if (const std::optional<double> planned = ServiceUnitsOfSettings(in.settings)) {
      absl::StrAppend(&text, "; sizing.service_units stays the planned ",
                      sz::FormatServiceUnits(*planned), " at max_se");
    }
    absl::StrAppend(&text, ".");
  }
  absl::StrAppend(&text,
                  " To bring them to the settings, replace them one at a time: disable an SE "
                  "(enable_state SE_STATE_DISABLED) so that its virtual services migrate, then "
                  "delete it, and the Controller places them on SEs of the new shape.");
  return text;
}

// The sentences about the SEs that wait for a reboot.
std::string RebootText(const SesBehindInput& in, const std::vector<const LaggingSe*>& ses,
                       const std::vector<std::string>& fields) {
  const std::string who = WhoText(in, ses);
  if (fields.empty()) {
    return absl::StrCat("The Controller reports a reboot pending on ", who,
                        " for a change of a reboot-only setting this configuration did not "
                        "make: they run with their old value until they reboot.");
  }
  return absl::StrCat(
      FieldsText(fields, in), " ", sz::Agree(fields.size(), "takes", "take"),
      " effect on running SEs only after an SE reboot: ", who,
      sz::Agree(static_cast<int64_t>(ses.size()), " needs a reboot before it runs with ",
                " need a reboot before they run with "),
      sz::Agree(fields.size(), "it", "them"),
      ". Reboot them one at a time (POST /api/serviceengine/<uuid>/reboot), or "
      "replace them.");
}

}  // namespace

std::optional<SesBehindFinding> SesBehindSettings(const SesBehindInput& in) {
  if (!in.ses.AnyLag()) return std::nullopt;
  std::vector<const LaggingSe*> reshaped;
  std::vector<const LaggingSe*> rebooting;
  std::set<std::string> shape_fields;
  std::set<std::string> reboot_fields;
  for (const LaggingSe& lag : in.ses.lagging) {
    if (lag.why == controller::TakesEffect::kNewSesOnly) {
      reshaped.push_back(&lag);
      shape_fields.insert(lag.fields.begin(), lag.fields.end());
    } else {
      rebooting.push_back(&lag);
      reboot_fields.insert(lag.fields.begin(), lag.fields.end());
    }
  }
  SesBehindFinding out;
  std::vector<std::string> parts;
  if (!reshaped.empty()) {
    std::vector<std::string> ordered;  // vcpus_per_se, memory_per_se, disk_per_se
    for (const std::string& name : ShapeFieldNames()) {
      if (shape_fields.count(name) > 0) ordered.push_back(name);
    }
    parts.push_back(NewSesOnlyText(in, reshaped, ordered, out));
  }
  if (!rebooting.empty()) {
    parts.push_back(RebootText(
        in, rebooting, std::vector<std::string>(reboot_fields.begin(), reboot_fields.end())));
  }
  std::set<std::string> all = shape_fields;
  all.insert(reboot_fields.begin(), reboot_fields.end());
  out.fields.assign(all.begin(), all.end());
  const size_t running = in.ses.running.size();
  out.finding.severity = sz::Severity::kWarning;
  out.finding.rule = sz::rules::kSesBehindSettings;
  out.finding.summary =
      absl::StrCat(in.ses.lagging.size(), " of ", in.group_name, "'s ",
                   sz::FormatCount(static_cast<int64_t>(running), "running SE", "running SEs"), " ",
                   sz::Agree(in.ses.lagging.size(), "lags", "lag"), " its settings");
  if (!in.roll_setting.empty()) {
    parts.push_back(absl::StrCat(
        "Or set ", in.roll_setting,
        " and apply does this for you: after writing the group it replaces or reboots each SE "
        "that lags, one at a time unless max_unavailable allows more, when the plan's decision "
        "(its upgrade, HA-mode, capacity, placement, licence and cloud guards) lets it roll."));
  }
  out.finding.detail = absl::StrJoin(parts, " ");
  return out;
}

}  // namespace nsxalb::segroup::lifecycle
