// Implementation of se_group_fields.h. Catalog rows follow avi-se-group-fields.md.
#include "plugin/controller/se_group_fields.h"

#include <algorithm>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace nsxalb::controller {
namespace {

using K = FieldKind;

constexpr std::string_view kHaModes =
    "HA_MODE_SHARED_PAIR,HA_MODE_SHARED,HA_MODE_LEGACY_ACTIVE_STANDBY";
constexpr std::string_view kHtModes =
    "SE_CPU_HT_AUTO,SE_CPU_HT_SPARSE_DISPATCHER_PRIORITY,SE_CPU_HT_SPARSE_PROXY_PRIORITY,"
    "SE_CPU_HT_PACKED_CORES";
constexpr std::string_view kLicenseTiers =
    "ENTERPRISE_16,ENTERPRISE,ENTERPRISE_18,BASIC,ESSENTIALS,ENTERPRISE_WITH_CLOUD_SERVICES";
constexpr std::string_view kLicenseTypes =
    "LIC_BACKEND_SERVERS,LIC_SOCKETS,LIC_CORES,LIC_HOSTS,LIC_SE_BANDWIDTH,"
    "LIC_METERED_SE_BANDWIDTH";
constexpr std::string_view kBandwidthTypes =
    "SE_BANDWIDTH_UNLIMITED,SE_BANDWIDTH_25M,SE_BANDWIDTH_200M,SE_BANDWIDTH_1000M,"
    "SE_BANDWIDTH_10000M";
constexpr std::string_view kRebalanceCriteria =
    "SE_AUTO_REBALANCE_CPU,SE_AUTO_REBALANCE_PPS,SE_AUTO_REBALANCE_MBPS,"
    "SE_AUTO_REBALANCE_OPEN_CONNS,SE_AUTO_REBALANCE_CPS";

std::vector<SeGroupField> BuildCatalog() {
  std::vector<SeGroupField> f = {
      // Identity.
      {"name", K::kString, "", "", "", "", false},
      {"description", K::kString, "", "", "", "", false},
      {"cloud_ref", K::kString, "", "", "", "", false},
      {"tenant_ref", K::kString, "", "", "", "", false},
      // Sizing.
      {"vcpus_per_se", K::kInteger, "", "", "", "", false},
      {"memory_per_se", K::kInteger, "", "2048-262144", "", "MB", false},
      {"disk_per_se", K::kInteger, "", "", "", "GB", false},
      {"mem_reserve", K::kBoolean, "", "", "", "", false},
      {"cpu_reserve", K::kBoolean, "", "", "", "", false},
      {"dedicated_dispatcher_core", K::kBoolean, "", "", "", "", false},
      {"num_dispatcher_cores", K::kInteger, "17.2.12,18.1.3,18.2.1", "0,1,2,4,8,16", "", "", true},
      {"max_queues_per_vnic", K::kInteger, "18.2.7,20.1.1", "0,1,2,4,8,16", "", "", false},
      {"hybrid_rss_mode", K::kBoolean, "21.1.3", "", "", "", true},
      {"num_dispatcher_queues", K::kInteger, "21.1.3", "1-2", "", "", false},
      {"max_num_se_dps", K::kInteger, "20.1.1", "1-128", "", "", false},
      {"se_dp_isolation", K::kBoolean, "20.1.4", "", "", "", true},
      // The swagger range is 1-8; 0 means "auto" (the Terraform provider's default).
      {"se_dp_isolation_num_non_dp_cpus", K::kInteger, "20.1.4", "0-8", "", "", true},
      {"use_hyperthreaded_cores", K::kBoolean, "20.1.1", "", "", "", true},
      {"se_hyperthreaded_mode", K::kString, "20.1.1", "", kHtModes, "", true},
      {"cpu_socket_affinity", K::kBoolean, "", "", "", "", false},
      {"se_thread_multiplier", K::kInteger, "", "1-10", "", "", false},
      {"async_ssl", K::kBoolean, "", "", "", "", true},
      {"async_ssl_threads", K::kInteger, "", "1-16", "", "", true},
      {"connection_memory_percentage", K::kInteger, "", "10-90", "", "PERCENT", false},
      {"app_cache_percent", K::kInteger, "18.2.3", "0-100", "", "PERCENT", true},
      {"app_cache_threshold", K::kInteger, "20.1.1", "", "", "GB", false},
      {"os_reserved_memory", K::kInteger, "", "", "", "MB", false},
      {"extra_shared_config_memory", K::kInteger, "17.1.1", "", "", "MB", false},
      {"extra_config_multiplier", K::kNumber, "", "", "", "", false},
      {"log_disksz", K::kInteger, "", "", "", "MB", false},
      {"instance_flavor", K::kString, "", "", "", "", false},
      // Capacity and HA.
      {"max_se", K::kInteger, "", "0-1000", "", "", false},
      {"min_se", K::kInteger, "17.2.13,18.1.3,18.2.1", "0-1000", "", "", false},
      {"max_vs_per_se", K::kInteger, "", "1-1000", "", "", false},
      {"buffer_se", K::kInteger, "", "", "", "", false},
      {"min_scaleout_per_vs", K::kInteger, "", "1-64", "", "", false},
      {"max_scaleout_per_vs", K::kInteger, "", "1-64", "", "", false},
      {"ha_mode", K::kString, "", "", kHaModes, "", false},
      {"algo", K::kString, "", "", "PLACEMENT_ALGO_PACKED,PLACEMENT_ALGO_DISTRIBUTED", "", false},
      {"placement_mode", K::kString, "", "", "PLACEMENT_MODE_AUTO", "", false},
      {"active_standby", K::kBoolean, "", "", "", "", false},
      {"distribute_load_active_standby", K::kBoolean, "", "", "", "", false},
      {"auto_redistribute_active_standby_load", K::kBoolean, "", "", "", "", false},
      {"aggressive_failure_detection", K::kBoolean, "", "", "", "", false},
      {"hm_on_standby", K::kBoolean, "", "", "", "", false},
      {"vs_host_redundancy", K::kBoolean, "", "", "", "", false},
      {"self_se_election", K::kBoolean, "18.1.2", "", "", "", false},
      {"auto_rebalance", K::kBoolean, "", "", "", "", false},
      {"auto_rebalance_interval", K::kInteger, "", "", "", "SEC", false},
      {"auto_rebalance_criteria", K::kArray, "17.2.3", "", kRebalanceCriteria, "", false},
      {"max_cpu_usage", K::kInteger, "", "40-90", "", "PERCENT", false},
      {"min_cpu_usage", K::kInteger, "", "20-60", "", "PERCENT", false},
      {"se_deprovision_delay", K::kInteger, "", "0-525600", "", "MIN", false},
      {"vs_scaleout_timeout", K::kInteger, "", "", "", "SEC", false},
      {"vs_scalein_timeout", K::kInteger, "", "", "", "SEC", false},
      {"use_dp_util_for_scaleout", K::kBoolean, "22.1.3", "", "", "", false},
      {"se_name_prefix", K::kString, "", "", "", "", false},
      {"per_app", K::kBoolean, "", "", "", "", false},
      // Placement scope.
      {"vcenter_folder", K::kString, "", "", "", "", false},
      {"vcenter_datastore_mode", K::kString, "", "",
       "VCENTER_DATASTORE_ANY,VCENTER_DATASTORE_LOCAL,VCENTER_DATASTORE_SHARED", "", false},
      {"vcenter_datastores", K::kArray, "", "", "", "", false},
      {"vcenter_datastores_include", K::kBoolean, "", "", "", "", false},
      {"vcenter_clusters", K::kObject, "", "", "", "", false},
      {"vcenter_hosts", K::kObject, "", "", "", "", false},
      {"vcenters", K::kArray, "20.1.1", "", "", "", false},
      {"vcenter_parking_vnic_pg", K::kString, "22.1.1", "", "", "", false},
      {"availability_zone_refs", K::kArray, "20.1.1", "", "", "", false},
      {"mgmt_network_ref", K::kString, "", "", "", "", false},
      {"labels", K::kArray, "20.1.1", "", "", "", false},
      {"markers", K::kArray, "20.1.7", "", "", "", false},
      {"path_mtu_discovery_v4", K::kBoolean, "30.2.1", "", "", "", false},
      // Licensing (computed by the Controller when unset).
      {"license_tier", K::kString, "17.2.5", "", kLicenseTiers, "", false},
      {"license_type", K::kString, "17.2.5", "", kLicenseTypes, "", false},
      {"se_bandwidth_type", K::kString, "17.2.5", "", kBandwidthTypes, "", false},
  };
  std::sort(f.begin(), f.end(),
            [](const SeGroupField& a, const SeGroupField& b) { return a.name < b.name; });
  return f;
}

const char* KindName(FieldKind kind) {
  switch (kind) {
    case K::kString:
      return "a string";
    case K::kInteger:
      return "an integer";
    case K::kNumber:
      return "a number";
    case K::kBoolean:
      return "a boolean";
    case K::kObject:
      return "an object";
    case K::kArray:
      return "a list";
  }
  return "a value";
}

bool KindMatches(FieldKind kind, const nlohmann::json& v) {
  switch (kind) {
    case K::kString:
      return v.is_string();
    case K::kInteger:
      return v.is_number_integer();
    case K::kNumber:
      return v.is_number();
    case K::kBoolean:
      return v.is_boolean();
    case K::kObject:
      return v.is_object();
    case K::kArray:
      return v.is_array();
  }
  return false;
}

bool InList(std::string_view list, std::string_view value) {
  for (absl::string_view item : absl::StrSplit(absl::string_view(list.data(), list.size()), ',')) {
    if (std::string_view(item.data(), item.size()) == value) return true;
  }
  return false;
}

// Checks an integer against "a-b" or "x,y,z".
bool IntegerAllowed(std::string_view allowed, int64_t v) {
  std::string spec(allowed);
  if (spec.find(',') != std::string::npos) {
    for (absl::string_view item : absl::StrSplit(spec, ',')) {
      int64_t x = 0;
      if (absl::SimpleAtoi(item, &x) && x == v) return true;
    }
    return false;
  }
  std::pair<std::string, std::string> range = absl::StrSplit(spec, absl::MaxSplits('-', 1));
  int64_t lo = 0, hi = 0;
  if (!absl::SimpleAtoi(range.first, &lo) || !absl::SimpleAtoi(range.second, &hi)) return true;
  return v >= lo && v <= hi;
}

absl::Status ValueError(const SeGroupField& f, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat("controller: ", std::string(f.name), " ", why));
}

}  // namespace

const std::vector<SeGroupField>& SeGroupFields() {
  static const std::vector<SeGroupField>* catalog = new std::vector<SeGroupField>(BuildCatalog());
  return *catalog;
}

const SeGroupField* FindSeGroupField(std::string_view name) {
  const auto& all = SeGroupFields();
  auto it = std::lower_bound(all.begin(), all.end(), name,
                             [](const SeGroupField& f, std::string_view n) { return f.name < n; });
  if (it == all.end() || it->name != name) return nullptr;
  return &*it;
}

absl::Status CheckFieldsAvailable(const nlohmann::json& fields, const ApiVersion& in_use) {
  if (!fields.is_object()) return absl::OkStatus();
  for (auto it = fields.begin(); it != fields.end(); ++it) {
    if (it.value().is_null()) continue;
    const SeGroupField* f = FindSeGroupField(it.key());
    if (f == nullptr || f->introduced.empty()) continue;
    auto introduced = IntroducedIn::Parse(f->introduced);
    if (!introduced.ok()) return introduced.status();
    if (introduced->AvailableIn(in_use)) continue;
    std::string needs = introduced->versions().size() == 1
                            ? absl::StrCat(introduced->Describe(), " or later")
                            : introduced->Describe();
    return absl::FailedPreconditionError(absl::StrCat(
        "controller: ", std::string(f->name), " needs Controller API version ", needs,
        "; the API version in use is ", in_use.ToString(),
        " (upgrade the Controller, raise api_version, or leave ", std::string(f->name), " unset)"));
  }
  return absl::OkStatus();
}

absl::Status ValidateFieldValues(const nlohmann::json& fields) {
  if (!fields.is_object()) {
    return absl::InvalidArgumentError("controller: SE group fields must be a JSON object");
  }
  for (auto it = fields.begin(); it != fields.end(); ++it) {
    const nlohmann::json& v = it.value();
    if (v.is_null()) continue;
    const SeGroupField* f = FindSeGroupField(it.key());
    if (f == nullptr) continue;
    if (!KindMatches(f->kind, v)) {
      return ValueError(*f, absl::StrCat("must be ", KindName(f->kind)));
    }
    if (f->kind == K::kInteger && !f->allowed.empty()) {
      int64_t n =
          v.is_number_unsigned() ? static_cast<int64_t>(v.get<uint64_t>()) : v.get<int64_t>();
      if (!IntegerAllowed(f->allowed, n)) {
        return ValueError(*f, absl::StrCat("is ", n, "; allowed: ", std::string(f->allowed),
                                           f->unit.empty() ? "" : " ", std::string(f->unit)));
      }
    }
    if (!f->enum_values.empty()) {
      auto check = [&](const nlohmann::json& s) -> absl::Status {
        if (!s.is_string() || !InList(f->enum_values, s.get<std::string>())) {
          return ValueError(
              *f,
              absl::StrCat("must be one of ",
                           absl::StrJoin(absl::StrSplit(std::string(f->enum_values), ','), ", ")));
        }
        return absl::OkStatus();
      };
      if (v.is_array()) {
        for (const auto& item : v) {
          if (absl::Status st = check(item); !st.ok()) return st;
        }
      } else if (absl::Status st = check(v); !st.ok()) {
        return st;
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace nsxalb::controller
