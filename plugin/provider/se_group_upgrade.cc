// nsxalb_se_group's state from earlier schema versions: one explicit step per version.
#include "plugin/provider/se_group_upgrade.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "plugin/cty/json.h"
#include "plugin/provider/se_group_resource.h"
#include "plugin/segroup/sizing_plan.h"

namespace nsxalb::provider {
namespace {

using Json = nlohmann::json;

// Every attribute and block a version-0 state may hold: the 0.1.0 builds' last shape. The first
// 0.1.0 builds lacked max_vs_per_se, max_cpu_usage and observed_load.
constexpr std::array<std::string_view, 30> kVersion0Attributes = {
    // the group and how it is sized
    "id", "url", "name", "cloud", "tenant", "description", "platform", "sizing_policy",
    // the typed SE group fields
    "vcpus_per_se", "memory_per_se", "disk_per_se", "cpu_reserve", "mem_reserve",
    "dedicated_dispatcher_core", "num_dispatcher_cores", "max_queues_per_vnic", "hybrid_rss_mode",
    "min_scaleout_per_vs", "max_scaleout_per_vs", "max_se", "min_se", "buffer_se", "ha_mode",
    "max_vs_per_se", "max_cpu_usage", "se_name_prefix", "extra_fields",
    // computed, and the blocks
    "sizing", "workload", "observed_load"};

// Version 0 to version 1: the same attributes, those the state lacks null, and the `sizing` they
// recorded with its service_units.
absl::StatusOr<Json> FromVersion0(Json state) {
  for (auto it = state.begin(); it != state.end(); ++it) {
    if (std::find(kVersion0Attributes.begin(), kVersion0Attributes.end(), it.key()) ==
        kVersion0Attributes.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("attribute \"", it.key(), "\" is not one that version 0 (0.1.0) wrote"));
    }
  }
  auto observed = state.find("observed_load");
  if (observed != state.end() && observed->is_object() && !observed->contains("forecast_days")) {
    (*observed)["forecast_days"] = nullptr;
  }
  auto sizing = state.find("sizing");
  if (sizing != state.end() && sizing->is_object() && !sizing->contains("service_units")) {
    // What today's plan computes from what the state records (the planned vcpus_per_se and
    // max_se; version 0 had no licence settings), so that the plan keeps the recorded sizing.
    const std::optional<double> units = segroup::ServiceUnitsOfSettings(state);
    (*sizing)["service_units"] = units.has_value() ? Json(*units) : Json();
  }
  return state;
}

// Version 1 to version 2: the same attributes, and service_engines null, which the refresh that
// follows fills from the tenant's SE listing. A version-1 state that already holds one was not
// written by a version-1 build.
absl::StatusOr<Json> FromVersion1(Json state) {
  if (state.contains("service_engines")) {
    return absl::InvalidArgumentError(
        "attribute \"service_engines\" is not one that version 1 (0.2.0) wrote");
  }
  state["service_engines"] = nullptr;
  return state;
}

}  // namespace

absl::StatusOr<cty::Value> UpgradeSeGroupState(const framework::Block& block, int64_t version,
                                               std::string_view json) {
  Json state = Json::parse(json.begin(), json.end(), nullptr, /*allow_exceptions=*/false);
  if (!state.is_object()) {
    return absl::InvalidArgumentError("the stored state is not a JSON object");
  }
  switch (version) {
    case 0: {
      absl::StatusOr<Json> upgraded = FromVersion0(std::move(state));
      if (!upgraded.ok()) return upgraded.status();
      state = *std::move(upgraded);
      [[fallthrough]];
    }
    case 1: {
      absl::StatusOr<Json> upgraded = FromVersion1(std::move(state));
      if (!upgraded.ok()) return upgraded.status();
      state = *std::move(upgraded);
      break;
    }
    default:
      return absl::FailedPreconditionError(
          absl::StrCat("no upgrade from schema version ", version));
  }
  return cty::DecodeJson(state.dump(), framework::ImpliedType(block));
}

void SeGroupResource::UpgradeState(const framework::UpgradeStateRequest& request,
                                   framework::UpgradeStateResponse& response) {
  absl::StatusOr<cty::Value> upgraded =
      UpgradeSeGroupState(GetSchema().block, request.version, request.raw_state_json);
  if (!upgraded.ok()) {
    response.diagnostics.AddError(
        "Unable to upgrade the SE group's state",
        absl::StrCat("The state of this ", kSeGroupResourceType,
                     " was written with schema version ", request.version,
                     " and cannot be upgraded: ", upgraded.status().message(),
                     ". Remove it from the state (terraform state rm) and import the group again "
                     "(terraform import)."));
    return;
  }
  response.upgraded_state = *std::move(upgraded);
}

}  // namespace nsxalb::provider
