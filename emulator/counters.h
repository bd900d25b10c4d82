// Request counters per method and normalised path, read by tests and benchmarks through
// GET /_emulator/counters. Object ids in paths are replaced by "{uuid}" so that
// "GET /api/serviceenginegroup/serviceenginegroup-0f8f..." counts as
// "GET /api/serviceenginegroup/{uuid}"; a trailing slash and the query string are not part of
// the key. Next to them, "tls_connections" counts the TLS handshakes the server started (one per
// new client connection, the control endpoint's included), which shows whether clients reuse
// their connections.
#ifndef NSXALB_EMULATOR_COUNTERS_H_
#define NSXALB_EMULATOR_COUNTERS_H_

#include <cstdint>
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
  // "METHOD /normalised/path" for a request path (query string already removed).
  static std::string Key(absl::string_view method, absl::string_view path);

  // Counts one request.
  void Record(absl::string_view method, absl::string_view path);

  // Where the number of TLS connections comes from: a running total (the TLS library's count
  // of server handshakes). Until set, "tls_connections" is 0.
  void SetConnectionTotal(std::function<uint64_t()> total);

  // {"total": N, "requests": {"POST /login": 1, ...}, "tls_connections": N}.
  nlohmann::json ToJson();

  // Sets every counter back to zero.
  void Reset();

 private:
  absl::Mutex mu_;
  std::function<uint64_t()> connection_total_ ABSL_GUARDED_BY(mu_);
  uint64_t connections_at_reset_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t total_ ABSL_GUARDED_BY(mu_) = 0;
  std::map<std::string, uint64_t> by_key_ ABSL_GUARDED_BY(mu_);
};

}  // namespace nsxalb::emulator

#endif  // NSXALB_EMULATOR_COUNTERS_H_
