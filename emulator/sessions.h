// Login sessions of the emulated Controller: session ids, CSRF tokens, idle timeout, auth tokens.
//
// A session is created by POST /login and identified by the avi-sessionid (or sessionid) cookie.
// Each authenticated request refreshes it; a session idle for longer than the idle timeout (the
// Controller's api_idle_timeout, 15 minutes by default) is expired. Expired sessions are kept as
// tombstones so the emulator can answer "session expired" (419 by default) rather than "not
// logged in" (401) to a client that still presents the old cookie. Time comes from an injected
// clock so tests need not sleep.
#ifndef NSXALB_EMULATOR_SESSIONS_H_
#define NSXALB_EMULATOR_SESSIONS_H_

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace nsxalb::emulator {

// A logged-in session.
struct Session {
  std::string id;
  std::string csrf_token;
  std::string username;
  absl::Time last_used;
  bool expired = false;
};

// Every secret the emulator has handed out, for tests that search their artefacts for them.
struct IssuedSecrets {
  std::vector<std::string> session_ids;  // values of the avi-sessionid and sessionid cookies
  std::vector<std::string> csrf_tokens;  // values of the csrftoken cookie
  std::vector<std::string> auth_tokens;  // tokens usable at POST /login instead of a password
};

// Thread-safe session table.
class SessionManager {
 public:
  // Returns the current time; absl::Now in production.
  using Clock = std::function<absl::Time()>;

  // Result of looking a session up.
  enum class State { kValid, kUnknown, kExpired };

  SessionManager(absl::Duration idle_timeout, Clock clock);

  // Creates a session for `username` with fresh random id and CSRF token.
  Session Create(const std::string& username);

  // Looks up `id`; a valid session is refreshed and copied to `*out` (if not null). A session
  // idle for longer than the timeout becomes expired.
  State Touch(const std::string& id, Session* out);

  // Forgets a session (logout).
  void Remove(const std::string& id);

  // Marks every session expired (fault injection).
  void ExpireAll();

  // Number of sessions that are still valid.
  size_t ValidCount();

  // Issues a token that can replace the password at POST /login for `username`.
  std::string IssueToken(const std::string& username);

  // True when `token` was issued for `username`.
  bool CheckToken(const std::string& username, const std::string& token);

  // Every session id, CSRF token and auth token issued since the start, in issue order, whether
  // still valid, expired or logged out (a few dozen bytes per login, kept for the lifetime).
  IssuedSecrets Issued();

  // The configured idle timeout.
  absl::Duration idle_timeout() const { return idle_timeout_; }

 private:
  const absl::Duration idle_timeout_;
  const Clock clock_;
  absl::Mutex mu_;
  std::map<std::string, Session> sessions_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, std::string> tokens_ ABSL_GUARDED_BY(mu_);  // token -> username
  IssuedSecrets issued_ ABSL_GUARDED_BY(mu_);
};

}  // namespace nsxalb::emulator

#endif  // NSXALB_EMULATOR_SESSIONS_H_
