// Fault injection for the emulated Controller, set by flags or POST /_emulator/faults.
//
// Faults apply to every request except the /_emulator/ control endpoint: added latency, 429 with
// Retry-After for the next N requests, an error status (503 by default) for the next N requests
// (before or after the request takes effect, with a JSON or an HTML body), no answer at all for
// the next N requests, a bad body (malformed JSON, HTML, truncated, oversized) for the next N
// answers, an expired session for the next N requests, and dropping the connection after
// committing the next N creates, and another writer that changes an SE group right after each of
// the next N GETs of it (so the reader's next write is stale: 412). Counters decrement as faults
// fire, so "fail_next": 2 fails exactly two requests. A "match" given with a fault restricts it to
// requests whose counter key (Counters::Key, "POST /api/serviceenginegroup") matches it, a shell
// pattern ("*" for any text: "* /api/serviceenginegroup*" is every SE group request). Three faults
// act on the SE lifecycle rather than on requests: a failing migration, an SE that never comes
// up, and (while set) a DELETE that succeeds on an SE still hosting virtual services.
#ifndef NSXALB_EMULATOR_FAULTS_H_
#define NSXALB_EMULATOR_FAULTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"

namespace nsxalb::emulator {

// The configurable faults; all zero means none. Each *_match restricts its fault to requests
// whose counter key matches it (fnmatch; "" matches every request).
struct FaultConfig {
  int fail_next = 0;
  int fail_status = 503;
  // The failure's body: "json" ({"error": ...}) or "html" (a web server's error page).
  std::string fail_body = "json";
  // Answer the failure after the request took effect (a gateway that timed out on a Controller
  // that went on to commit), instead of before.
  bool fail_after_commit = false;
  std::string fail_match;
  // Added before a request is processed; a request whose client closes the connection during
  // the wait is dropped unprocessed (like a front end that never forwards an abandoned request).
  int latency_ms = 0;
  // Spend the latency after the request is processed, before its answer (a Controller that
  // committed and is slow to say so; a client that leaves meanwhile does not undo it).
  bool latency_after_commit = false;
  std::string latency_match;
  int drop_after_create = 0;
  int throttle_next = 0;
  int retry_after_seconds = 1;
  std::string throttle_match;
  // The next N requests get no answer until the client closes the connection, the faults are
  // cleared, or the emulator stops.
  int hang_next = 0;
  std::string hang_match;
  // The next N requests are processed normally, then their answer's body is replaced: see
  // kBadBodies.
  int bad_body_next = 0;
  std::string bad_body = "malformed_json";
  std::string bad_body_match;
  // Every session is expired just before each of the next N requests, which then gets the
  // expired-session status (419) if it needs one.
  int expire_next = 0;
  std::string expire_match;
  // Right after each of the next N answered GETs of one SE group, another writer (the UI, a
  // script) changes that group: it sets the untyped field other_writer_field to
  // other_writer_value, and the group gets a new _last_modified. A write based on that GET is
  // then answered 412.
  int other_writer_next = 0;
  std::string other_writer_field = "se_deprovision_delay";
  int other_writer_value = 30;
  // SE lifecycle (se_lifecycle.h): each of the next N migrations (SE_STATE_DISABLED) fails at its
  // end with MIGRATE_SE_FAILED, the SE keeping its virtual services; each of the next N SEs the
  // Controller creates for a virtual service stays OPER_CREATING and never comes up.
  int migrate_fail_next = 0;
  int se_never_up_next = 0;
  // While set, DELETE /api/serviceengine/<uuid> (and the control endpoint's SE delete) succeeds
  // on an SE that still hosts or awaits virtual services, dropping them from it as a force
  // delete would (they are placed again as the group allows; the timeline shows each one left on
  // no serving SE as an unplaced instant). Unset, such a DELETE is refused with 409.
  bool delete_hosting_se = false;
};

// The kinds of bad_body: "malformed_json" (the first half of the real body, Content-Length
// correct), "html" (a web server's HTML page in place of the body, status kept), "truncated"
// (the real Content-Length, half the body, then the connection closes), "oversize" (the real
// body followed by whitespace to kOversizeBodyBytes, still valid JSON).
inline constexpr const char* kBadBodies[] = {"malformed_json", "html", "truncated", "oversize"};

// Size of an "oversize" body: 65 MiB, one MiB over the most the provider's client reads.
inline constexpr size_t kOversizeBodyBytes = size_t{65} << 20;

// What to do with one request.
struct FaultDecision {
  int latency_ms = 0;
  bool latency_after_commit = false;
  // 0: serve normally; otherwise answer with this status (429 or fail_status).
  int status = 0;
  // For 429: the Retry-After value in seconds.
  int retry_after_seconds = 0;
  // For a failure status: its body kind, and whether it replaces the answer of a request that
  // was processed.
  std::string fail_body;
  bool after_commit = false;
  // Answer nothing (see FaultConfig::hang_next); `hang_generation` is passed to HangReleased.
  bool hang = false;
  uint64_t hang_generation = 0;
  // The kind of bad body to put in the answer, or "".
  std::string bad_body;
  // Expire every session before the request is authorized.
  bool expire = false;

  // The faults that fired, for the request log: "latency,throttle" or "".
  std::string Names() const;
};

// Thread-safe fault state.
class Faults {
 public:
  explicit Faults(const FaultConfig& initial) : config_(initial) {}

  // Validates a fault configuration (statuses 400-599, counts >= 0, latency <= 60 s, known
  // body kinds).
  static absl::Status Validate(const FaultConfig& config);

  // Merges the keys present in `update` (the FaultConfig member names, without the *_match
  // ones); other keys are an InvalidArgument error naming them, except "expire_sessions", which
  // the caller handles. A "match" string applies to each fault whose count (or latency_ms) this
  // update sets, and resets to "" the match of those it sets without one.
  absl::Status Update(const nlohmann::json& update);

  // Removes every fault and releases hung requests.
  void Clear();

  // Releases hung requests (the emulator is stopping); later hang faults still fire.
  void ReleaseHangs();

  // True once hung requests of `generation` (FaultDecision::hang_generation) are released.
  bool HangReleased(uint64_t generation);

  // Decides the fate of one request with counter key `key` and consumes the faults that fire.
  FaultDecision OnRequest(const std::string& key = "");

  // True (consuming one) when the create just committed should have its connection dropped.
  bool TakeDropAfterCreate();
  // After a GET of one SE group: the field and value another writer sets on it now (consuming
  // one other_writer_next), or nullopt.
  std::optional<std::pair<std::string, int>> TakeOtherWriter();

  // True (consuming one) when the migration starting now is to fail (migrate_fail_next).
  bool TakeMigrateFail();
  // True (consuming one) when the SE being created now is never to come up (se_never_up_next).
  bool TakeSeNeverUp();
  // Whether DELETE of an SE that hosts virtual services succeeds (delete_hosting_se; not
  // consumed).
  bool DeleteHostingSe();

  // The current configuration as JSON.
  nlohmann::json ToJson();

 private:
  absl::Mutex mu_;
  FaultConfig config_ ABSL_GUARDED_BY(mu_);
  uint64_t hang_generation_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace nsxalb::emulator

#endif  // NSXALB_EMULATOR_FAULTS_H_
