// The emulated Controller's objects: tenants, clouds, Service Engine groups and Service Engines.
//
// Objects are JSON documents kept in creation order. References to a tenant, cloud or SE group
// are stored as the target's uuid and rendered as full URLs ("https://HOST:PORT/api/cloud/<uuid>",
// with "#<name>" on request) when an object leaves the store. Service Engines are created only
// through the control endpoint (CreateServiceEngines) and go when their group is deleted. Seed
// data: the "admin" tenant (uuid "admin"), "Default-Cloud" (CLOUD_VCENTER), "nsxt-cloud"
// (CLOUD_NSXT) and a "Default-Group" SE group in each cloud; Default-Group cannot be deleted. SE
// group names are unique within a tenant and cloud. Every method is thread-safe; persistence
// (--state) writes the whole store atomically.
#ifndef NSXALB_EMULATOR_STORE_H_
#define NSXALB_EMULATOR_STORE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "emulator/license.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/version.h"

namespace nsxalb::emulator {

// Object types the store knows ("tenant", "cloud", "serviceenginegroup", "serviceengine").
inline constexpr char kTenant[] = "tenant";
inline constexpr char kCloud[] = "cloud";
inline constexpr char kSeGroup[] = "serviceenginegroup";
inline constexpr char kServiceEngine[] = "serviceengine";

// How to render an object for a response.
struct RenderOptions {
  // "https://HOST:PORT", prefix of url and *_ref.
  std::string base_url;
  // Append "#<name>" to url and refs (include_name, and POST responses).
  bool include_name = false;
  // Leave out fields whose value is the default (skip_default=true); otherwise fill defaults in.
  bool skip_default = false;
  // The request's API version: fields introduced later are left out.
  controller::ApiVersion version;
  // If non-empty, only these fields (plus uuid and url) are returned (fields=a,b).
  std::vector<std::string> fields;
};

// Filter for listing objects.
struct ListFilter {
  // Tenant uuid, or "*" for every tenant. Tenants and clouds ignore it for "admin".
  std::string tenant_uuid = "admin";
  std::optional<std::string> name;
  std::optional<std::string> name_contains;
  std::optional<std::string> cloud_uuid;
  // refers_to=<type>:<uuid>: only objects with a *_ref to that object (e.g. the SEs of a group).
  std::optional<std::pair<std::string, std::string>> refers_to;
};

// Asked once for each SE about to be created, with what it will hold of the licence; an error
// refuses the SE (LicenseLedger::Admit).
using LicenseAdmission = std::function<absl::Status(const LicenseCharge&)>;

// The object database.
class Store {
 public:
  // Returns the current time; absl::Now in production.
  using Clock = std::function<int64_t()>;  // microseconds since the epoch

  explicit Store(Clock clock_micros);

  // Fills the seed objects (replacing everything).
  void Seed();

  // Replaces the contents with a file written by Save(). NotFound if the file does not exist.
  // `others`, when set, receives the file's objects of the types the store does not keep, by
  // type (the virtual services the SE lifecycle keeps); an empty object when there are none.
  absl::Status Load(const std::string& path, nlohmann::json* others = nullptr);

  // Writes every object to `path` (via a temporary file and rename), with `others` (by type, of
  // types the store does not keep) among them.
  absl::Status Save(const std::string& path,
                    const nlohmann::json& others = nlohmann::json::object());

  // The uuid of the tenant named `name_or_uuid` (either form is accepted); NotFound otherwise.
  absl::StatusOr<std::string> TenantUuid(const std::string& name_or_uuid);

  // Creates a tenant called `name` (for the control endpoint: a test's second tenant) and returns
  // its uuid ("tenant-<uuid4>"). InvalidArgument for an empty name, AlreadyExists when taken.
  absl::StatusOr<std::string> CreateTenant(const std::string& name);

  // One object by type and uuid, visible in `tenant_uuid` ("*" for all); NotFound otherwise.
  absl::StatusOr<nlohmann::json> Get(const std::string& type, const std::string& uuid,
                                     const std::string& tenant_uuid);

  // Objects of `type` matching `filter`, in creation order.
  std::vector<nlohmann::json> List(const std::string& type, const ListFilter& filter);

  // Creates an SE group from a request body already checked for versions and values.
  // tenant_ref / cloud_ref in the body may be any accepted ref form; when absent the request's
  // tenant and Default-Cloud are used. Errors: InvalidArgument (bad body or ref), AlreadyExists
  // (name taken in that tenant and cloud).
  absl::StatusOr<nlohmann::json> CreateSeGroup(const nlohmann::json& body,
                                               const std::string& tenant_uuid);

  // Replaces an SE group (PUT): omitted fields return to their defaults; uuid, tenant and cloud
  // cannot change. Errors as CreateSeGroup plus NotFound, and Aborted (the Controller's 412)
  // when `last_modified` (the _last_modified the writer read; nullptr when its write carries
  // none, which the Controller accepts) is older than the stored one: another writer changed
  // the group since it was read.
  absl::StatusOr<nlohmann::json> ReplaceSeGroup(const std::string& uuid, const nlohmann::json& body,
                                                const std::string& tenant_uuid,
                                                const nlohmann::json* last_modified = nullptr);

  // Another writer's change (the other_writer fault): sets `field` to `value` on SE group `uuid`
  // and gives it a new _last_modified. NotFound when absent.
  absl::Status TouchSeGroup(const std::string& uuid, const std::string& field, int value);

  // Deletes an SE group and its Service Engines; returns the uuids of the SEs deleted with it.
  // PermissionDenied for Default-Group, NotFound when absent.
  absl::StatusOr<std::vector<std::string>> DeleteSeGroup(const std::string& uuid,
                                                         const std::string& tenant_uuid);

  // Creates `count` Service Engines in the SE group `group_uuid` (any tenant) and returns their
  // uuids ("se-<uuid4>"). Each gets the group's cloud and tenant and `resources` {num_vcpus,
  // memory (MB), disk (GB)} from the group's vcpus_per_se, memory_per_se and disk_per_se, else
  // from `defaults` (the field catalog's); `vcpus`, when set, overrides num_vcpus. NotFound for
  // an unknown group. Each SE is first put to `admit` (when set) with its licence charge: its
  // tier (the group's license_tier, else its cloud's, else ENTERPRISE) and its units (the shared
  // rule, plugin/common/license_units.h, over its vCPUs and the group's max_num_se_dps and
  // per_app). The first refusal stops the creation: the SEs admitted before it stay (the group
  // stays under-sized, as on a Controller) and the refusal is returned, its message prefixed
  // with "created N of M Service Engines: ".
  absl::StatusOr<std::vector<std::string>> CreateServiceEngines(
      const std::string& group_uuid, int count, std::optional<int> vcpus,
      const nlohmann::json& defaults, const LicenseAdmission& admit = nullptr);

  // The licence charge of every Service Engine, as created (for LicenseLedger::Rebuild).
  std::vector<LicenseCharge> LicenseCharges();

  // Sets `fields` (top-level keys) on Service Engine `uuid` and gives it a new _last_modified.
  // NotFound when absent; Aborted (412) when `last_modified` (as ReplaceSeGroup) is stale.
  absl::StatusOr<nlohmann::json> UpdateServiceEngine(const std::string& uuid,
                                                     const nlohmann::json& fields,
                                                     const nlohmann::json* last_modified);

  // Deletes one Service Engine; NotFound when absent.
  absl::Status DeleteServiceEngine(const std::string& uuid);

  // Creates a cloud (control endpoint) and its Default-Group: `vtype` (e.g. CLOUD_NONE, a
  // no-access cloud) and, for CLOUD_VCENTER, vcenter_configuration.privilege. AlreadyExists when
  // the name is taken. Returns the cloud.
  absl::StatusOr<nlohmann::json> CreateCloud(const std::string& name, const std::string& vtype,
                                             const std::string& privilege);

  // Renders a stored object for a response.
  nlohmann::json Render(const std::string& type, const nlohmann::json& stored,
                        const RenderOptions& options);

  // Every object, keyed by type (for GET /_emulator/state).
  nlohmann::json Dump();

 private:
  struct Collection {
    std::map<uint64_t, nlohmann::json> by_seq;  // creation order
    std::map<std::string, uint64_t> seq_by_uuid;
  };

  // Resolves a ref in any accepted form to the uuid of an object of `type`.
  absl::StatusOr<std::string> ResolveRefLocked(const std::string& type, const std::string& field,
                                               const nlohmann::json& ref)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  nlohmann::json* FindLocked(const std::string& type, const std::string& uuid)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  nlohmann::json* FindByNameLocked(const std::string& type, const std::string& name)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void InsertLocked(const std::string& type, nlohmann::json object)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  std::string NextLastModifiedLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Checks name uniqueness and resolves refs of an SE group body into `out`.
  absl::Status PrepareSeGroupLocked(const nlohmann::json& body, const std::string& tenant_uuid,
                                    const std::string& self_uuid, nlohmann::json* out)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const Clock clock_micros_;
  // Serialises writers of the state file (they share its temporary file name).
  absl::Mutex save_mu_;
  absl::Mutex mu_;
  std::map<std::string, Collection> collections_ ABSL_GUARDED_BY(mu_);
  uint64_t next_seq_ ABSL_GUARDED_BY(mu_) = 1;
  int64_t last_modified_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace nsxalb::emulator

#endif  // NSXALB_EMULATOR_STORE_H_
