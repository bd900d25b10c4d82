// The emulated NSX ALB Controller: an HTTPS server (cpp-httplib + OpenSSL) on a loopback address.
//
// Routes: POST /login, POST /logout, GET /api/initial-data, GET /api/cluster/status,
// GET /api/tenant[/uuid], GET /api/cloud[/uuid], POST /api/user-token,
// GET/POST /api/serviceenginegroup, GET/PUT/PATCH/DELETE /api/serviceenginegroup/<uuid>,
// GET /api/serviceengine[/uuid] (join_subresources=runtime), PUT/PATCH/DELETE
// /api/serviceengine/<uuid>, GET /api/serviceengine/<uuid>/runtime, POST
// /api/serviceengine/<uuid>/reboot, GET /api/serviceengine-inventory[/uuid],
// GET /api/virtualservice[/uuid], GET /api/analytics/metrics/{serviceengine,virtualservice}[/uuid]
// POST /api/analytics/metrics/collection, GET /api/licensing/ledger/details and
// GET /api/upgradestatusinfo[/uuid].
// /_emulator/ holds the control endpoint (counters, faults, state, tokens, Service Engines, metric
// series, virtual services, clouds, the SE lifecycle's timing and timeline, the licence, the
// upgrade state); it is not
// counted, not subject to faults and needs no session. Behaviour and status codes are documented in
// docs/emulator.md.
#ifndef NSXALB_EMULATOR_SERVER_H_
#define NSXALB_EMULATOR_SERVER_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "emulator/config.h"
#include "emulator/counters.h"
#include "emulator/faults.h"
#include "emulator/license.h"
#include "emulator/metrics.h"
#include "emulator/se_lifecycle.h"
#include "emulator/sessions.h"
#include "emulator/store.h"
#include "emulator/upgrade.h"
#include "nlohmann/json.hpp"

namespace httplib {
class SSLServer;
struct Request;
struct Response;
}  // namespace httplib

namespace nsxalb::emulator {

// One emulator instance.
class Server {
 public:
  // Prepares TLS material (creating a temporary directory when config.tls_dir is empty), loads or
  // seeds the store and binds the port. Errors name what failed.
  static absl::StatusOr<std::unique_ptr<Server>> Create(const Config& config);
  ~Server();

  // Serves until Stop(); returns when the listener is closed.
  void Run();
  // Stops Run() (callable from another thread or a signal-waiting thread).
  void Stop();
  // Saves --state (if set) and removes the temporary TLS directory (if one was created).
  // Thread-safe and idempotent apart from saving again.
  absl::Status Shutdown();

  // "https://127.0.0.1:PORT" or "https://[::1]:PORT".
  std::string url() const;
  int port() const { return port_; }
  // Absolute path of the certificate clients should trust.
  const std::string& ca_file() const { return ca_file_; }

  // Sets the SE lifecycle's hooks (se_lifecycle.h: the admission point of every SE creation,
  // and what to do after an SE is created or deleted). The emulator's own bookkeeping (metric
  // series of a deleted SE) runs whatever the hooks are.
  void SetServiceEngineHooks(SeHooks hooks);

 private:
  // Per-request facts established by Authorize().
  struct ApiContext {
    controller::ApiVersion version;
    std::string tenant_uuid;
    std::string base_url;
    std::string username;
  };

  explicit Server(const Config& config);
  void Routes();

  // Checks session, CSRF/Referer (unsafe methods) and X-Avi-Version / tenant headers; on failure
  // writes the Controller's error response and returns false.
  // With require_version false (logout) a missing X-Avi-Version means the Controller's version.
  bool Authorize(const httplib::Request& req, httplib::Response& res, ApiContext* ctx,
                 bool require_version = true);
  // Like Authorize but only for the version header (no session): used by public endpoints.
  bool CheckVersionHeader(const httplib::Request& req, httplib::Response& res,
                          controller::ApiVersion* out);
  // Serves one API request: counts it, applies the current faults (docs/emulator.md) before
  // and after `handler`, and calls `handler` unless a fault answers first.
  void ServeApi(const httplib::Request& req, httplib::Response& res,
                const std::function<void(const httplib::Request&, httplib::Response&)>& handler);
  // The "https://host:port" a client reached us at (Host header, else our own URL).
  std::string BaseUrl(const httplib::Request& req) const;
  // Writes the state file after a change, logging (not failing) on error.
  void Persist();
  // Writes the state file: the store's objects and the SE lifecycle's virtual services
  // (objects.virtualservice).
  absl::Status SaveState();

  // Handlers (api_handlers.cc).
  void HandleLogin(const httplib::Request& req, httplib::Response& res);
  void HandleLogout(const httplib::Request& req, httplib::Response& res);
  void HandleInitialData(const httplib::Request& req, httplib::Response& res);
  void HandleClusterStatus(const httplib::Request& req, httplib::Response& res);
  void HandleUserToken(const httplib::Request& req, httplib::Response& res);
  // `decorate`, when set, turns each rendered object (and its stored form) into the answer's.
  void HandleList(const std::string& type, const httplib::Request& req, httplib::Response& res,
                  const std::function<nlohmann::json(nlohmann::json, const nlohmann::json&)>&
                      decorate = nullptr);
  void HandleGetOne(const std::string& type, const httplib::Request& req, httplib::Response& res,
                    const std::function<nlohmann::json(nlohmann::json, const nlohmann::json&)>&
                        decorate = nullptr);
  void HandleCreateSeGroup(const httplib::Request& req, httplib::Response& res);
  void HandleUpdateSeGroup(bool patch, const httplib::Request& req, httplib::Response& res);
  void HandleDeleteSeGroup(const httplib::Request& req, httplib::Response& res);
  void HandleLicenseLedger(const httplib::Request& req, httplib::Response& res);
  // Writes one page of a collection of `total` objects ({"count", "results", "next"?}) as the
  // request's page and page_size ask, `item(i)` giving the i-th object; a bad page or page_size
  // is 400, a page past the end 404.
  void WritePage(const httplib::Request& req, httplib::Response& res, const ApiContext& ctx,
                 size_t total, const std::function<nlohmann::json(size_t)>& item);
  nlohmann::json VersionJson() const;

  // Analytics (analytics_handlers.cc): the metrics GETs of one entity type and the collection.
  void HandleMetricsGet(MetricEntity entity, const httplib::Request& req, httplib::Response& res);
  void HandleMetricsCollection(const httplib::Request& req, httplib::Response& res);
  // The uuids of the Service Engines `tenant_uuid` sees ("*": all), in creation order.
  std::vector<std::string> VisibleServiceEngines(const std::string& tenant_uuid);

  // Control endpoint (control_handlers.cc).
  void ControlRoutes();

  // The upgrade status API and its control route (upgrade_handlers.cc).
  void UpgradeRoutes();
  // Writes a 400 and returns true when a placement change (enable_state, delete, reboot) of the
  // SE `se_uuid` is refused because its group (or the system) upgrades.
  bool RefusedDuringUpgrade(const std::string& se_uuid, httplib::Response& res);

  // The SE lifecycle's API and control routes (se_handlers.cc).
  void ServiceEngineRoutes();
  void LifecycleControlRoutes();
  // Advances the SE lifecycle to now (persisting when it changed the store).
  void AdvanceServiceEngines();
  // An SE as the SE API answers it: with "runtime" joined when the request asks
  // (join_subresources=runtime).
  nlohmann::json WithRuntime(const httplib::Request& req, nlohmann::json rendered,
                             const nlohmann::json& stored);
  // An SE as the inventory answers it: {uuid, url, config: {uuid, name, url, se_group_ref,
  // cloud_ref, tenant_ref, enable_state, vs_refs ("#<name>" with include_name)}, runtime}.
  nlohmann::json InventoryEntry(const httplib::Request& req, nlohmann::json rendered,
                                const nlohmann::json& stored);
  // A user the control endpoint added besides the configured one (who is a superuser).
  struct ExtraUser {
    std::string password;
    bool superuser = false;
  };
  // Whether `username` logs in with `password` (or `token`): the configured user or an extra one.
  bool CheckCredentials(const std::string& username, const std::string& password,
                        const std::string& token);
  // Whether `username` is a superuser (the configured user is).
  bool IsSuperuser(const std::string& username);

  Config config_;
  std::unique_ptr<httplib::SSLServer> http_;
  SessionManager sessions_;
  Store store_;
  MetricsStore metrics_;
  LicenseLedger license_;
  Faults faults_;
  SeLifecycle lifecycle_;
  Upgrades upgrades_;
  Counters counters_;
  absl::Mutex users_mu_;
  std::map<std::string, ExtraUser> extra_users_ ABSL_GUARDED_BY(users_mu_);
  int port_ = 0;
  std::string tls_dir_;
  absl::Mutex shutdown_mu_;
  // Serialises SaveState: the snapshot of the virtual services and the write of the file, so a
  // later snapshot is never overwritten by an earlier one.
  absl::Mutex save_state_mu_;
  bool remove_tls_dir_ ABSL_GUARDED_BY(shutdown_mu_) = false;
  std::string ca_file_;
};

// Writes {"error": message} with `status`.
void WriteError(httplib::Response& res, int status, const std::string& message);
// Parses a JSON request body; writes a 400 and returns false when it is not a JSON object.
bool ParseBody(const httplib::Request& req, httplib::Response& res, nlohmann::json* out);
// The HTTP status for an error status from the store.
int HttpStatusFor(const absl::Status& status);

}  // namespace nsxalb::emulator

#endif  // NSXALB_EMULATOR_SERVER_H_
