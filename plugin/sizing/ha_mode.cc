#include "plugin/sizing/ha_mode.h"

#include <algorithm>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace nsxalb::sizing {

const char* HaModeName(HaMode mode) {
  switch (mode) {
    case HaMode::kShared:
      return "HA_MODE_SHARED";
    case HaMode::kSharedPair:
      return "HA_MODE_SHARED_PAIR";
    case HaMode::kLegacyActiveStandby:
      return "HA_MODE_LEGACY_ACTIVE_STANDBY";
  }
  return "HA_MODE_SHARED";
}

const char* HaModeShortName(HaMode mode) {
  switch (mode) {
    case HaMode::kShared:
      return "N+M";
    case HaMode::kSharedPair:
      return "active/active";
    case HaMode::kLegacyActiveStandby:
      return "active/standby";
  }
  return "N+M";
}

absl::StatusOr<HaMode> ParseHaMode(absl::string_view name) {
  for (HaMode mode : {HaMode::kShared, HaMode::kSharedPair, HaMode::kLegacyActiveStandby}) {
    if (name == HaModeName(mode)) return mode;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("ha_mode must be HA_MODE_SHARED, HA_MODE_SHARED_PAIR or "
                   "HA_MODE_LEGACY_ACTIVE_STANDBY, got \"",
                   std::string(name), "\""));
}

int MinActiveSes(HaMode mode) { return mode == HaMode::kSharedPair ? 2 : 1; }

int MinScaleoutOfMode(HaMode mode) { return mode == HaMode::kSharedPair ? 2 : 1; }

bool ScalesOut(HaMode mode) { return mode != HaMode::kLegacyActiveStandby; }

int GivenScaleoutInMode(HaMode mode, int given) {
  return ScalesOut(mode) ? std::max(given, MinScaleoutOfMode(mode)) : 1;
}

}  // namespace nsxalb::sizing
