// Request counters per method and normalised path, read by tests and benchmarks through
// GET /_emulator/counters. Object ids in paths are replaced by "{uuid}" so that
// "GET /api/serviceenginegroup/serviceenginegroup-0f8f..." counts as
// "GET /api/serviceenginegroup/{uuid}" (and "GET /api/analytics/metrics/serviceengine/se-0f8f..."
// as "GET /api/analytics/metrics/serviceengine/{uuid}"); a trailing slash and the query string are
// not part of the key. Beside the counts, the last kMaxLogged requests are kept in arrival order
// with their arrival time and the faults that fired, so that a test can measure the gaps between
// retries. Next to them, "tls_connections" counts the TLS handshakes the server started (one per
// new client connection, the control endpoint's included), which shows whether clients reuse
// their connections.
#ifndef NSXALB_EMULATOR_COUNTERS_H_
#define NSXALB_EMULATOR_COUNTERS_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "nlohmann/json.hpp"

namespace nsxalb::emulator {

// Thread-safe request counters.
class Counters {
 public:
  // Requests kept in the log; older ones are dropped (the counts keep them).
  static constexpr size_t kMaxLogged = 10000;

  // `now_us`: microseconds since the Unix epoch; empty means the real clock.
  explicit Counters(std::function<int64_t()> now_us = {});

  // "METHOD /normalised/path" for a request path (query string already removed).
  static std::string Key(absl::string_view method, absl::string_view path);

  // Counts one request, arrived now, and logs it with `faults` (the faults that fired on it,
  // FaultDecision::Names(); "" for none).
  void Record(absl::string_view method, absl::string_view path, absl::string_view faults = "");

  // Where the number of TLS connections comes from: a running total (the TLS library's count
  // of server handshakes). Until set, "tls_connections" is 0.
  void SetConnectionTotal(std::function<uint64_t()> total);

  // {"total": N, "requests": {"POST /login": 1, ...}, "tls_connections": N,
  //  "log": [{"request": "POST /login", "at_us": 1700000000000000, "faults": "throttle"}, ...]}
  // ("faults" only when some fired).
  nlohmann::json ToJson();

  // Sets every counter back to zero and empties the log.
  void Reset();

 private:
  struct Logged {
    std::string key;
    int64_t at_us;
    std::string faults;
  };

  std::function<int64_t()> now_us_;
  absl::Mutex mu_;
  std::function<uint64_t()> connection_total_ ABSL_GUARDED_BY(mu_);
  uint64_t connections_at_reset_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t total_ ABSL_GUARDED_BY(mu_) = 0;
  std::map<std::string, uint64_t> by_key_ ABSL_GUARDED_BY(mu_);
  std::deque<Logged> log_ ABSL_GUARDED_BY(mu_);
};

}  // namespace nsxalb::emulator

#endif  // NSXALB_EMULATOR_COUNTERS_H_
