// Implementation of ses_view.h.
#include "plugin/segroup/lifecycle/ses_view.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/segroup/lifecycle/running_ses.h"
#include "plugin/sizing/format.h"

namespace nsxalb::segroup::lifecycle {
namespace {

using Json = nlohmann::json;

// A size, null when unknown (0).
Json SizeJson(int64_t value) { return value > 0 ? Json(value) : Json(nullptr); }

// A state, null when unknown ("").
Json StateJson(const std::string& value) { return value.empty() ? Json(nullptr) : Json(value); }

Json StringsJson(const std::vector<std::string>& items) {
  Json out = Json::array();
  for (const std::string& s : items) out.push_back(s);
  return out;
}

// The member `key` of `object` at `path`: a whole number from 0, or an error naming it.
absl::StatusOr<int64_t> WholeMember(const Json& object, const char* key, const std::string& path,
                                    bool null_is_zero) {
  auto it = object.find(key);
  if (it != object.end() && it->is_null() && null_is_zero) return 0;
  if (it == object.end() || !it->is_number() || it->get<double>() < 0 ||
      std::trunc(it->get<double>()) != it->get<double>() || it->get<double>() > 1e15) {
    return absl::InvalidArgumentError(absl::StrCat(path, ".", key, ": want a whole number"));
  }
  return static_cast<int64_t>(it->get<double>());
}

}  // namespace

GroupSes MatchListed(const std::vector<controller::ServiceEngine>& listed,
                     std::string_view group_uuid, const Json& settings) {
  return MatchSettings(RunningSesOf(listed, group_uuid), settings, RebootWait{});
}

const LaggingSe* LagOf(const GroupSes& ses, std::string_view uuid) {
  for (const LaggingSe& lag : ses.lagging) {
    if (lag.se.uuid == uuid) return &lag;
  }
  return nullptr;
}

Json SeMatchJson(const GroupSes& ses, std::string_view uuid) {
  const RunningSe* running = nullptr;
  for (const RunningSe& se : ses.running) {
    if (se.uuid == uuid) running = &se;
  }
  Json out = {{"disk_gb", nullptr}, {"enable_state", nullptr}, {"oper_state", nullptr},
              {"matches", nullptr}, {"why", nullptr},          {"fields", Json::array()}};
  if (running == nullptr) return out;
  out["disk_gb"] = SizeJson(running->disk_gb);
  out["enable_state"] = StateJson(running->enable_state);
  out["oper_state"] = StateJson(running->oper_state);
  const LaggingSe* lag = LagOf(ses, uuid);
  out["matches"] = lag == nullptr;
  if (lag != nullptr) {
    out["why"] = controller::TakesEffectName(lag->why);
    out["fields"] = StringsJson(lag->fields);
  }
  return out;
}

Json RunningSeJson(const GroupSes& ses, const RunningSe& se) {
  Json out = {{"uuid", se.uuid},
              {"name", se.name},
              {"vcpus", SizeJson(se.vcpus)},
              {"memory_mb", SizeJson(se.memory_mb)}};
  out.update(SeMatchJson(ses, se.uuid));
  return out;
}

Json RunningSesJson(const GroupSes& ses) {
  Json out = Json::array();
  for (const RunningSe& se : ses.running) out.push_back(RunningSeJson(ses, se));
  return out;
}

Json ServiceEnginesSummaryJson(const GroupSes& ses) {
  Json lagging = Json::array();
  for (const LaggingSe& lag : ses.lagging) {
    lagging.push_back({{"name", lag.se.name},
                       {"vcpus", SizeJson(lag.se.vcpus)},
                       {"memory_mb", SizeJson(lag.se.memory_mb)},
                       {"why", controller::TakesEffectName(lag.why)},
                       {"fields", StringsJson(lag.fields)}});
  }
  return {{"running", ses.running.size()},
          {"matching", ses.matching},
          {"lagging", std::move(lagging)},
          {"reboot_fields", StringsJson(ses.reboot_fields)}};
}

absl::StatusOr<std::vector<RunningSe>> RunningSesFromSummaryJson(const Json& summary,
                                                                 const Json& matched_settings) {
  const std::string path = "service_engines";
  if (!summary.is_object()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": want an object"));
  }
  absl::StatusOr<int64_t> running = WholeMember(summary, "running", path, false);
  if (!running.ok()) return running.status();
  absl::StatusOr<int64_t> matching = WholeMember(summary, "matching", path, false);
  if (!matching.ok()) return matching.status();
  std::vector<RunningSe> out;
  auto lagging = summary.find("lagging");
  if (lagging != summary.end() && !lagging->is_null() && !lagging->is_array()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ".lagging: want a list"));
  }
  if (lagging != summary.end() && lagging->is_array()) {
    for (size_t i = 0; i < lagging->size(); ++i) {
      const Json& item = (*lagging)[i];
      const std::string at = absl::StrCat(path, ".lagging[", i, "]");
      if (!item.is_object() || !item.contains("name") || !item["name"].is_string() ||
          !item.contains("why") || !item["why"].is_string()) {
        return absl::InvalidArgumentError(absl::StrCat(at, ": want an object with a name and why"));
      }
      RunningSe se;
      se.name = item["name"].get<std::string>();
      se.uuid = at;  // the summary names no uuid; unique within it
      absl::StatusOr<int64_t> vcpus = WholeMember(item, "vcpus", at, true);
      if (!vcpus.ok()) return vcpus.status();
      absl::StatusOr<int64_t> memory = WholeMember(item, "memory_mb", at, true);
      if (!memory.ok()) return memory.status();
      se.vcpus = static_cast<int>(*vcpus);
      se.memory_mb = *memory;
      const std::string why = item["why"].get<std::string>();
      if (why == controller::TakesEffectName(controller::TakesEffect::kAfterSeReboot)) {
        se.reboot_pending = true;
      } else if (why != controller::TakesEffectName(controller::TakesEffect::kNewSesOnly)) {
        return absl::InvalidArgumentError(
            absl::StrCat(at, ".why: want new-ses-only or after-se-reboot, got \"", why, "\""));
      }
      out.push_back(std::move(se));
    }
  }
  if (static_cast<int64_t>(out.size()) + *matching != *running) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": running (", *running,
                                                   ") is not matching (", *matching,
                                                   ") plus the lagging SEs (", out.size(), ")"));
  }
  const auto size = [&matched_settings](const char* name) -> int64_t {
    auto it = matched_settings.is_object() ? matched_settings.find(name) : matched_settings.end();
    if (!matched_settings.is_object() || it == matched_settings.end() || !it->is_number()) return 0;
    const double v = it->get<double>();
    return v >= 1 && v < 1e15 && std::trunc(v) == v ? static_cast<int64_t>(v) : 0;
  };
  for (int64_t i = 0; i < *matching; ++i) {
    RunningSe se;
    se.uuid = absl::StrCat(path, ".matching[", i, "]");
    se.name = absl::StrCat("SE #", i + 1);  // the summary names only the lagging SEs
    se.vcpus = static_cast<int>(size("vcpus_per_se"));
    se.memory_mb = size("memory_per_se");
    se.disk_gb = size("disk_per_se");
    out.push_back(std::move(se));
  }
  return out;
}

std::string ShapeText(const RunningSe& se) {
  std::vector<std::string> parts;
  if (se.vcpus > 0) parts.push_back(sizing::FormatVcpus(se.vcpus));
  if (se.memory_mb > 0) parts.push_back(absl::StrCat(sizing::FormatInt(se.memory_mb), " MB"));
  if (se.disk_gb > 0) parts.push_back(absl::StrCat(sizing::FormatInt(se.disk_gb), " GB disk"));
  return parts.empty() ? "size unknown" : absl::StrJoin(parts, ", ");
}

std::string MatchText(const GroupSes& ses, const RunningSe& se) {
  const LaggingSe* lag = LagOf(ses, se.uuid);
  if (lag == nullptr) return "matches the settings";
  return absl::StrCat("behind the settings: ", controller::TakesEffectName(lag->why), " (",
                      lag->fields.empty() ? "the Controller reports a reboot pending"
                                          : absl::StrJoin(lag->fields, ", "),
                      ")");
}

}  // namespace nsxalb::segroup::lifecycle
