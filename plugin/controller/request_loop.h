// Internal to plugin/controller: the retry loop every request of the client goes through. It
// sends a Call over the lazily made transport (transport.h) with the session's headers, logs in
// again once after a 401/419, retries connection errors, 429 (honouring Retry-After) and
// 502/503/504 with capped exponential backoff and jitter within the operation's deadline, looks for
// the effect of a create whose answer was lost before retrying it, and redacts secrets from errors.
// Not for use outside the folder.
#ifndef NSXALB_PLUGIN_CONTROLLER_REQUEST_LOOP_H_
#define NSXALB_PLUGIN_CONTROLLER_REQUEST_LOOP_H_

#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "plugin/controller/backoff.h"
#include "plugin/controller/call.h"
#include "plugin/controller/config.h"
#include "plugin/controller/session.h"
#include "plugin/controller/transport.h"

namespace nsxalb::controller::internal {

// Sends calls for one client; thread-safe. Logs out (best effort) when destroyed.
class RequestLoop {
 public:
  // `make_transport` is called once, on the first request, with the TLS settings of `config`.
  RequestLoop(ClientConfig config, Endpoint endpoint, std::optional<ApiVersion> configured,
              Clock* clock, JitterSource jitter, TransportFactory make_transport);
  ~RequestLoop();
  RequestLoop(const RequestLoop&) = delete;
  RequestLoop& operator=(const RequestLoop&) = delete;

  // Sends `call` by `deadline`, retrying as the file comment says. Errors carry what to do about
  // a set-up problem (errors.h) and never the password or token. With call.body_sink, the 2xx
  // body goes to the sink (the response returned has none), started over on every attempt; the
  // sink's error ends the call without a retry.
  absl::StatusOr<HttpResponse> Send(const Call& call, absl::Time deadline);

  // The session, logging in when needed (for the API version a write must respect).
  absl::StatusOr<std::shared_ptr<const Session>> EnsureSession(absl::Time deadline) {
    return sessions_.Ensure(deadline);
  }

  // In-flight and later calls return Cancelled promptly. Irreversible.
  void Cancel();

  // The client's settings, its validated endpoint and its clock (for the operation deadlines).
  const ClientConfig& config() const { return config_; }
  const Endpoint& endpoint() const { return endpoint_; }
  Clock* clock() const { return clock_; }

 private:
  absl::StatusOr<HttpResponse> SendLoop(const Call& call, absl::Time deadline);
  absl::StatusOr<Transport*> GetTransport();
  absl::Status WithAdvice(const absl::Status& status) const;
  absl::StatusOr<std::string> TenantHeader(std::string_view tenant) const;
  std::string Referer() const;
  std::string Redact(std::string text) const;
  void Logout();

  const ClientConfig config_;
  const Endpoint endpoint_;
  Clock* const clock_;
  const JitterSource jitter_;
  const TransportFactory make_transport_;

  std::atomic<bool> cancelled_{false};
  absl::Notification cancel_note_;
  absl::Mutex transport_mu_;
  std::unique_ptr<Transport> transport_ ABSL_GUARDED_BY(transport_mu_);
  absl::Status transport_error_ ABSL_GUARDED_BY(transport_mu_);
  SessionKeeper sessions_;
};

}  // namespace nsxalb::controller::internal

#endif  // NSXALB_PLUGIN_CONTROLLER_REQUEST_LOOP_H_
