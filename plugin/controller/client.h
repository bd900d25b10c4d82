// The NSX ALB (Avi) Controller client: Service Engine group CRUD, cloud and tenant lookup, the
// Controller version, and the Service Engines of a group or a tenant and their metrics
// (analytics, parsed or streamed), over the Controller's REST API.
//
// One Client holds one login session for the whole process: the first call logs in (concurrent
// first calls share that single login), later calls reuse the session cookies and kept-alive
// connections, and a 401/419 triggers one re-login. Calls are safe from any number of threads.
// Failures retry with capped exponential backoff and jitter (connection errors, 429 honouring
// Retry-After, 502/503/504) within ClientConfig::total_timeout, one budget for each call of a
// method below, shared by every request that call makes. Errors are absl::Status values
// whose code says what the caller should do (see errors.h); they never contain the password or
// token. No Terraform types here: the provider layer converts.
#ifndef NSXALB_PLUGIN_CONTROLLER_CLIENT_H_
#define NSXALB_PLUGIN_CONTROLLER_CLIENT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/backoff.h"
#include "plugin/controller/config.h"
#include "plugin/controller/license_ledger.h"
#include "plugin/controller/se_inventory.h"
#include "plugin/controller/transport.h"
#include "plugin/controller/upgrade_status.h"
#include "plugin/controller/version.h"

namespace nsxalb::controller {

// A Service Engine group as the Controller returned it.
struct SeGroup {
  std::string uuid;
  std::string name;
  std::string url;         // the object's ref, "https://<ctrl>/api/serviceenginegroup/<uuid>"
  std::string tenant_ref;  // as returned
  std::string cloud_ref;   // as returned
  nlohmann::json body;     // the whole object, including fields the provider does not manage
};

// A Service Engine as the Controller returned it (GET /api/serviceengine): its real size.
struct ServiceEngine {
  std::string uuid;
  std::string name;
  std::string se_group_ref;
  int num_vcpus = 0;
  int64_t memory_mb = 0;
  int64_t disk_gb = 0;
  // enable_state as listed ("SE_STATE_ENABLED", "SE_STATE_DISABLED_FOR_PLACEMENT",
  // "SE_STATE_DISABLED", ...); "" when the listing has none.
  std::string enable_state;
  // runtime.oper_status.state, with join_subresources=runtime ("OPER_UP", "OPER_DISABLING", ...);
  // "" when the listing has none (unknown).
  std::string oper_state;
  // runtime.se_grp_reboot_pending: a change of the group's settings waits for this SE's reboot.
  // false when the listing says nothing (unknown counts as not pending).
  bool reboot_pending = false;
  nlohmann::json body;
};

// A Service Engine's operational state, GET /api/serviceengine/<uuid>/runtime (the swagger
// leaves its shape open; these members are read where present, see docs/emulator.md).
struct ServiceEngineRuntime {
  // oper_status.state: "OPER_UP", "OPER_DISABLING", "OPER_DISABLED", "OPER_DOWN", ...; "" when
  // the answer has none.
  std::string oper_state;
  // migrate_state, e.g. "SE_MIGRATE_STATE_STARTED"; "" when none.
  std::string migrate_state;
  // The last migration failed (MIGRATE_SE_FAILED): migrate_state
  // SE_MIGRATE_STATE_FINISHED_WITH_FAILURE, or an oper_status.reason starting MIGRATE_SE_FAILED.
  bool migration_failed = false;
  // The virtual services it hosts (the runtime's vs_refs, else the SE inventory's
  // config.vs_refs; each as its name when the ref carries one).
  std::vector<std::string> virtual_services;
  // se_grp_reboot_pending: the group has settings this SE takes only after a reboot.
  bool reboot_pending = false;
  nlohmann::json body;
};

// The enable_state values of a Service Engine (swagger ServiceEngine.enable_state).
inline constexpr char kSeStateEnabled[] = "SE_STATE_ENABLED";
inline constexpr char kSeStateDisabled[] = "SE_STATE_DISABLED";

// What to create or update.
struct SeGroupSpec {
  // The group's name (required).
  std::string name;
  // Tenant name or ref; empty means ClientConfig::tenant.
  std::string tenant;
  // Cloud name, uuid or ref; empty means the Controller's default (Default-Cloud) on create and
  // "unchanged" on update. Resolved to the cloud's ref before sending.
  std::string cloud;
  // Managed fields (a JSON object of Avi field name to value). On update these overlay the
  // current object; a null value removes the field so the Controller applies its default.
  nlohmann::json fields = nlohmann::json::object();
};

// A cloud, resolved from a name or ref or listed.
struct CloudInfo {
  std::string uuid;
  std::string name;
  std::string ref;    // the cloud's url, as the Controller forms it
  std::string vtype;  // e.g. "CLOUD_VCENTER", "CLOUD_NSXT", "CLOUD_NONE"
  // The cloud's license_tier (the tier its SE groups draw on unless they set their own); empty
  // when the Controller did not send it.
  std::string license_tier;
};

// A tenant, resolved from a name or ref.
struct TenantInfo {
  std::string uuid;
  std::string name;
  std::string ref;
};

// The Controller's version and the API version the client speaks (X-Avi-Version).
struct VersionInfo {
  ApiVersion controller;
  ApiVersion api;
};

// How many times UpdateSeGroup reads and writes a group the Controller keeps answering 412 for
// (another writer changed it between the read and the write): one try and two retries.
inline constexpr int kUpdateAttempts = 3;

// The Controller API, as the provider uses it. Implementations are thread-safe.
class Client {
 public:
  virtual ~Client() = default;

  // GET /api/serviceenginegroup/<uuid>. NotFound when there is no such group. `tenant` may be
  // empty (ClientConfig::tenant).
  virtual absl::StatusOr<SeGroup> GetSeGroup(std::string_view uuid, std::string_view tenant) = 0;

  // The group called `name` in `tenant` (empty: default) and `cloud` (name/uuid/ref; empty: any
  // cloud). std::nullopt when there is none; FailedPrecondition when several match (one name in
  // several clouds). Follows `next` across pages like ListSeGroups, so every match is seen.
  virtual absl::StatusOr<std::optional<SeGroup>> FindSeGroup(std::string_view name,
                                                             std::string_view tenant,
                                                             std::string_view cloud) = 0;

  // Every group in `tenant` (empty: default), optionally only those in `cloud`. Follows `next`
  // across pages.
  virtual absl::StatusOr<std::vector<SeGroup>> ListSeGroups(std::string_view tenant,
                                                            std::string_view cloud) = 0;

  // POST /api/serviceenginegroup. Checks field values and the version gate first. When the
  // outcome is unknown (the connection dropped after sending, a 502/503/504, or an answer that
  // could not be read), looks the group up by name in the cloud it was created in
  // (Default-Cloud when `spec.cloud` is empty) before retrying or giving up, so a group is never
  // created twice and a namesake in another cloud is never taken for it. A success whose answer
  // does not hold the group is read back (Location header, else by name); when that fails, the
  // error carries the new group's uuid (CreatedSeGroupUuid). A 409 is AlreadyExists.
  virtual absl::StatusOr<SeGroup> CreateSeGroup(const SeGroupSpec& spec) = 0;

  // Read-modify-write: GET the group, overlay `spec` (name, cloud, managed fields), keep every
  // other field, PUT with the _last_modified read. Returns the updated group. When the overlay
  // changes nothing, no PUT is sent and the group as read is returned. A 412 (another writer
  // changed the group between the GET and the PUT) starts over from the GET, so the other
  // writer's changes to fields `spec` does not hold are kept: at most kUpdateAttempts GET+PUT
  // pairs, then Aborted naming the group and the bound.
  virtual absl::StatusOr<SeGroup> UpdateSeGroup(std::string_view uuid, const SeGroupSpec& spec) = 0;

  // DELETE /api/serviceenginegroup/<uuid>. A group that is already gone (404) is success.
  virtual absl::Status DeleteSeGroup(std::string_view uuid, std::string_view tenant) = 0;

  // Looks up a cloud by name, uuid or ref. NotFound when there is none.
  virtual absl::StatusOr<CloudInfo> ResolveCloud(std::string_view cloud) = 0;

  // Every cloud the tenant (ClientConfig::tenant) can see, in the Controller's order. Follows
  // `next` across pages like ListSeGroups.
  virtual absl::StatusOr<std::vector<CloudInfo>> ListClouds() = 0;

  // Every tenant the user sees (one paged GET /api/tenant), in the Controller's order: the names
  // of an All Tenants estate's groups.
  virtual absl::StatusOr<std::vector<TenantInfo>> ListTenants() = 0;

  // Looks up a tenant by name, uuid or ref. NotFound when there is none.
  virtual absl::StatusOr<TenantInfo> ResolveTenant(std::string_view tenant) = 0;

  // The Service Engines of the SE group `se_group_uuid` (a uuid or ref) in `tenant` (empty:
  // default): one paged GET /api/serviceengine?refers_to=serviceenginegroup:<uuid>
  // &join_subresources=runtime, following `next` (enable_state, the oper state and the reboot
  // pending mapped as ListTenantServiceEngines maps them), keeping only the SEs whose se_group_ref
  // names that group. resources.num_vcpus, memory (MB) and disk (GB) become num_vcpus, memory_mb
  // and disk_gb (0 when absent); Internal when an SE has no uuid or a size that is not an integer.
  // An unknown group lists no SEs.
  virtual absl::StatusOr<std::vector<ServiceEngine>> ListServiceEngines(
      std::string_view se_group_uuid, std::string_view tenant) = 0;

  // One POST /api/analytics/metrics/collection of `request` ({"metric_requests": [MetricsQuery,
  // ...]}; InvalidArgument when it is not such an object) in `tenant` (empty: default); returns
  // the parsed answer, {"series": {<request id>: {<entity uuid>: [series, ...]}}}, unchecked
  // below its top level (Internal when it is not an object). The body goes through the same size
  // and nesting limits as every Controller answer; statuses map as errors.h says (400
  // InvalidArgument, 403 PermissionDenied, 404 NotFound, 502/503/504 Unavailable after the
  // retries). A read: retried like a GET.
  virtual absl::StatusOr<nlohmann::json> QueryMetricsCollection(const nlohmann::json& request,
                                                                std::string_view tenant) = 0;

  // One POST /api/analytics/metrics/collection of `request` (as QueryMetricsCollection checks
  // it), whose 2xx answer streams into `sink` chunk by chunk (the body is never held whole; at
  // most limits::kMaxStreamedResponseBytes). Statuses, retries and Cancel as
  // QueryMetricsCollection. The sink's error, if it returns one, is the call's error.
  virtual absl::Status StreamMetricsCollection(const nlohmann::json& request,
                                               std::string_view tenant, BodySink& sink) = 0;

  // Every Service Engine of `tenant` (empty: default), whatever its group: one paged
  // GET /api/serviceengine?fields=uuid,name,se_group_ref,resources,enable_state
  // &join_subresources=runtime (following `next`), mapped as ListServiceEngines maps them, with
  // enable_state, runtime.oper_status.state and runtime.se_grp_reboot_pending (absent or of
  // another type: unknown, not pending). For a whole estate: never a request per group.
  virtual absl::StatusOr<std::vector<ServiceEngine>> ListTenantServiceEngines(
      std::string_view tenant) = 0;

  // The licence ledger: one GET /api/licensing/ledger/details (a read, retried like every GET),
  // decoded as DecodeLicenseLedgerDetails says (Internal naming the field for a bad body).
  virtual absl::StatusOr<LicenseLedgerDetails> GetLicenseLedgerDetails() = 0;

  // GET /api/upgradestatusinfo, every page (a read, retried like every GET), decoded as
  // DecodeUpgradeStatus says (upgrade_status.h): which upgrade is unfinished, the system's or
  // which SE groups'. A 404 (a Controller without the API, before 18.2.6) is no error: the answer
  // has known = false and no nodes, and the caller says the upgrade state is unknown (a roll
  // should then go on only with that said; it cannot prove no upgrade runs). Other errors as
  // errors.h maps them (403 PermissionDenied: a user who may not read it).
  virtual absl::StatusOr<UpgradeStatus> GetUpgradeStatus() = 0;

  // The Controller's version and the API version in use (logs in when needed).
  virtual absl::StatusOr<VersionInfo> ControllerVersion() = 0;

  // Where the virtual services of the SE group `se_group_uuid` (a uuid or ref) sit, in `tenant`
  // (empty: default): one paged GET /api/serviceengine-inventory/?page_size=N&refers_to=
  // serviceenginegroup:<uuid>&include_name=true (following `next`), each entry decoded as
  // ToServiceEnginePlacement says (se_inventory.h: the SE's uuid, name, enable_state, oper
  // state, and the uuid and name of each virtual service in config.vs_refs), leaving out SEs
  // whose config.se_group_ref names another group (one without it is kept: the filter chose it),
  // in the Controller's order. An unknown group lists no SEs. InvalidArgument for an empty or
  // malformed group; other errors as errors.h maps them.
  virtual absl::StatusOr<std::vector<ServiceEnginePlacement>> ListServiceEnginePlacements(
      std::string_view se_group_uuid, std::string_view tenant) = 0;

  // --- One Service Engine (a roll of its group, plugin/segroup/lifecycle). ---

  // GET /api/serviceengine/<uuid> (a uuid or ref). NotFound when it is gone.
  virtual absl::StatusOr<ServiceEngine> GetServiceEngine(std::string_view uuid,
                                                         std::string_view tenant) = 0;

  // Sets the SE's enable_state (kSeStateEnabled, kSeStateDisabled, ...; InvalidArgument for
  // another value) as the vendor's own alert script does: GET the whole object and PUT it back
  // with the new value and the _last_modified read; no PUT when it has that value already. A 412
  // starts over from the GET, at most kUpdateAttempts times, then Aborted. NotFound when the SE
  // is gone. Returns the SE as written.
  virtual absl::StatusOr<ServiceEngine> SetServiceEngineEnableState(std::string_view uuid,
                                                                    std::string_view enable_state,
                                                                    std::string_view tenant) = 0;

  // GET /api/serviceengine/<uuid>/runtime: oper status, migration, reboot pending; and, when the
  // runtime does not list them, the virtual services from GET /api/serviceengine-inventory/<uuid>
  // (config.vs_refs; none when the inventory is not found). NotFound when the SE is gone.
  virtual absl::StatusOr<ServiceEngineRuntime> GetServiceEngineRuntime(std::string_view uuid,
                                                                       std::string_view tenant) = 0;

  // DELETE /api/serviceengine/<uuid>. Gone already (404) is success. The Controller's 409 (it
  // still hosts a virtual service) becomes FailedPrecondition naming the virtual services.
  virtual absl::Status DeleteServiceEngine(std::string_view uuid, std::string_view tenant) = 0;

  // POST /api/serviceengine/<uuid>/reboot. Not retried once it may have reached the Controller
  // (MayHaveTakenEffect then says so).
  virtual absl::Status RebootServiceEngine(std::string_view uuid, std::string_view tenant) = 0;

  // Terraform's Stop: in-flight and later calls return Cancelled promptly. Irreversible.
  virtual void Cancel() = 0;
};

// The uuid of the SE group that a failed CreateSeGroup did create (the Controller accepted the
// POST, but the group could not be read back), or "" when the error carries none. A caller that
// gets one should record the group, not forget it.
std::string CreatedSeGroupUuid(const absl::Status& status);

// Whether a failed CreateSeGroup may have created the group all the same: the call was
// cancelled after its request left, or its answer was lost and the look-up by name that would
// settle it failed. The caller should say so and how to adopt the group (terraform import).
bool MayHaveTakenEffect(const absl::Status& status);

// Test seams; production code passes the defaults.
struct ClientHooks {
  Clock* clock = nullptr;           // null: RealClock()
  JitterSource jitter;              // empty: DefaultJitter()
  TransportFactory transport = {};  // empty: CurlTransportFactory() (libcurl, curl_transport.h)
};

// Validates `config` (errors name the setting, see config.h) and builds a client. No network
// traffic happens until the first call. Logs a [WARN] when config.insecure is set.
absl::StatusOr<std::unique_ptr<Client>> NewClient(const ClientConfig& config,
                                                  ClientHooks hooks = {});

}  // namespace nsxalb::controller

#endif  // NSXALB_PLUGIN_CONTROLLER_CLIENT_H_
