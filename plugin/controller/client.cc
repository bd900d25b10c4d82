// Implementation of client.h: the SE group operations and the cloud and tenant lookups. The
// session is session.h's, the retry loop request_loop.h's, paging listing.h's, and the Service
// Engine and metrics calls analytics.h's.
#include "plugin/controller/client.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/cord.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "plugin/common/limits.h"
#include "plugin/common/log.h"
#include "plugin/common/status_macros.h"
#include "plugin/controller/analytics.h"
#include "plugin/controller/call.h"
#include "plugin/controller/curl_transport.h"
#include "plugin/controller/errors.h"
#include "plugin/controller/listing.h"
#include "plugin/controller/refs.h"
#include "plugin/controller/request_loop.h"
#include "plugin/controller/response.h"
#include "plugin/controller/se_group_fields.h"
#include "plugin/controller/se_operations.h"

namespace nsxalb::controller {
namespace {

using Json = nlohmann::json;

constexpr char kSeGroupPath[] = "/api/serviceenginegroup";
constexpr char kCloudPath[] = "/api/cloud";
constexpr char kTenantPath[] = "/api/tenant";
constexpr char kLicenseLedgerPath[] = "/api/licensing/ledger/details";
constexpr char kUpgradeStatusPath[] = "/api/upgradestatusinfo";
constexpr char kSeInventoryPath[] = "/api/serviceengine-inventory/";
// The cloud a group created without a cloud_ref lands in.
constexpr char kDefaultCloud[] = "Default-Cloud";
using internal::Call;
using internal::Dump;
using internal::ForEachListed;
using internal::IdFromRefOrUuid;
using internal::kCreatedUuidPayload;
using internal::kMayHaveTakenEffectPayload;
using internal::MakeCall;

class ClientImpl;

// The operation the calling thread is in: the client whose public method was called first, and
// that operation's deadline. Nested public calls (a create's cloud lookup, its look-up before a
// retry) run on the same thread and share the deadline, so one operation, however many requests
// it makes, stays within total_timeout.
struct CurrentOperation {
  const ClientImpl* client = nullptr;
  absl::Time deadline;
};
thread_local CurrentOperation current_operation;

class ClientImpl : public Client {
 public:
  ClientImpl(ClientConfig config, Endpoint endpoint, std::optional<ApiVersion> configured,
             ClientHooks hooks)
      : loop_(std::move(config), std::move(endpoint), std::move(configured),
              hooks.clock != nullptr ? hooks.clock : RealClock(),
              hooks.jitter ? std::move(hooks.jitter) : DefaultJitter(),
              hooks.transport ? std::move(hooks.transport) : CurlTransportFactory()),
        config_(loop_.config()),
        endpoint_(loop_.endpoint()) {}

  absl::StatusOr<SeGroup> GetSeGroup(std::string_view uuid, std::string_view tenant) override {
    OperationScope operation(this);
    NSXALB_ASSIGN_OR_RETURN(auto id, IdFromRefOrUuid(uuid, "serviceenginegroup", "uuid"));
    Call call = MakeCall("GET", absl::StrCat(kSeGroupPath, "/", UrlEncode(id)), tenant);
    NSXALB_ASSIGN_OR_RETURN(auto response, loop_.Send(call, Deadline()));
    NSXALB_ASSIGN_OR_RETURN(auto body, ParseBody(response, call.what));
    return ToSeGroup(std::move(body), call.what);
  }

  absl::StatusOr<std::optional<SeGroup>> FindSeGroup(std::string_view name, std::string_view tenant,
                                                     std::string_view cloud) override {
    OperationScope operation(this);
    if (name.empty()) return absl::InvalidArgumentError("controller: name is required");
    NSXALB_ASSIGN_OR_RETURN(auto matches, ListSeGroupsNamed(name, tenant, cloud));
    if (matches.empty()) return std::optional<SeGroup>();
    if (matches.size() > 1) {
      return absl::FailedPreconditionError(
          absl::StrCat("controller: ", matches.size(), " SE groups are named \"", std::string(name),
                       "\"; name the cloud to choose one"));
    }
    return std::optional<SeGroup>(std::move(matches.front()));
  }

  absl::StatusOr<std::vector<SeGroup>> ListSeGroups(std::string_view tenant,
                                                    std::string_view cloud) override {
    OperationScope operation(this);
    return ListSeGroupsNamed("", tenant, cloud);
  }

  absl::StatusOr<SeGroup> CreateSeGroup(const SeGroupSpec& spec) override {
    OperationScope operation(this);
    NSXALB_RETURN_IF_ERROR(CheckSpec(spec));
    NSXALB_ASSIGN_OR_RETURN(auto session, loop_.EnsureSession(Deadline()));
    NSXALB_RETURN_IF_ERROR(CheckFieldsAvailable(spec.fields, session->api_version));
    Json body = Json::object();
    for (auto it = spec.fields.begin(); it != spec.fields.end(); ++it) {
      if (!it.value().is_null()) body[it.key()] = it.value();
    }
    body["name"] = spec.name;
    if (!spec.cloud.empty()) {
      NSXALB_ASSIGN_OR_RETURN(auto cloud, ResolveCloud(spec.cloud));
      body["cloud_ref"] = cloud.ref;
    }
    Call call = MakeCall("POST", kSeGroupPath, spec.tenant);
    call.body = Dump(body);
    call.has_body = true;
    call.idempotent = false;
    call.find_outcome = [this, &spec]() -> absl::StatusOr<std::optional<Json>> {
      // Only the cloud the group was created in: a group of the same name in another cloud is
      // not this create's effect.
      NSXALB_ASSIGN_OR_RETURN(
          auto found,
          FindSeGroup(spec.name, spec.tenant, spec.cloud.empty() ? kDefaultCloud : spec.cloud));
      if (!found.has_value()) return std::optional<Json>();
      log::Info(absl::StrCat("controller: SE group \"", spec.name,
                             "\" exists after an interrupted create; not creating it again"));
      return std::optional<Json>(found->body);
    };
    NSXALB_ASSIGN_OR_RETURN(auto response, loop_.Send(call, Deadline()));
    return CreatedGroup(response, call, spec);
  }

  absl::StatusOr<SeGroup> UpdateSeGroup(std::string_view uuid, const SeGroupSpec& spec) override {
    OperationScope operation(this);
    NSXALB_RETURN_IF_ERROR(CheckSpec(spec));
    NSXALB_ASSIGN_OR_RETURN(auto session, loop_.EnsureSession(Deadline()));
    NSXALB_RETURN_IF_ERROR(CheckFieldsAvailable(spec.fields, session->api_version));
    std::optional<CloudInfo> cloud;
    if (!spec.cloud.empty()) {
      NSXALB_ASSIGN_OR_RETURN(auto resolved, ResolveCloud(spec.cloud));
      cloud = std::move(resolved);
    }
    // Optimistic concurrency: the PUT carries the _last_modified of the GET, and the Controller
    // answers 412 when another writer changed the group in between. The overlay is then applied
    // again to the group as it is now, so the other writer's changes to fields this spec does
    // not hold survive, up to kUpdateAttempts times.
    absl::Status stale;
    for (int attempt = 1; attempt <= kUpdateAttempts; ++attempt) {
      NSXALB_ASSIGN_OR_RETURN(auto current, GetSeGroup(uuid, spec.tenant));
      Json body = OverlaySpec(current.body, spec, cloud);
      // Nothing would change on the Controller (numbers compare by value): no PUT. Such an
      // update records only what lives in the state alone, e.g. the workload or extra_fields
      // the group already has after an import.
      if (body == current.body) return current;
      Call call =
          MakeCall("PUT", absl::StrCat(kSeGroupPath, "/", UrlEncode(current.uuid)), spec.tenant);
      call.body = Dump(body);
      call.has_body = true;
      auto response = loop_.Send(call, Deadline());
      if (response.ok()) return GroupFromWriteResponse(*response, call.what, spec.tenant);
      if (response.status().code() != absl::StatusCode::kAborted) return response.status();
      stale = response.status();
      log::Info(absl::StrCat("controller: SE group \"", spec.name,
                             "\" changed on the Controller since it was read (412); reading it "
                             "again (attempt ",
                             attempt, " of ", kUpdateAttempts, ")"));
    }
    return absl::AbortedError(absl::StrCat(
        "controller: SE group \"", spec.name, "\" was changed by another writer between each of ",
        kUpdateAttempts,
        " reads and the update that followed it (the Controller answered 412 Precondition "
        "Failed every time); nothing was written. Run the update again once the other writer "
        "(UI, script, pipeline) is done. Last answer: ",
        stale.message()));
  }

  // `current` with `spec` laid over it: the managed fields (null removes one), the name, and
  // the cloud ref when the group is not in `cloud` already.
  static Json OverlaySpec(const Json& current, const SeGroupSpec& spec,
                          const std::optional<CloudInfo>& cloud) {
    Json body = current;
    for (auto it = spec.fields.begin(); it != spec.fields.end(); ++it) {
      if (it.value().is_null()) {
        body.erase(it.key());
      } else {
        body[it.key()] = it.value();
      }
    }
    body["name"] = spec.name;
    if (cloud.has_value() && !InCloud(body, cloud->uuid)) body["cloud_ref"] = cloud->ref;
    return body;
  }

  absl::Status DeleteSeGroup(std::string_view uuid, std::string_view tenant) override {
    OperationScope operation(this);
    NSXALB_ASSIGN_OR_RETURN(auto id, IdFromRefOrUuid(uuid, "serviceenginegroup", "uuid"));
    Call call = MakeCall("DELETE", absl::StrCat(kSeGroupPath, "/", UrlEncode(id)), tenant);
    auto response = loop_.Send(call, Deadline());
    if (!response.ok() && response.status().code() == absl::StatusCode::kNotFound) {
      return absl::OkStatus();  // already gone
    }
    return response.status();
  }

  absl::StatusOr<CloudInfo> ResolveCloud(std::string_view cloud) override {
    OperationScope operation(this);
    return ResolveCached<CloudInfo>(cloud, "cloud", clouds_,
                                    [this](Json& obj) { return ToCloudInfo(obj, "cloud"); });
  }

  absl::StatusOr<std::vector<CloudInfo>> ListClouds() override {
    OperationScope operation(this);
    std::vector<CloudInfo> out;
    NSXALB_RETURN_IF_ERROR(ForEachListed(
        loop_, Deadline(), absl::StrCat(kCloudPath, "?page_size=", config_.page_size), "", "clouds",
        [this, &out](Json& item, const std::string& what) -> absl::Status {
          NSXALB_ASSIGN_OR_RETURN(CloudInfo info, ToCloudInfo(item, what));
          out.push_back(std::move(info));
          return absl::OkStatus();
        }));
    return out;
  }

  absl::StatusOr<std::vector<TenantInfo>> ListTenants() override {
    OperationScope operation(this);
    std::vector<TenantInfo> out;
    NSXALB_RETURN_IF_ERROR(ForEachListed(
        loop_, Deadline(), absl::StrCat(kTenantPath, "?page_size=", config_.page_size), "",
        "tenants", [this, &out](Json& item, const std::string&) -> absl::Status {
          TenantInfo info{StringMember(item, "uuid"), StringMember(item, "name"),
                          StringMember(item, "url")};
          if (info.ref.empty()) {
            info.ref = absl::StrCat(endpoint_.base_url, kTenantPath, "/", info.uuid);
          }
          out.push_back(std::move(info));
          return absl::OkStatus();
        }));
    return out;
  }

  absl::StatusOr<TenantInfo> ResolveTenant(std::string_view tenant) override {
    OperationScope operation(this);
    return ResolveCached<TenantInfo>(
        tenant, "tenant", tenants_, [this](Json& obj) -> absl::StatusOr<TenantInfo> {
          TenantInfo info{StringMember(obj, "uuid"), StringMember(obj, "name"),
                          StringMember(obj, "url")};
          if (info.ref.empty()) {
            info.ref = absl::StrCat(endpoint_.base_url, "/api/tenant/", info.uuid);
          }
          return info;
        });
  }

  // Looks up `text` (a name, uuid or ref of a `type` object) once per client; later calls with
  // the same object are answered from `cache`. `convert` turns the Controller's object into Info.
  // Single-flight: Terraform plans and applies resources in parallel, so the first calls for one
  // cloud arrive together; one of them asks the Controller while the others wait for its answer
  // (if it fails, the next waiter asks in turn).
  template <typename Info, typename Convert>
  absl::StatusOr<Info> ResolveCached(std::string_view text, const char* type,
                                     std::map<std::string, Info>& cache, Convert convert) {
    NSXALB_ASSIGN_OR_RETURN(auto ref, ParseRef(text, type, type));
    const std::string key = ref.Normalized();
    const std::string flight = absl::StrCat(type, "\n", key);
    {
      absl::MutexLock lock(&cache_mu_);
      const auto answered_or_free = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(cache_mu_) {
        return cache.count(key) > 0 || resolving_.count(flight) == 0;
      };
      cache_mu_.Await(absl::Condition(&answered_or_free));
      if (auto it = cache.find(key); it != cache.end()) return it->second;
      resolving_.insert(flight);
    }
    absl::StatusOr<Info> info = [&]() -> absl::StatusOr<Info> {
      NSXALB_ASSIGN_OR_RETURN(auto obj, LookUp(ref, type));
      return convert(obj);
    }();
    absl::MutexLock lock(&cache_mu_);
    resolving_.erase(flight);
    if (info.ok()) cache[key] = *info;
    return info;
  }

  absl::StatusOr<std::vector<ServiceEngine>> ListServiceEngines(std::string_view se_group_uuid,
                                                                std::string_view tenant) override {
    OperationScope operation(this);
    return internal::ListServiceEngines(loop_, Deadline(), config_.page_size, se_group_uuid,
                                        tenant);
  }

  absl::StatusOr<Json> QueryMetricsCollection(const Json& request,
                                              std::string_view tenant) override {
    OperationScope operation(this);
    return internal::QueryMetricsCollection(loop_, Deadline(), request, tenant);
  }

  absl::Status StreamMetricsCollection(const Json& request, std::string_view tenant,
                                       BodySink& sink) override {
    OperationScope operation(this);
    return internal::StreamMetricsCollection(loop_, Deadline(), request, tenant, sink);
  }

  absl::StatusOr<std::vector<ServiceEngine>> ListTenantServiceEngines(
      std::string_view tenant) override {
    OperationScope operation(this);
    return internal::ListTenantServiceEngines(loop_, Deadline(), config_.page_size, tenant);
  }

  absl::StatusOr<LicenseLedgerDetails> GetLicenseLedgerDetails() override {
    OperationScope operation(this);
    Call call = MakeCall("GET", kLicenseLedgerPath, "");
    NSXALB_ASSIGN_OR_RETURN(auto response, loop_.Send(call, Deadline()));
    NSXALB_ASSIGN_OR_RETURN(auto body, ParseBody(response, call.what));
    return DecodeLicenseLedgerDetails(body);
  }

  absl::StatusOr<UpgradeStatus> GetUpgradeStatus() override {
    OperationScope operation(this);
    std::vector<Json> entries;
    absl::Status listed = ForEachListed(
        loop_, Deadline(), absl::StrCat(kUpgradeStatusPath, "?page_size=", config_.page_size), "",
        "upgrade status", [&entries](Json& item, const std::string&) -> absl::Status {
          entries.push_back(std::move(item));
          return absl::OkStatus();
        });
    if (absl::IsNotFound(listed)) {
      log::Info("controller: GET /api/upgradestatusinfo is 404: the upgrade state is unknown");
      return UpgradeStatus{};
    }
    NSXALB_RETURN_IF_ERROR(listed);
    return DecodeUpgradeStatus(entries);
  }

  absl::StatusOr<std::vector<ServiceEnginePlacement>> ListServiceEnginePlacements(
      std::string_view se_group_uuid, std::string_view tenant) override {
    OperationScope operation(this);
    NSXALB_ASSIGN_OR_RETURN(auto group,
                            IdFromRefOrUuid(se_group_uuid, "serviceenginegroup", "se_group_uuid"));
    std::string path = absl::StrCat(
        kSeInventoryPath, "?page_size=", config_.page_size,
        "&refers_to=", UrlEncode(absl::StrCat("serviceenginegroup:", group)), "&include_name=true");
    std::vector<ServiceEnginePlacement> out;
    NSXALB_RETURN_IF_ERROR(
        ForEachListed(loop_, Deadline(), std::move(path), tenant, "the SE inventory",
                      [&out, &group](Json& item, const std::string& what) -> absl::Status {
                        NSXALB_ASSIGN_OR_RETURN(auto se, ToServiceEnginePlacement(item, what));
                        // The Controller filters by refers_to: an entry naming another group
                        // is left out (a Controller that ignored it), one naming none is kept.
                        auto ref = ParseRef(se.se_group_ref, "serviceenginegroup", "se_group_ref");
                        if (se.se_group_ref.empty() || (ref.ok() && ref->uuid == group)) {
                          out.push_back(std::move(se));
                        }
                        return absl::OkStatus();
                      }));
    return out;
  }

  absl::StatusOr<VersionInfo> ControllerVersion() override {
    OperationScope operation(this);
    NSXALB_ASSIGN_OR_RETURN(auto session, loop_.EnsureSession(Deadline()));
    return VersionInfo{session->controller_version, session->api_version};
  }

  absl::StatusOr<ServiceEngine> GetServiceEngine(std::string_view uuid,
                                                 std::string_view tenant) override {
    OperationScope operation(this);
    return internal::GetServiceEngine(loop_, Deadline(), uuid, tenant);
  }

  absl::StatusOr<ServiceEngine> SetServiceEngineEnableState(std::string_view uuid,
                                                            std::string_view enable_state,
                                                            std::string_view tenant) override {
    OperationScope operation(this);
    return internal::SetServiceEngineEnableState(loop_, Deadline(), uuid, enable_state, tenant);
  }

  absl::StatusOr<ServiceEngineRuntime> GetServiceEngineRuntime(std::string_view uuid,
                                                               std::string_view tenant) override {
    OperationScope operation(this);
    return internal::GetServiceEngineRuntime(loop_, Deadline(), uuid, tenant);
  }

  absl::Status DeleteServiceEngine(std::string_view uuid, std::string_view tenant) override {
    OperationScope operation(this);
    return internal::DeleteServiceEngine(loop_, Deadline(), uuid, tenant);
  }

  absl::Status RebootServiceEngine(std::string_view uuid, std::string_view tenant) override {
    OperationScope operation(this);
    return internal::RebootServiceEngine(loop_, Deadline(), uuid, tenant);
  }

  void Cancel() override { loop_.Cancel(); }

 private:
  // The deadline of the calling thread's operation on this client (see OperationScope).
  absl::Time Deadline() const {
    if (current_operation.client == this) return current_operation.deadline;
    return loop_.clock()->Now() + config_.total_timeout;
  }

  // Opened first thing by every public method: the outermost one starts the operation's
  // total_timeout; nested ones join it.
  class OperationScope {
   public:
    explicit OperationScope(const ClientImpl* client) {
      if (current_operation.client != nullptr) return;
      current_operation = {client, client->loop_.clock()->Now() + client->config_.total_timeout};
      outermost_ = true;
    }
    ~OperationScope() {
      if (outermost_) current_operation = {};
    }
    OperationScope(const OperationScope&) = delete;
    OperationScope& operator=(const OperationScope&) = delete;

   private:
    bool outermost_ = false;
  };

  static absl::Status CheckSpec(const SeGroupSpec& spec) {
    if (spec.name.empty()) return absl::InvalidArgumentError("controller: name is required");
    if (!spec.fields.is_object()) {
      return absl::InvalidArgumentError("controller: SE group fields must be a JSON object");
    }
    for (const char* reserved : {"name", "uuid", "url", "_last_modified"}) {
      if (spec.fields.contains(reserved)) {
        return absl::InvalidArgumentError(
            absl::StrCat("controller: ", reserved,
                         " cannot be set as a field (it is set by the client "
                         "or the Controller)"));
      }
    }
    return ValidateFieldValues(spec.fields);
  }

  static bool InCloud(const Json& group, const std::string& cloud_uuid) {
    std::string ref = StringMember(group, "cloud_ref");
    if (ref.empty()) return false;
    auto parsed = ParseRef(ref, "cloud", "cloud_ref");
    return parsed.ok() && parsed->uuid == cloud_uuid;
  }

  // The groups in `tenant` (empty: default), and in `cloud` when it is not empty, called `name`
  // (any name when empty), from every page of the listing. The Controller filters by name and
  // cloud; both are checked again here.
  absl::StatusOr<std::vector<SeGroup>> ListSeGroupsNamed(std::string_view name,
                                                         std::string_view tenant,
                                                         std::string_view cloud) {
    std::string path = absl::StrCat(kSeGroupPath, "?page_size=", config_.page_size);
    if (!name.empty()) absl::StrAppend(&path, "&name=", UrlEncode(name));
    std::string cloud_uuid;
    if (!cloud.empty()) {
      NSXALB_ASSIGN_OR_RETURN(auto info, ResolveCloud(cloud));
      cloud_uuid = info.uuid;
      absl::StrAppend(&path, "&cloud_ref.uuid=", UrlEncode(cloud_uuid));
    }
    std::vector<SeGroup> out;
    NSXALB_RETURN_IF_ERROR(ForEachListed(
        loop_, Deadline(), std::move(path), tenant, "SE groups",
        [&out, name, &cloud_uuid](Json& item, const std::string& what) -> absl::Status {
          if (!name.empty() && StringMember(item, "name") != name) return absl::OkStatus();
          if (!cloud_uuid.empty() && !InCloud(item, cloud_uuid)) {
            return absl::OkStatus();  // in another cloud
          }
          NSXALB_ASSIGN_OR_RETURN(auto g, ToSeGroup(std::move(item), what));
          out.push_back(std::move(g));
          return absl::OkStatus();
        }));
    return out;
  }

  // A cloud object as CloudInfo; the ref is formed from the uuid when the object has no url.
  absl::StatusOr<CloudInfo> ToCloudInfo(const Json& obj, absl::string_view what) const {
    if (!obj.is_object() || StringMember(obj, "uuid").empty()) {
      return absl::InternalError(absl::StrCat("controller: ", what, ": expected a cloud object"));
    }
    CloudInfo info{StringMember(obj, "uuid"), StringMember(obj, "name"), StringMember(obj, "url"),
                   StringMember(obj, "vtype"), StringMember(obj, "license_tier")};
    if (info.ref.empty()) info.ref = absl::StrCat(endpoint_.base_url, kCloudPath, "/", info.uuid);
    return info;
  }

  // The group a successful POST created. An answer that does not hold it (empty, not JSON, no
  // uuid) is not taken to mean that nothing was created: the group is read back by the Location
  // header, else found by name. If that fails too, the error says that the group was created and
  // carries its uuid when the Location header gave it (CreatedSeGroupUuid), so that the caller
  // can record the group instead of forgetting it.
  absl::StatusOr<SeGroup> CreatedGroup(const HttpResponse& response, const Call& call,
                                       const SeGroupSpec& spec) {
    absl::StatusOr<SeGroup> group = absl::InternalError("");
    if (!absl::StripAsciiWhitespace(response.body).empty()) {
      auto body = ParseBody(response, call.what);
      group = body.ok() ? ToSeGroup(*std::move(body), call.what) : body.status();
      if (group.ok()) return group;
    }
    const std::string unusable =
        group.status().message().empty()
            ? absl::StrCat("controller: ", call.what, ": HTTP ", response.status, " without a body")
            : std::string(group.status().message());
    const std::string location = response.Header("location");
    std::string uuid;
    if (!location.empty()) {
      auto id = IdFromRefOrUuid(location, "serviceenginegroup", "Location");
      if (id.ok()) uuid = *id;
    }
    log::Warn(absl::StrCat(unusable, "; reading the new SE group \"", spec.name, "\" back"));
    absl::StatusOr<SeGroup> read = absl::InternalError("");
    if (!uuid.empty()) {
      read = GetSeGroup(uuid, spec.tenant);
    } else {
      auto found = call.find_outcome();
      if (!found.ok()) {
        read = found.status();
      } else if (!found->has_value()) {
        read = absl::NotFoundError(absl::StrCat("controller: SE group \"", spec.name,
                                                "\" is not found by name after its create"));
      } else {
        read = ToSeGroup(**std::move(found), call.what);
      }
    }
    if (read.ok()) return read;
    absl::Status out(read.status().code() == absl::StatusCode::kNotFound
                         ? absl::StatusCode::kInternal
                         : read.status().code(),
                     absl::StrCat(unusable, "; the Controller created SE group \"", spec.name, "\"",
                                  uuid.empty() ? "" : absl::StrCat(" (", uuid, ")"),
                                  " but reading it back failed: ", read.status().message()));
    if (!uuid.empty()) out.SetPayload(kCreatedUuidPayload, absl::Cord(uuid));
    return out;
  }

  // A group from a PUT response; an empty body falls back to GET by Location or uuid.
  absl::StatusOr<SeGroup> GroupFromWriteResponse(const HttpResponse& response,
                                                 absl::string_view what, std::string_view tenant) {
    if (absl::StripAsciiWhitespace(response.body).empty()) {
      std::string location = response.Header("location");
      if (location.empty()) {
        return absl::InternalError(absl::StrCat("controller: ", what, ": HTTP ", response.status,
                                                " without a body or Location header"));
      }
      return GetSeGroup(location, tenant);
    }
    NSXALB_ASSIGN_OR_RETURN(auto body, ParseBody(response, what));
    return ToSeGroup(std::move(body), what);
  }

  // GET one object of `type` by uuid, or the single one with the ref's name.
  absl::StatusOr<Json> LookUp(const ObjectRef& ref, const std::string& type) {
    std::string shown = ref.name.empty() ? ref.uuid : ref.name;
    if (!ref.uuid.empty()) {
      NSXALB_ASSIGN_OR_RETURN(auto id, IdFromRefOrUuid(ref.uuid, type, type));
      Call call = MakeCall("GET", absl::StrCat("/api/", type, "/", UrlEncode(id)), "");
      auto response = loop_.Send(call, Deadline());
      if (!response.ok()) {
        if (response.status().code() == absl::StatusCode::kNotFound) {
          return WithMessage(response.status(),
                             absl::StrCat("controller: ", type, " \"", shown, "\" not found (",
                                          response.status().message(), ")"));
        }
        return response.status();
      }
      NSXALB_ASSIGN_OR_RETURN(auto obj, ParseBody(*response, call.what));
      if (!obj.is_object() || StringMember(obj, "uuid").empty()) {
        return absl::InternalError(
            absl::StrCat("controller: ", call.what, ": expected a ", type, " object"));
      }
      return obj;
    }
    Call call = MakeCall("GET", absl::StrCat("/api/", type, "?name=", UrlEncode(ref.name)), "");
    NSXALB_ASSIGN_OR_RETURN(auto response, loop_.Send(call, Deadline()));
    NSXALB_ASSIGN_OR_RETURN(auto page, ParseBody(response, call.what));
    NSXALB_ASSIGN_OR_RETURN(auto results, Results(page, call.what));
    for (Json& item : results) {
      if (item.is_object() && StringMember(item, "name") == ref.name &&
          !StringMember(item, "uuid").empty()) {
        return std::move(item);
      }
    }
    return absl::NotFoundError(absl::StrCat("controller: ", type, " \"", shown, "\" not found"));
  }

  internal::RequestLoop loop_;
  const ClientConfig& config_;
  const Endpoint& endpoint_;

  absl::Mutex cache_mu_;
  std::map<std::string, CloudInfo> clouds_ ABSL_GUARDED_BY(cache_mu_);
  std::map<std::string, TenantInfo> tenants_ ABSL_GUARDED_BY(cache_mu_);
  // Lookups in flight ("type\nkey"), for ResolveCached's single flight.
  std::set<std::string> resolving_ ABSL_GUARDED_BY(cache_mu_);
};

}  // namespace

std::string CreatedSeGroupUuid(const absl::Status& status) {
  auto uuid = status.GetPayload(kCreatedUuidPayload);
  return uuid.has_value() ? std::string(*uuid) : "";
}

bool MayHaveTakenEffect(const absl::Status& status) {
  return status.GetPayload(kMayHaveTakenEffectPayload).has_value();
}

absl::StatusOr<std::unique_ptr<Client>> NewClient(const ClientConfig& config, ClientHooks hooks) {
  NSXALB_ASSIGN_OR_RETURN(auto endpoint, ValidateConfig(config));
  std::optional<ApiVersion> configured;
  if (!config.api_version.empty()) {
    NSXALB_ASSIGN_OR_RETURN(auto v, ApiVersion::Parse(config.api_version));
    configured = v;
  }
  if (config.insecure) {
    log::Warn(absl::StrCat("controller: insecure = true: the certificate of ", endpoint.base_url,
                           " is not verified; anyone on the network path can read the "
                           "credentials. Set ca_file or ca_pem instead."));
  }
  return std::unique_ptr<Client>(std::make_unique<ClientImpl>(
      config, std::move(endpoint), std::move(configured), std::move(hooks)));
}

}  // namespace nsxalb::controller
