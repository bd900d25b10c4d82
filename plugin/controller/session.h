// Internal to plugin/controller: the client's login session. The first call logs in and
// concurrent first calls share that single login (single flight); later calls reuse the session
// until the Controller rejects it (401/419), when the retry loop drops it for one re-login. A
// failed login is reported to every caller that waited for it. Not for use outside the folder.
#ifndef NSXALB_PLUGIN_CONTROLLER_SESSION_H_
#define NSXALB_PLUGIN_CONTROLLER_SESSION_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "plugin/controller/call.h"
#include "plugin/controller/config.h"
#include "plugin/controller/transport.h"
#include "plugin/controller/version.h"

namespace nsxalb::controller::internal {

// Holds one session; thread-safe.
class SessionKeeper {
 public:
  // Sends the login call within the deadline, through the retry loop.
  using Sender = std::function<absl::StatusOr<HttpResponse>(const Call& call, absl::Time)>;

  // `configured` is ClientConfig::api_version parsed; `cancelled` outlives the keeper.
  SessionKeeper(const ClientConfig& config, const Endpoint& endpoint,
                std::optional<ApiVersion> configured, const std::atomic<bool>& cancelled);

  // Set once, before the first Ensure.
  void SetSender(Sender send) { send_ = std::move(send); }

  // The current session, logging in (or waiting for the login in flight) when there is none.
  // Cancelled after Cancel; the login's error when it failed.
  absl::StatusOr<std::shared_ptr<const Session>> Ensure(absl::Time deadline);

  // Forgets the session of `generation` (a later one is kept), so the next Ensure logs in.
  void Drop(uint64_t generation);

  // Removes and returns the session, for the logout at the end.
  std::shared_ptr<const Session> Take();

  // Wakes the callers waiting for a login after `cancelled` was set.
  void WakeWaiters();

 private:
  struct FlightWait {
    SessionKeeper* self;
    uint64_t flight;
  };
  static bool FlightDone(FlightWait* w) ABSL_EXCLUSIVE_LOCKS_REQUIRED(w->self->mu_);

  absl::StatusOr<std::shared_ptr<Session>> Login(absl::Time deadline);

  const ClientConfig& config_;
  const Endpoint& endpoint_;
  const std::optional<ApiVersion> configured_version_;
  const std::atomic<bool>& cancelled_;
  Sender send_;

  absl::Mutex mu_;
  std::shared_ptr<const Session> session_ ABSL_GUARDED_BY(mu_);
  bool login_in_flight_ ABSL_GUARDED_BY(mu_) = false;
  uint64_t flights_started_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t flights_done_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t generation_ ABSL_GUARDED_BY(mu_) = 0;
  absl::Status last_login_error_ ABSL_GUARDED_BY(mu_);
};

}  // namespace nsxalb::controller::internal

#endif  // NSXALB_PLUGIN_CONTROLLER_SESSION_H_
