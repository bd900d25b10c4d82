// Implementation of match.h.
#include "plugin/segroup/lifecycle/match.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <set>
#include <utility>

namespace nsxalb::segroup::lifecycle {
namespace {

using Json = nlohmann::json;

// A whole-number setting, or nullopt.
std::optional<int64_t> Whole(const Json& settings, const std::string& name) {
  if (!settings.is_object()) return std::nullopt;
  auto it = settings.find(name);
  if (it == settings.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>();
  if (v != std::floor(v) || v < 0 || v > 1e15) return std::nullopt;
  return static_cast<int64_t>(v);
}

}  // namespace

Json MemberOrNull(const Json& j, const std::string& name) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(name);
  return it == j.end() ? Json() : *it;
}

const std::vector<std::string>& ShapeFieldNames() {
  static const auto* const kNames =
      new std::vector<std::string>{"vcpus_per_se", "memory_per_se", "disk_per_se"};
  return *kNames;
}

GroupSes MatchSettings(std::vector<RunningSe> ses, const Json& settings, const RebootWait& reboot) {
  GroupSes out;
  std::set<std::string> waited;
  const std::set<std::string> now(reboot.changed_now.begin(), reboot.changed_now.end());
  for (const RunningSe& se : ses) {
    const int64_t real[] = {se.vcpus, se.memory_mb, se.disk_gb};
    std::vector<std::string> shape;
    for (size_t i = 0; i < ShapeFieldNames().size(); ++i) {
      const std::optional<int64_t> want = Whole(settings, ShapeFieldNames()[i]);
      if (want.has_value() && real[i] > 0 && real[i] != *want) {
        shape.push_back(ShapeFieldNames()[i]);
      }
    }
    std::set<std::string> reboot_fields = now;
    if (se.reboot_pending) reboot_fields.insert(reboot.recorded.begin(), reboot.recorded.end());
    waited.insert(reboot_fields.begin(), reboot_fields.end());
    if (!shape.empty()) {
      out.lagging.push_back({se, controller::TakesEffect::kNewSesOnly, std::move(shape)});
    } else if (!reboot_fields.empty() || se.reboot_pending) {
      out.lagging.push_back({se, controller::TakesEffect::kAfterSeReboot,
                             std::vector<std::string>(reboot_fields.begin(), reboot_fields.end())});
    } else {
      ++out.matching;
    }
  }
  out.reboot_fields.assign(waited.begin(), waited.end());
  out.running = std::move(ses);
  return out;
}

std::vector<std::string> ChangedFieldsOfClass(const std::vector<std::string>& names,
                                              const Json& before, const Json& after,
                                              controller::TakesEffect effect) {
  std::set<std::string> out;
  for (const std::string& name : names) {
    if (controller::TakesEffectOf(name) != effect) continue;
    if (MemberOrNull(before, name) != MemberOrNull(after, name)) out.insert(name);
  }
  return std::vector<std::string>(out.begin(), out.end());
}

}  // namespace nsxalb::segroup::lifecycle
