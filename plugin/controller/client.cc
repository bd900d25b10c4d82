// Implementation of client.h: the session, the retry loop, and the SE group operations.
#include "plugin/controller/client.h"

#include <algorithm>
#include <atomic>
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
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "plugin/common/limits.h"
#include "plugin/common/log.h"
#include "plugin/controller/curl_transport.h"
#include "plugin/controller/errors.h"
#include "plugin/controller/refs.h"
#include "plugin/controller/response.h"
#include "plugin/controller/se_group_fields.h"

namespace nsxalb::controller {
namespace {

using Json = nlohmann::json;

constexpr char kSeGroupPath[] = "/api/serviceenginegroup";
constexpr char kCloudPath[] = "/api/cloud";
// The cloud a group created without a cloud_ref lands in.
constexpr char kDefaultCloud[] = "Default-Cloud";
constexpr absl::Duration kLogoutTimeout = absl::Seconds(2);
// Payload under which a failed create carries the uuid of the group it did create.
constexpr char kCreatedUuidPayload[] = "nsxalb.controller/created-uuid";
// Payload marking a failed write whose effect on the Controller is unknown.
constexpr char kMayHaveTakenEffectPayload[] = "nsxalb.controller/may-have-taken-effect";

absl::Status MarkMayHaveTakenEffect(absl::Status status) {
  status.SetPayload(kMayHaveTakenEffectPayload, absl::Cord("true"));
  return status;
}

std::string Dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

// The uuid an object id or ref names: a bare id is taken verbatim, anything with a '/' is parsed
// as a ref of `type`.
absl::StatusOr<std::string> IdFromRefOrUuid(std::string_view text, const std::string& type,
                                            const std::string& field) {
  std::string s(absl::StripAsciiWhitespace(std::string(text)));
  if (s.find('/') != std::string::npos) {
    auto ref = ParseRef(s, type, field);
    if (!ref.ok()) return ref.status();
    if (ref->uuid.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("controller: ", field, " must name a ", type, " by uuid"));
    }
    s = ref->uuid;
  }
  if (s.empty())
    return absl::InvalidArgumentError(absl::StrCat("controller: ", field, " is empty"));
  if (s.size() > 256) {
    return absl::InvalidArgumentError(absl::StrCat("controller: ", field, " is too long"));
  }
  for (char c : s) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.' &&
        c != ':') {
      return absl::InvalidArgumentError(
          absl::StrCat("controller: ", field, " has characters a uuid cannot contain"));
    }
  }
  return s;
}

// One logged-in session.
struct Session {
  uint64_t generation = 0;
  std::string cookie_header;  // "Cookie: a=1; b=2"
  std::string csrf_token;
  ApiVersion controller_version;
  ApiVersion api_version;
};

// One API call, as the retry loop needs it.
struct Call {
  std::string method;
  std::string path;    // path and query, starting with "/"
  std::string tenant;  // name or ref for X-Avi-Tenant(-UUID); empty: ClientConfig::tenant
  std::string body;
  bool has_body = false;
  bool idempotent = true;
  bool with_session = true;
  std::string what;  // for messages: "GET /api/serviceenginegroup/<uuid>"
  // For calls that are not idempotent: after an attempt with an unknown outcome, looks for its
  // effect; a value means "it happened", returned as the call's result.
  std::function<absl::StatusOr<std::optional<Json>>()> find_outcome;
};

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
      : config_(std::move(config)),
        endpoint_(std::move(endpoint)),
        configured_version_(std::move(configured)),
        clock_(hooks.clock != nullptr ? hooks.clock : RealClock()),
        jitter_(hooks.jitter ? std::move(hooks.jitter) : DefaultJitter()) {}

  ~ClientImpl() override { Logout(); }

  // The HTTPS transport, made on the first request: creating it loads libcurl and its ~30
  // shared libraries (about 15 M instructions and 7 MB of memory), which a provider process
  // that never sends a request (a plan whose state needs no lookup) should not pay for.
  absl::StatusOr<CurlTransport*> Transport() {
    absl::MutexLock lock(&transport_mu_);
    if (transport_ == nullptr && transport_error_.ok()) {
      TlsOptions tls{config_.ca_file, config_.ca_pem, config_.insecure};
      auto t = CurlTransport::Create(std::move(tls), &cancelled_);
      if (t.ok()) {
        transport_ = *std::move(t);
      } else {
        transport_error_ = t.status();
      }
    }
    if (transport_ == nullptr) return transport_error_;
    return transport_.get();
  }

  absl::StatusOr<SeGroup> GetSeGroup(std::string_view uuid, std::string_view tenant) override {
    OperationScope operation(this);
    auto id = IdFromRefOrUuid(uuid, "serviceenginegroup", "uuid");
    if (!id.ok()) return id.status();
    Call call = MakeCall("GET", absl::StrCat(kSeGroupPath, "/", UrlEncode(*id)), tenant);
    auto response = Send(call);
    if (!response.ok()) return response.status();
    auto body = ParseBody(*response, call.what);
    if (!body.ok()) return body.status();
    return ToSeGroup(*std::move(body), call.what);
  }

  absl::StatusOr<std::optional<SeGroup>> FindSeGroup(std::string_view name, std::string_view tenant,
                                                     std::string_view cloud) override {
    OperationScope operation(this);
    if (name.empty()) return absl::InvalidArgumentError("controller: name is required");
    auto matches = ListSeGroupsNamed(name, tenant, cloud);
    if (!matches.ok()) return matches.status();
    if (matches->empty()) return std::optional<SeGroup>();
    if (matches->size() > 1) {
      return absl::FailedPreconditionError(
          absl::StrCat("controller: ", matches->size(), " SE groups are named \"",
                       std::string(name), "\"; name the cloud to choose one"));
    }
    return std::optional<SeGroup>(std::move(matches->front()));
  }

  absl::StatusOr<std::vector<SeGroup>> ListSeGroups(std::string_view tenant,
                                                    std::string_view cloud) override {
    OperationScope operation(this);
    return ListSeGroupsNamed("", tenant, cloud);
  }

  absl::StatusOr<SeGroup> CreateSeGroup(const SeGroupSpec& spec) override {
    OperationScope operation(this);
    if (absl::Status st = CheckSpec(spec); !st.ok()) return st;
    auto session = EnsureSession(Deadline());
    if (!session.ok()) return session.status();
    if (absl::Status st = CheckFieldsAvailable(spec.fields, (*session)->api_version); !st.ok()) {
      return st;
    }
    Json body = Json::object();
    for (auto it = spec.fields.begin(); it != spec.fields.end(); ++it) {
      if (!it.value().is_null()) body[it.key()] = it.value();
    }
    body["name"] = spec.name;
    if (!spec.cloud.empty()) {
      auto cloud = ResolveCloud(spec.cloud);
      if (!cloud.ok()) return cloud.status();
      body["cloud_ref"] = cloud->ref;
    }
    Call call = MakeCall("POST", kSeGroupPath, spec.tenant);
    call.body = Dump(body);
    call.has_body = true;
    call.idempotent = false;
    call.find_outcome = [this, &spec]() -> absl::StatusOr<std::optional<Json>> {
      // Only the cloud the group was created in: a group of the same name in another cloud is
      // not this create's effect.
      auto found =
          FindSeGroup(spec.name, spec.tenant, spec.cloud.empty() ? kDefaultCloud : spec.cloud);
      if (!found.ok()) return found.status();
      if (!found->has_value()) return std::optional<Json>();
      log::Info(absl::StrCat("controller: SE group \"", spec.name,
                             "\" exists after an interrupted create; not creating it again"));
      return std::optional<Json>((*found)->body);
    };
    auto response = Send(call);
    if (!response.ok()) return response.status();
    return CreatedGroup(*response, call, spec);
  }

  absl::StatusOr<SeGroup> UpdateSeGroup(std::string_view uuid, const SeGroupSpec& spec) override {
    OperationScope operation(this);
    if (absl::Status st = CheckSpec(spec); !st.ok()) return st;
    auto session = EnsureSession(Deadline());
    if (!session.ok()) return session.status();
    if (absl::Status st = CheckFieldsAvailable(spec.fields, (*session)->api_version); !st.ok()) {
      return st;
    }
    auto current = GetSeGroup(uuid, spec.tenant);
    if (!current.ok()) return current.status();
    Json body = current->body;
    for (auto it = spec.fields.begin(); it != spec.fields.end(); ++it) {
      if (it.value().is_null()) {
        body.erase(it.key());
      } else {
        body[it.key()] = it.value();
      }
    }
    body["name"] = spec.name;
    if (!spec.cloud.empty()) {
      auto cloud = ResolveCloud(spec.cloud);
      if (!cloud.ok()) return cloud.status();
      if (!InCloud(body, cloud->uuid)) body["cloud_ref"] = cloud->ref;
    }
    // Nothing would change on the Controller (numbers compare by value): no PUT. Such an update
    // records only what lives in the state alone, e.g. the workload or extra_fields the group
    // already has after an import.
    if (body == current->body) return current;
    Call call =
        MakeCall("PUT", absl::StrCat(kSeGroupPath, "/", UrlEncode(current->uuid)), spec.tenant);
    call.body = Dump(body);
    call.has_body = true;
    auto response = Send(call);
    if (!response.ok()) return response.status();
    return GroupFromWriteResponse(*response, call.what, spec.tenant);
  }

  absl::Status DeleteSeGroup(std::string_view uuid, std::string_view tenant) override {
    OperationScope operation(this);
    auto id = IdFromRefOrUuid(uuid, "serviceenginegroup", "uuid");
    if (!id.ok()) return id.status();
    Call call = MakeCall("DELETE", absl::StrCat(kSeGroupPath, "/", UrlEncode(*id)), tenant);
    auto response = Send(call);
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
    absl::Status listed =
        ForEachListed(absl::StrCat(kCloudPath, "?page_size=", config_.page_size), "", "clouds",
                      [this, &out](Json& item, const std::string& what) -> absl::Status {
                        auto info = ToCloudInfo(item, what);
                        if (!info.ok()) return info.status();
                        out.push_back(*std::move(info));
                        return absl::OkStatus();
                      });
    if (!listed.ok()) return listed;
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
    auto ref = ParseRef(text, type, type);
    if (!ref.ok()) return ref.status();
    const std::string key = ref->Normalized();
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
      auto obj = LookUp(*ref, type);
      if (!obj.ok()) return obj.status();
      return convert(*obj);
    }();
    absl::MutexLock lock(&cache_mu_);
    resolving_.erase(flight);
    if (info.ok()) cache[key] = *info;
    return info;
  }

  absl::StatusOr<VersionInfo> ControllerVersion() override {
    OperationScope operation(this);
    auto session = EnsureSession(Deadline());
    if (!session.ok()) return session.status();
    return VersionInfo{(*session)->controller_version, (*session)->api_version};
  }

  void Cancel() override {
    if (cancelled_.exchange(true)) return;
    cancel_note_.Notify();
    absl::MutexLock lock(&mu_);  // wakes login waiters: conditions are re-checked on unlock
  }

 private:
  struct FlightWait {
    ClientImpl* self;
    uint64_t flight;
  };

  static bool FlightDone(FlightWait* w) ABSL_EXCLUSIVE_LOCKS_REQUIRED(w->self->mu_) {
    return w->self->flights_done_ >= w->flight || w->self->cancelled_.load();
  }

  // The deadline of the calling thread's operation on this client (see OperationScope).
  absl::Time Deadline() const {
    if (current_operation.client == this) return current_operation.deadline;
    return clock_->Now() + config_.total_timeout;
  }

  // Opened first thing by every public method: the outermost one starts the operation's
  // total_timeout; nested ones join it.
  class OperationScope {
   public:
    explicit OperationScope(const ClientImpl* client) {
      if (current_operation.client != nullptr) return;
      current_operation = {client, client->clock_->Now() + client->config_.total_timeout};
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

  absl::Status CancelledStatus(absl::string_view what) const {
    return absl::CancelledError(absl::StrCat("controller: ", what, ": cancelled"));
  }

  Call MakeCall(std::string method, std::string path, std::string_view tenant) const {
    Call call;
    call.what = absl::StrCat(method, " ", path.substr(0, path.find('?')));
    call.method = std::move(method);
    call.path = std::move(path);
    call.tenant = std::string(tenant);
    return call;
  }

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
      auto info = ResolveCloud(cloud);
      if (!info.ok()) return info.status();
      cloud_uuid = info->uuid;
      absl::StrAppend(&path, "&cloud_ref.uuid=", UrlEncode(cloud_uuid));
    }
    std::vector<SeGroup> out;
    absl::Status listed = ForEachListed(
        std::move(path), tenant, "SE groups",
        [&out, name, &cloud_uuid](Json& item, const std::string& what) -> absl::Status {
          if (!name.empty() && StringMember(item, "name") != name) return absl::OkStatus();
          if (!cloud_uuid.empty() && !InCloud(item, cloud_uuid)) {
            return absl::OkStatus();  // in another cloud
          }
          auto g = ToSeGroup(std::move(item), what);
          if (!g.ok()) return g.status();
          out.push_back(*std::move(g));
          return absl::OkStatus();
        });
    if (!listed.ok()) return listed;
    return out;
  }

  // GETs the collection at `path` (with its query, including page_size) in `tenant`, and every
  // page its `next` links lead to, calling `visit` with each result and the GET's description.
  // Stops at the first error, the Controller's or `visit`'s. `what` names the listing in errors
  // ("SE groups"). At most limits::kMaxListPages pages and limits::kMaxListedObjects results
  // (ResourceExhausted beyond either).
  absl::Status ForEachListed(
      std::string path, std::string_view tenant, absl::string_view what,
      const std::function<absl::Status(Json& item, const std::string& call_what)>& visit) {
    std::set<std::string> seen_pages;
    size_t listed = 0;
    for (int page_no = 0; page_no < limits::kMaxListPages; ++page_no) {
      if (!seen_pages.insert(path).second) {
        return absl::InternalError(absl::StrCat("controller: listing ", what,
                                                ": the Controller's next link repeats a page"));
      }
      Call call = MakeCall("GET", path, tenant);
      auto response = Send(call);
      if (!response.ok()) return response.status();
      auto page = ParseBody(*response, call.what);
      if (!page.ok()) return page.status();
      auto results = Results(*page, call.what);
      if (!results.ok()) return results.status();
      listed += results->size();
      if (listed > static_cast<size_t>(limits::kMaxListedObjects)) {
        return absl::ResourceExhaustedError(
            absl::StrCat("controller: listing ", what, ": more than ", limits::kMaxListedObjects,
                         ", the most the provider reads in one listing"));
      }
      for (Json& item : *results) {
        if (absl::Status st = visit(item, call.what); !st.ok()) return st;
      }
      auto next = NextPagePath(*page, what);
      if (!next.ok()) return next.status();
      if (next->empty()) return absl::OkStatus();
      path = *std::move(next);
    }
    return absl::ResourceExhaustedError(
        absl::StrCat("controller: listing ", what, ": the Controller's next links go on past ",
                     limits::kMaxListPages, " pages, the most the provider follows"));
  }

  // A cloud object as CloudInfo; the ref is formed from the uuid when the object has no url.
  absl::StatusOr<CloudInfo> ToCloudInfo(const Json& obj, absl::string_view what) const {
    if (!obj.is_object() || StringMember(obj, "uuid").empty()) {
      return absl::InternalError(absl::StrCat("controller: ", what, ": expected a cloud object"));
    }
    CloudInfo info{StringMember(obj, "uuid"), StringMember(obj, "name"), StringMember(obj, "url"),
                   StringMember(obj, "vtype")};
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
    auto body = ParseBody(response, what);
    if (!body.ok()) return body.status();
    return ToSeGroup(*std::move(body), what);
  }

  // GET one object of `type` by uuid, or the single one with the ref's name.
  absl::StatusOr<Json> LookUp(const ObjectRef& ref, const std::string& type) {
    std::string shown = ref.name.empty() ? ref.uuid : ref.name;
    if (!ref.uuid.empty()) {
      auto id = IdFromRefOrUuid(ref.uuid, type, type);
      if (!id.ok()) return id.status();
      Call call = MakeCall("GET", absl::StrCat("/api/", type, "/", UrlEncode(*id)), "");
      auto response = Send(call);
      if (!response.ok()) {
        if (response.status().code() == absl::StatusCode::kNotFound) {
          return WithMessage(response.status(),
                             absl::StrCat("controller: ", type, " \"", shown, "\" not found (",
                                          response.status().message(), ")"));
        }
        return response.status();
      }
      auto obj = ParseBody(*response, call.what);
      if (!obj.ok()) return obj.status();
      if (!obj->is_object() || StringMember(*obj, "uuid").empty()) {
        return absl::InternalError(
            absl::StrCat("controller: ", call.what, ": expected a ", type, " object"));
      }
      return obj;
    }
    Call call = MakeCall("GET", absl::StrCat("/api/", type, "?name=", UrlEncode(ref.name)), "");
    auto response = Send(call);
    if (!response.ok()) return response.status();
    auto page = ParseBody(*response, call.what);
    if (!page.ok()) return page.status();
    auto results = Results(*page, call.what);
    if (!results.ok()) return results.status();
    for (Json& item : *results) {
      if (item.is_object() && StringMember(item, "name") == ref.name &&
          !StringMember(item, "uuid").empty()) {
        return std::move(item);
      }
    }
    return absl::NotFoundError(absl::StrCat("controller: ", type, " \"", shown, "\" not found"));
  }

  // The tenant header line for a call.
  absl::StatusOr<std::string> TenantHeader(std::string_view tenant) const {
    std::string_view t = tenant.empty() ? std::string_view(config_.tenant) : tenant;
    auto ref = ParseRef(t, "tenant", "tenant");
    if (!ref.ok()) return ref.status();
    if (!ref->name.empty()) return absl::StrCat("X-Avi-Tenant: ", ref->name);
    return absl::StrCat("X-Avi-Tenant-UUID: ", ref->uuid);
  }

  std::string Referer() const { return absl::StrCat("Referer: ", endpoint_.base_url, "/"); }

  // Removes the password and token from `text`, should a Controller ever echo them.
  std::string Redact(std::string text) const {
    for (const std::string* secret : {&config_.password, &config_.auth_token}) {
      if (secret->size() >= 3) absl::StrReplaceAll({{*secret, "<redacted>"}}, &text);
    }
    return text;
  }

  absl::StatusOr<HttpResponse> Send(const Call& call) { return Send(call, Deadline()); }

  absl::StatusOr<HttpResponse> Send(const Call& call, absl::Time deadline) {
    auto result = SendLoop(call, deadline);
    if (result.ok()) return result;
    absl::Status status = WithAdvice(result.status());
    std::string message(status.message());
    std::string redacted = Redact(message);
    if (redacted == message) return status;
    return WithMessage(status, redacted);
  }

  // `status` with what to do about it, when it is a set-up problem.
  absl::Status WithAdvice(const absl::Status& status) const {
    const SetupProblem problem = SetupProblemOf(status);
    if (problem == SetupProblem::kNone) return status;
    return WithRemedy(status, SetupRemedy(problem, endpoint_, config_.username));
  }

  absl::StatusOr<HttpResponse> SendLoop(const Call& call, absl::Time deadline) {
    bool relogged = false;
    int retry = 0;
    while (true) {
      if (cancelled_.load()) return CancelledStatus(call.what);
      std::shared_ptr<const Session> session;
      if (call.with_session) {
        auto s = EnsureSession(deadline);
        if (!s.ok()) return s.status();
        session = *std::move(s);
      }
      absl::Duration left = deadline - clock_->Now();
      if (left <= absl::ZeroDuration()) {
        return absl::DeadlineExceededError(
            absl::StrCat("controller: ", call.what, ": total_timeout (",
                         absl::FormatDuration(config_.total_timeout), ") ran out"));
      }
      HttpRequest request;
      request.method = call.method;
      request.url = endpoint_.base_url + call.path;
      request.timeout = std::min(config_.request_timeout, left);
      request.idempotent = call.idempotent;
      request.headers.push_back("Accept: application/json");
      request.headers.push_back(Referer());
      if (call.has_body) {
        request.headers.push_back("Content-Type: application/json");
        request.body = call.body;
      }
      if (session != nullptr) {
        auto tenant = TenantHeader(call.tenant);
        if (!tenant.ok()) return tenant.status();
        request.headers.push_back(*std::move(tenant));
        request.headers.push_back(absl::StrCat("X-Avi-Version: ", session->api_version.ToString()));
        if (!session->csrf_token.empty()) {
          request.headers.push_back(absl::StrCat("X-CSRFToken: ", session->csrf_token));
        }
        if (!session->cookie_header.empty()) request.headers.push_back(session->cookie_header);
      }
      absl::StatusOr<CurlTransport*> transport = Transport();
      if (!transport.ok()) return transport.status();
      TransportResult r = (*transport)->Perform(request);

      absl::Status failure;
      std::optional<absl::Duration> retry_after;
      bool ambiguous = false;
      bool retryable = true;
      if (!r.status.ok()) {
        if (r.status.code() == absl::StatusCode::kCancelled) {
          absl::Status cancelled = CancelledStatus(call.what);
          return !call.idempotent && r.maybe_sent ? MarkMayHaveTakenEffect(cancelled) : cancelled;
        }
        failure = r.status;
        ambiguous = r.maybe_sent;
        retryable = r.retryable;
        // A failure that retrying cannot cure (such as an answer over the size cap) still
        // leaves a sent create's outcome unknown: look for it below, then give up.
        if (!retryable && (!ambiguous || call.idempotent)) return failure;
      } else {
        int code = r.response.status;
        log::Debug(absl::StrCat("controller: ", call.what, " -> HTTP ", code));
        if (code >= 200 && code < 300) return std::move(r.response);
        if ((code == 401 || code == 419) && session != nullptr && !relogged) {
          relogged = true;
          log::Info(absl::StrCat("controller: ", call.what, ": HTTP ", code,
                                 " (session expired or rejected); logging in again"));
          DropSession(session->generation);
          continue;
        }
        failure = HttpError(code, call.what, r.response.body);
        if (code == 429 || code == 502 || code == 503 || code == 504) {
          ambiguous = code != 429;
          retry_after = ParseRetryAfter(r.response.Header("retry-after"), clock_->Now());
        } else {
          return failure;
        }
      }
      if (ambiguous && !call.idempotent) {
        if (!call.find_outcome) {
          return MarkMayHaveTakenEffect(WithMessage(
              failure, absl::StrCat(failure.message(), " (the request may have taken effect)")));
        }
        auto found = call.find_outcome();
        if (!found.ok()) {
          if (found.status().code() == absl::StatusCode::kCancelled) {
            return MarkMayHaveTakenEffect(found.status());
          }
          return MarkMayHaveTakenEffect(
              WithMessage(found.status(),
                          absl::StrCat(found.status().message(), " (while checking whether ",
                                       call.what, " took effect after: ", failure.message(), ")")));
        }
        if (found->has_value()) {
          HttpResponse synthesized;
          synthesized.status = 200;
          synthesized.body = Dump(**found);
          return synthesized;
        }
      }
      if (!retryable) return failure;
      if (retry >= config_.max_retries) {
        absl::Status out =
            WithMessage(failure, absl::StrCat(failure.message(), " (gave up after ", retry + 1,
                                              retry == 0 ? " attempt)" : " attempts)"));
        return CopyPayloads(out, absl::StatusCode::kUnavailable);
      }
      absl::Duration delay =
          retry_after.has_value()
              ? *retry_after
              : BackoffDelay(config_.backoff_initial, config_.backoff_max, retry, jitter_());
      if (clock_->Now() + delay > deadline) {
        return CopyPayloads(
            WithMessage(failure, absl::StrCat(failure.message(),
                                              " (no time left to retry within "
                                              "total_timeout ",
                                              absl::FormatDuration(config_.total_timeout), ")")),
            absl::StatusCode::kDeadlineExceeded);
      }
      log::Warn(absl::StrCat(Redact(std::string(failure.message())), "; retry ", retry + 1, " of ",
                             config_.max_retries, " in ", absl::FormatDuration(delay)));
      if (!clock_->SleepFor(delay, cancel_note_)) return CancelledStatus(call.what);
      ++retry;
    }
  }

  static absl::Status CopyPayloads(const absl::Status& from, absl::StatusCode code) {
    absl::Status out(code, from.message());
    from.ForEachPayload(
        [&out](absl::string_view url, const absl::Cord& payload) { out.SetPayload(url, payload); });
    return out;
  }

  absl::StatusOr<std::shared_ptr<const Session>> EnsureSession(absl::Time deadline) {
    mu_.Lock();
    while (true) {
      if (session_ != nullptr) {
        std::shared_ptr<const Session> s = session_;
        mu_.Unlock();
        return s;
      }
      if (cancelled_.load()) {
        mu_.Unlock();
        return CancelledStatus("login");
      }
      if (!login_in_flight_) break;
      FlightWait wait{this, flights_started_};
      mu_.Await(absl::Condition(&ClientImpl::FlightDone, &wait));
      if (session_ == nullptr && flights_done_ >= wait.flight && !cancelled_.load() &&
          !last_login_error_.ok()) {
        absl::Status error = last_login_error_;
        mu_.Unlock();
        return error;
      }
    }
    login_in_flight_ = true;
    uint64_t flight = ++flights_started_;
    mu_.Unlock();
    auto result = Login(deadline);
    mu_.Lock();
    login_in_flight_ = false;
    flights_done_ = flight;
    std::shared_ptr<const Session> out;
    if (result.ok()) {
      (*result)->generation = ++generation_;
      session_ = *result;
      last_login_error_ = absl::OkStatus();
      out = session_;
    } else {
      last_login_error_ = result.status();
    }
    mu_.Unlock();
    if (!result.ok()) return result.status();
    return out;
  }

  void DropSession(uint64_t generation) {
    absl::MutexLock lock(&mu_);
    if (session_ != nullptr && session_->generation == generation) session_.reset();
  }

  absl::StatusOr<std::shared_ptr<Session>> Login(absl::Time deadline) {
    Json body = {{"username", config_.username}};
    if (!config_.password.empty()) {
      body["password"] = config_.password;
    } else {
      body["token"] = config_.auth_token;
    }
    Call call;
    call.method = "POST";
    call.path = "/login";
    call.what = absl::StrCat("login to ", endpoint_.base_url, " as ", config_.username);
    call.body = Dump(body);
    call.has_body = true;
    call.with_session = false;
    auto response = Send(call, deadline);
    if (!response.ok()) {
      if (HttpStatusOf(response.status()) == 401) {
        return WithAdvice(WithSetupProblem(response.status(), SetupProblem::kLoginRejected));
      }
      return response.status();
    }
    auto answer = ParseLoginResponse(*response, call.what);
    if (!answer.ok()) return answer.status();
    auto session = std::make_shared<Session>();
    session->cookie_header = std::move(answer->cookie_header);
    session->csrf_token = std::move(answer->csrf_token);
    const std::string& version_text = answer->version_text;
    if (version_text.empty()) {
      if (!configured_version_.has_value()) {
        return absl::FailedPreconditionError(absl::StrCat(
            "controller: ", call.what,
            ": the login response does not say the Controller's version; set api_version"));
      }
      session->controller_version = *configured_version_;
    } else {
      auto parsed = ApiVersion::Parse(version_text);
      if (!parsed.ok()) {
        return absl::InternalError(absl::StrCat(
            "controller: ", call.what, ": Controller version: ", parsed.status().message()));
      }
      session->controller_version = *parsed;
    }
    if (configured_version_.has_value()) {
      if (*configured_version_ > session->controller_version) {
        return absl::FailedPreconditionError(absl::StrCat(
            "controller: api_version ", configured_version_->ToString(),
            " is newer than the Controller's version ", session->controller_version.ToString(),
            "; set api_version to ", session->controller_version.ToString(),
            " or lower, or leave it empty to use the Controller's version"));
      }
      session->api_version = *configured_version_;
    } else {
      session->api_version = session->controller_version;
    }
    log::Info(absl::StrCat("controller: logged in to ", endpoint_.base_url, " as ",
                           config_.username, "; Controller version ",
                           session->controller_version.ToString(), ", API version ",
                           session->api_version.ToString()));
    return session;
  }

  // Ends the session on the Controller, best effort, so it does not linger until its idle
  // timeout.
  void Logout() {
    std::shared_ptr<const Session> session;
    {
      absl::MutexLock lock(&mu_);
      session = session_;
      session_.reset();
    }
    CurlTransport* transport = nullptr;
    {
      absl::MutexLock lock(&transport_mu_);
      transport = transport_.get();
    }
    if (session == nullptr || cancelled_.load() || transport == nullptr) return;
    HttpRequest request;
    request.method = "POST";
    request.url = endpoint_.base_url + "/logout";
    request.timeout = kLogoutTimeout;
    request.headers = {"Accept: application/json", Referer(),
                       absl::StrCat("X-Avi-Version: ", session->api_version.ToString()),
                       absl::StrCat("X-CSRFToken: ", session->csrf_token), session->cookie_header};
    TransportResult r = transport->Perform(request);
    if (!r.status.ok()) log::Debug(absl::StrCat("controller: logout: ", r.status.message()));
  }

  const ClientConfig config_;
  const Endpoint endpoint_;
  const std::optional<ApiVersion> configured_version_;
  Clock* const clock_;
  const JitterSource jitter_;

  std::atomic<bool> cancelled_{false};
  absl::Notification cancel_note_;
  absl::Mutex transport_mu_;
  std::unique_ptr<CurlTransport> transport_ ABSL_GUARDED_BY(transport_mu_);
  absl::Status transport_error_ ABSL_GUARDED_BY(transport_mu_);

  absl::Mutex mu_;
  std::shared_ptr<const Session> session_ ABSL_GUARDED_BY(mu_);
  bool login_in_flight_ ABSL_GUARDED_BY(mu_) = false;
  uint64_t flights_started_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t flights_done_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t generation_ ABSL_GUARDED_BY(mu_) = 0;
  absl::Status last_login_error_ ABSL_GUARDED_BY(mu_);

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
  auto endpoint = ValidateConfig(config);
  if (!endpoint.ok()) return endpoint.status();
  std::optional<ApiVersion> configured;
  if (!config.api_version.empty()) {
    auto v = ApiVersion::Parse(config.api_version);
    if (!v.ok()) return v.status();
    configured = *v;
  }
  if (config.insecure) {
    log::Warn(absl::StrCat("controller: insecure = true: the certificate of ", endpoint->base_url,
                           " is not verified; anyone on the network path can read the "
                           "credentials. Set ca_file or ca_pem instead."));
  }
  return std::unique_ptr<Client>(std::make_unique<ClientImpl>(
      config, *std::move(endpoint), std::move(configured), std::move(hooks)));
}

}  // namespace nsxalb::controller
