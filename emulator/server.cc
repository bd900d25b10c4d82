// Server setup, routing, authorization and error helpers of the emulated Controller.
#include "emulator/server.h"

#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "emulator/field_rules.h"
#include "emulator/tls.h"
#include "httplib.h"
#include "plugin/common/log.h"
#include "plugin/common/status_macros.h"

namespace nsxalb::emulator {
namespace {

using nlohmann::json;

constexpr int kWorkerThreads = 64;
// The state file's type for the virtual services the SE lifecycle keeps (not the Store).
constexpr char kVirtualServices[] = "virtualservice";

bool IsUnsafe(const std::string& method) {
  return method == "POST" || method == "PUT" || method == "PATCH" || method == "DELETE";
}

// The value of cookie `name` in the request's Cookie header(s), or "".
std::string CookieValue(const httplib::Request& req, absl::string_view name) {
  const size_t n = req.get_header_value_count("Cookie");
  for (size_t i = 0; i < n; ++i) {
    for (absl::string_view part : absl::StrSplit(req.get_header_value("Cookie", i), ';')) {
      part = absl::StripAsciiWhitespace(part);
      if (absl::StartsWith(part, name) && part.size() > name.size() && part[name.size()] == '=') {
        return std::string(part.substr(name.size() + 1));
      }
    }
  }
  return "";
}

// "host" of "https://host:port/..." or "https://[v6]:port/..." (lowercase, no port).
std::string HostOfUrl(absl::string_view url) {
  absl::string_view rest = url;
  if (!absl::ConsumePrefix(&rest, "https://")) return "";
  rest = rest.substr(0, rest.find('/'));
  if (absl::StartsWith(rest, "[")) return absl::AsciiStrToLower(rest.substr(0, rest.find(']') + 1));
  return absl::AsciiStrToLower(rest.substr(0, rest.find(':')));
}

}  // namespace

void WriteError(httplib::Response& res, int status, const std::string& message) {
  res.status = status;
  res.set_content(json{{"error", message}}.dump(), "application/json");
}

int HttpStatusFor(const absl::Status& status) {
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kFailedPrecondition:
    case absl::StatusCode::kOutOfRange:
      return 400;
    case absl::StatusCode::kUnauthenticated:
      return 401;
    case absl::StatusCode::kPermissionDenied:
      return 403;
    case absl::StatusCode::kNotFound:
      return 404;
    case absl::StatusCode::kAlreadyExists:
      return 409;
    case absl::StatusCode::kAborted:
      return 412;  // a write based on an older _last_modified
    case absl::StatusCode::kResourceExhausted:
      return 429;
    case absl::StatusCode::kUnavailable:
      return 503;
    default:
      return 500;
  }
}

Server::Server(const Config& config)
    : config_(config),
      sessions_(absl::Seconds(config.session_idle_timeout_seconds), [] { return absl::Now(); }),
      store_([] { return absl::ToUnixMicros(absl::Now()); }),
      license_(config.license),
      faults_(config.faults),
      lifecycle_(
          &store_, &faults_, [] { return absl::ToUnixMillis(absl::Now()); }, config.se_timing,
          DefaultsFor(config.controller_version)),
      upgrades_([] { return absl::ToUnixMillis(absl::Now()); }) {
  SetServiceEngineHooks({});
}

void Server::SetServiceEngineHooks(SeHooks hooks) {
  // The licence ledger sees every SE (docs/emulator.md, "The licence ledger"): it admits each new
  // SE (its units in escrow while it boots), consumes them once the SE is up, and frees them when
  // it goes. The hooks run under the lifecycle's lock, one SE at a time, so the units admitted
  // are the next created SE's.
  std::function<absl::Status(const json&, const SeShape&)> admit = std::move(hooks.admit);
  hooks.admit = [this, admit](const json& group, const SeShape& shape) -> absl::Status {
    std::string cloud_tier;
    absl::StatusOr<json> cloud = store_.Get(kCloud, group.value("cloud_ref", ""), "*");
    if (cloud.ok()) cloud_tier = cloud->value("license_tier", "");
    LicenseCharge charge = LicenseChargeOf(group, cloud_tier, static_cast<int>(shape.num_vcpus));
    charge.uuid = kPendingLicenseCharge;
    NSXALB_RETURN_IF_ERROR(license_.Admit(charge, /*escrow=*/true));
    if (admit) {
      absl::Status theirs = admit(group, shape);
      if (!theirs.ok()) license_.Release({kPendingLicenseCharge});
      return theirs;
    }
    return absl::OkStatus();
  };
  std::function<void(const json&)> created = std::move(hooks.created);
  hooks.created = [this, created](const json& se) {
    license_.Rename(kPendingLicenseCharge, se.value("uuid", ""));
    if (created) created(se);
  };
  std::function<void(const std::string&)> up = std::move(hooks.up);
  hooks.up = [this, up](const std::string& se_uuid) {
    license_.Consume(se_uuid);
    if (up) up(se_uuid);
  };
  std::function<void(const std::string&)> deleted = std::move(hooks.deleted);
  hooks.deleted = [this, deleted](const std::string& se_uuid) {
    metrics_.ForgetServiceEngines({se_uuid});
    license_.Release({se_uuid});
    if (deleted) deleted(se_uuid);
  };
  lifecycle_.SetHooks(std::move(hooks));
}

Server::~Server() = default;

absl::StatusOr<std::unique_ptr<Server>> Server::Create(const Config& config) {
  NSXALB_RETURN_IF_ERROR(Faults::Validate(config.faults));
  std::unique_ptr<Server> s(new Server(config));

  // TLS material.
  if (config.tls_dir.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        absl::StrCat(tmp != nullptr && tmp[0] != '\0' ? tmp : "/tmp", "/nsxalb-emulator-XXXXXX");
    if (mkdtemp(pattern.data()) == nullptr) {
      return absl::InternalError(absl::StrCat("cannot create a temporary directory ", pattern));
    }
    s->tls_dir_ = pattern;
    s->remove_tls_dir_ = true;
  } else {
    s->tls_dir_ = config.tls_dir;
    if (mkdir(s->tls_dir_.c_str(), 0700) != 0 && errno != EEXIST) {
      return absl::InvalidArgumentError(
          absl::StrCat("--tls-dir ", s->tls_dir_, " cannot be created: ", std::strerror(errno)));
    }
  }
  TlsFiles files;
  NSXALB_RETURN_IF_ERROR(EnsureCertificate(s->tls_dir_, &files));
  char resolved[PATH_MAX];
  s->ca_file_ = realpath(files.cert_file.c_str(), resolved) != nullptr ? resolved : files.cert_file;

  // Objects.
  if (config.state_file.empty()) {
    s->store_.Seed();
  } else {
    json others;
    absl::Status loaded = s->store_.Load(config.state_file, &others);
    if (absl::IsNotFound(loaded)) {
      s->store_.Seed();
      NSXALB_RETURN_IF_ERROR(s->store_.Save(config.state_file));
    } else if (!loaded.ok()) {
      return loaded;
    } else if (others.contains(kVirtualServices)) {
      // The virtual services live in the SE lifecycle, placed on the SEs the store just loaded.
      absl::Status restored = s->lifecycle_.RestoreVirtualServices(others[kVirtualServices]);
      if (!restored.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("state file ", config.state_file, ": ", restored.message()));
      }
    }
  }

  // The licence ledger charges the SEs the store holds.
  s->license_.Rebuild(s->store_.LicenseCharges());

  // Listener.
  s->http_ = std::make_unique<httplib::SSLServer>(files.cert_file.c_str(), files.key_file.c_str());
  if (!s->http_->is_valid()) {
    return absl::InternalError("cannot initialise the TLS server from the certificate and key");
  }
  // New TLS connections, as OpenSSL counts server handshakes (for the counters endpoint).
  SSL_CTX* tls_context = s->http_->ssl_context();
  s->counters_.SetConnectionTotal(
      [tls_context] { return static_cast<uint64_t>(SSL_CTX_sess_accept(tls_context)); });
  s->http_->new_task_queue = [] { return new httplib::ThreadPool(kWorkerThreads); };
  s->http_->set_keep_alive_max_count(1000);
  s->http_->set_keep_alive_timeout(10);
  // httplib leaves Nagle on; with the client's delayed ACK every response on a kept-alive
  // connection would then wait ~40 ms for its last segment.
  s->http_->set_tcp_nodelay(true);
  s->http_->set_read_timeout(30);
  s->http_->set_write_timeout(30);
  s->http_->set_payload_max_length(16 << 20);
  s->Routes();
  if (config.port == 0) {
    s->port_ = s->http_->bind_to_any_port(config.bind);
  } else if (s->http_->bind_to_port(config.bind, config.port)) {
    s->port_ = config.port;
  } else {
    s->port_ = -1;
  }
  if (s->port_ <= 0) {
    return absl::UnavailableError(absl::StrCat("cannot listen on ", config.bind, ":", config.port));
  }
  return s;
}

std::string Server::url() const {
  return config_.bind.find(':') != std::string::npos
             ? absl::StrCat("https://[", config_.bind, "]:", port_)
             : absl::StrCat("https://", config_.bind, ":", port_);
}

void Server::Run() { http_->listen_after_bind(); }

void Server::Stop() {
  faults_.ReleaseHangs();
  http_->stop();
}

absl::Status Server::Shutdown() {
  absl::MutexLock lock(&shutdown_mu_);
  absl::Status result;
  if (!config_.state_file.empty()) result = SaveState();
  if (remove_tls_dir_) {
    std::error_code ec;
    std::filesystem::remove_all(tls_dir_, ec);
    remove_tls_dir_ = false;
  }
  return result;
}

absl::Status Server::SaveState() {
  absl::MutexLock lock(&save_state_mu_);
  return store_.Save(config_.state_file,
                     json{{kVirtualServices, lifecycle_.SavedVirtualServices()}});
}

void Server::Persist() {
  if (config_.state_file.empty()) return;
  absl::Status s = SaveState();
  if (!s.ok()) log::Error(absl::StrCat("emulator: saving state: ", s.message()));
}

std::string Server::BaseUrl(const httplib::Request& req) const {
  const std::string host = req.get_header_value("Host");
  const bool safe = !host.empty() && host.find_first_of("/ \t\\@") == std::string::npos;
  return safe ? absl::StrCat("https://", host) : url();
}

bool Server::CheckVersionHeader(const httplib::Request& req, httplib::Response& res,
                                controller::ApiVersion* out) {
  if (!req.has_header("X-Avi-Version")) {
    WriteError(res, 400, "X-Avi-Version header is required.");
    return false;
  }
  absl::StatusOr<controller::ApiVersion> v =
      controller::ApiVersion::ParseExact(req.get_header_value("X-Avi-Version"));
  if (!v.ok()) {
    WriteError(res, 400, absl::StrCat("Invalid X-Avi-Version: ", v.status().message()));
    return false;
  }
  if (config_.controller_version < *v) {
    WriteError(res, 400,
               absl::StrCat("Incoming request version (", v->ToTag(),
                            ") is later than the Controller version (",
                            config_.controller_version.ToTag(), ")."));
    return false;
  }
  *out = *v;
  return true;
}

bool Server::Authorize(const httplib::Request& req, httplib::Response& res, ApiContext* ctx,
                       bool require_version) {
  std::string sid = CookieValue(req, "avi-sessionid");
  if (sid.empty()) sid = CookieValue(req, "sessionid");
  Session session;
  switch (sessions_.Touch(sid, &session)) {
    case SessionManager::State::kUnknown:
      WriteError(res, 401, "Authentication credentials were not provided.");
      return false;
    case SessionManager::State::kExpired:
      WriteError(res, config_.expired_session_status, "Session expired. Please log in again.");
      return false;
    case SessionManager::State::kValid:
      break;
  }
  if (IsUnsafe(req.method)) {
    if (req.get_header_value("X-CSRFToken") != session.csrf_token) {
      res.status = 401;
      res.set_content("CSRF token missing or incorrect.", "text/plain");
      return false;
    }
    const std::string referer = req.get_header_value("Referer");
    if (referer.empty()) {
      res.status = 401;
      res.set_content("Referer checking failed - no Referer.", "text/plain");
      return false;
    }
    if (HostOfUrl(referer) != HostOfUrl(BaseUrl(req))) {
      res.status = 401;
      res.set_content(absl::StrCat("Referer checking failed - ", referer,
                                   " does not match any trusted origins."),
                      "text/plain");
      return false;
    }
  }
  if (!require_version && !req.has_header("X-Avi-Version")) {
    ctx->version = config_.controller_version;
  } else if (!CheckVersionHeader(req, res, &ctx->version)) {
    return false;
  }
  std::string tenant = "admin";
  if (req.has_header("X-Avi-Tenant-UUID")) {
    tenant = req.get_header_value("X-Avi-Tenant-UUID");
  } else if (req.has_header("X-Avi-Tenant")) {
    tenant = req.get_header_value("X-Avi-Tenant");
  }
  if (tenant == "*" && req.method == "GET") {
    // The All Tenants view is a superuser's (the message is the emulator's: UNCONFIRMED).
    if (!IsSuperuser(session.username)) {
      WriteError(res, 403,
                 absl::StrCat("User '", session.username,
                              "' is not a superuser: the All Tenants view (X-Avi-Tenant: *) "
                              "needs one"));
      return false;
    }
    ctx->tenant_uuid = "*";
  } else {
    absl::StatusOr<std::string> t = store_.TenantUuid(tenant);
    if (!t.ok()) {
      WriteError(res, 400, std::string(t.status().message()));
      return false;
    }
    ctx->tenant_uuid = *t;
  }
  ctx->base_url = BaseUrl(req);
  ctx->username = session.username;
  return true;
}

namespace {

std::string ReasonPhrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 201:
      return "Created";
    case 204:
      return "No Content";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 409:
      return "Conflict";
    case 429:
      return "Too Many Requests";
    case 500:
      return "Internal Server Error";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Temporarily Unavailable";
    case 504:
      return "Gateway Time-out";
    default:
      return "Error";
  }
}

// The error page a web server in front of the Controller (nginx) shows.
std::string HtmlPage(int status) {
  const std::string title = absl::StrCat(status, " ", ReasonPhrase(status));
  return absl::StrCat("<html>\r\n<head><title>", title, "</title></head>\r\n<body>\r\n<center><h1>",
                      title,
                      "</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n");
}

// The socket under a request's TLS connection, or -1.
int SocketOf(const httplib::Request& req) { return req.ssl != nullptr ? SSL_get_fd(req.ssl) : -1; }

// True when the client has closed (or reset) the request's connection.
bool ClientGone(const httplib::Request& req) {
  const int fd = SocketOf(req);
  if (fd < 0) return false;
  pollfd p{fd, POLLRDHUP, 0};
  return poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

// Closes the request's connection without an answer.
void CloseConnection(const httplib::Request& req, httplib::Response& res) {
  if (const int fd = SocketOf(req); fd >= 0) shutdown(fd, SHUT_RDWR);
  res.status = 499;  // nginx's "client closed request"; never reaches the client
}

// Waits `wait` in short steps. False (at once) when the client closes the connection meanwhile;
// true when the time is up or `done` says so.
bool WaitForClient(const httplib::Request& req, absl::Duration wait,
                   const std::function<bool()>& done) {
  const absl::Time until = absl::Now() + wait;
  while (absl::Now() < until) {
    if (ClientGone(req)) return false;
    if (done && done()) return true;
    absl::SleepFor(std::min(absl::Milliseconds(10), until - absl::Now()));
  }
  return true;
}

void WriteFailure(httplib::Response& res, const FaultDecision& d) {
  if (d.fail_body == "html") {
    res.status = d.status;
    res.set_content(HtmlPage(d.status), "text/html");
    return;
  }
  WriteError(res, d.status, absl::StrCat("Injected fault: HTTP ", d.status, "."));
}

// Replaces the body of a processed request's answer (see kBadBodies).
void WriteBadBody(const httplib::Request& req, httplib::Response& res, const std::string& kind) {
  if (res.status == -1) res.status = 200;  // httplib's "not set": 200 once written
  if (kind == "malformed_json") {
    res.body = res.body.size() > 1 ? res.body.substr(0, res.body.size() / 2) : "{";
  } else if (kind == "html") {
    res.set_content(HtmlPage(res.status), "text/html");
  } else if (kind == "oversize") {
    if (res.body.size() < kOversizeBodyBytes)
      res.body.append(kOversizeBodyBytes - res.body.size(), ' ');
  } else if (kind == "truncated") {
    // The whole answer's Content-Length, half its body, then the connection closes.
    std::string raw = absl::StrCat("HTTP/1.1 ", res.status, " ", ReasonPhrase(res.status), "\r\n");
    for (const auto& [name, value] : res.headers) {
      if (absl::EqualsIgnoreCase(name, "Content-Length") ||
          absl::EqualsIgnoreCase(name, "Connection")) {
        continue;
      }
      absl::StrAppend(&raw, name, ": ", value, "\r\n");
    }
    absl::StrAppend(&raw, "Content-Length: ", res.body.size(), "\r\nConnection: close\r\n\r\n",
                    res.body.substr(0, res.body.size() / 2));
    // httplib hands the handler its connection's SSL as const; this handler's thread owns it.
    if (req.ssl != nullptr) {
      SSL_write(const_cast<SSL*>(req.ssl), raw.data(), static_cast<int>(raw.size()));
    }
    CloseConnection(req, res);
  }
}

}  // namespace

void Server::ServeApi(
    const httplib::Request& req, httplib::Response& res,
    const std::function<void(const httplib::Request&, httplib::Response&)>& handler) {
  if (absl::StartsWith(req.path, "/_emulator/")) return handler(req, res);
  const std::string key = Counters::Key(req.method, req.path);
  const FaultDecision d = faults_.OnRequest(key);
  counters_.Record(req.method, req.path, d.Names());
  if (d.expire) sessions_.ExpireAll();
  if (d.hang) {
    log::Info(absl::StrCat("emulator: ", key, ": not answering (fault injection)"));
    const bool released = WaitForClient(
        req, absl::Minutes(10), [this, &d] { return faults_.HangReleased(d.hang_generation); });
    if (!released) return CloseConnection(req, res);
    return WriteError(res, 503, "Injected fault: the request was held and released.");
  }
  if (d.latency_ms > 0 && !d.latency_after_commit &&
      !WaitForClient(req, absl::Milliseconds(d.latency_ms), nullptr)) {
    log::Info(absl::StrCat("emulator: ", key,
                           ": the client closed the connection during the latency; request "
                           "dropped unprocessed"));
    return CloseConnection(req, res);
  }
  if (d.status == 429) {
    res.set_header("Retry-After", std::to_string(d.retry_after_seconds));
    WriteError(res, 429, "Too many requests. Please retry later.");
    return;
  }
  if (d.status != 0 && !d.after_commit) return WriteFailure(res, d);
  handler(req, res);
  if (res.status == -1) res.status = 200;  // httplib's "not set": 200 once written
  if (d.latency_ms > 0 && d.latency_after_commit &&
      !WaitForClient(req, absl::Milliseconds(d.latency_ms), nullptr)) {
    log::Info(absl::StrCat("emulator: ", key, ": processed (HTTP ", res.status,
                           "); the client closed the connection before the answer"));
    return CloseConnection(req, res);
  }
  if (d.status != 0) {
    log::Info(absl::StrCat("emulator: ", key, ": processed (HTTP ", res.status,
                           "), answering HTTP ", d.status, " instead (fault injection)"));
    res.headers.clear();
    return WriteFailure(res, d);
  }
  if (!d.bad_body.empty()) WriteBadBody(req, res, d.bad_body);
}

void Server::Routes() {
  http_->set_logger([](const httplib::Request& req, const httplib::Response& res) {
    log::Debug(absl::StrCat("emulator: ", req.method, " ", req.path, " -> ", res.status));
  });
  http_->set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, const std::exception_ptr&) {
        WriteError(res, 500, "Internal error in the emulator.");
      });

  using Req = const httplib::Request&;
  using Res = httplib::Response&;
  // Every API route counts the request and applies faults first. This runs inside the handler
  // (not as a pre-routing hook) so request bodies are consumed and keep-alive stays intact.
  auto api = [this](const std::function<void(Req, Res)>& handler) {
    return [this, handler](Req q, Res r) { ServeApi(q, r, handler); };
  };
  http_->Post("/login", api([this](Req q, Res r) { HandleLogin(q, r); }));
  http_->Post("/logout", api([this](Req q, Res r) { HandleLogout(q, r); }));
  http_->Get("/api/initial-data/?", api([this](Req q, Res r) { HandleInitialData(q, r); }));
  http_->Get("/api/cluster/status/?", api([this](Req q, Res r) { HandleClusterStatus(q, r); }));
  http_->Post("/api/user-token/?", api([this](Req q, Res r) { HandleUserToken(q, r); }));
  for (const char* type : {kTenant, kCloud, kSeGroup}) {
    const std::string t = type;
    http_->Get(absl::StrCat("/api/", t, "/?"),
               api([this, t](Req q, Res r) { HandleList(t, q, r); }));
    http_->Get(absl::StrCat("/api/", t, "/([^/]+)/?"),
               api([this, t](Req q, Res r) { HandleGetOne(t, q, r); }));
  }
  http_->Post("/api/serviceenginegroup/?",
              api([this](Req q, Res r) { HandleCreateSeGroup(q, r); }));
  http_->Put("/api/serviceenginegroup/([^/]+)/?",
             api([this](Req q, Res r) { HandleUpdateSeGroup(false, q, r); }));
  http_->Patch("/api/serviceenginegroup/([^/]+)/?",
               api([this](Req q, Res r) { HandleUpdateSeGroup(true, q, r); }));
  http_->Delete("/api/serviceenginegroup/([^/]+)/?",
                api([this](Req q, Res r) { HandleDeleteSeGroup(q, r); }));
  http_->Get("/api/analytics/metrics/serviceengine(?:/([^/]*))?/?",
             api([this](Req q, Res r) { HandleMetricsGet(MetricEntity::kServiceEngine, q, r); }));
  http_->Get("/api/analytics/metrics/virtualservice(?:/([^/]*))?/?",
             api([this](Req q, Res r) { HandleMetricsGet(MetricEntity::kVirtualService, q, r); }));
  http_->Post("/api/analytics/metrics/collection/?",
              api([this](Req q, Res r) { HandleMetricsCollection(q, r); }));
  http_->Get("/api/licensing/ledger/details/?",
             api([this](Req q, Res r) { HandleLicenseLedger(q, r); }));
  ServiceEngineRoutes();
  UpgradeRoutes();
  ControlRoutes();
  LifecycleControlRoutes();
  auto not_found = api(
      [](Req q, Res r) { WriteError(r, 404, absl::StrCat("Resource ", q.path, " not found.")); });
  http_->Get(".*", not_found);
  http_->Post(".*", not_found);
  http_->Put(".*", not_found);
  http_->Patch(".*", not_found);
  http_->Delete(".*", not_found);
}

}  // namespace nsxalb::emulator
