// Fault injection for the emulated Controller, set by flags or POST /_emulator/faults.
//
// Faults apply to every request except the /_emulator/ control endpoint: added latency, 429 with
// Retry-After for the next N requests, an error status (503 by default) for the next N requests,
// and dropping the connection after committing the next N creates. Counters decrement as faults
// fire, so "fail_next": 2 fails exactly two requests.
#ifndef NSXALB_EMULATOR_FAULTS_H_
#define NSXALB_EMULATOR_FAULTS_H_

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "nlohmann/json.hpp"

namespace nsxalb::emulator {

// The configurable faults; all zero means none.
struct FaultConfig {
  int fail_next = 0;
  int fail_status = 503;
  int latency_ms = 0;
  int drop_after_create = 0;
  int throttle_next = 0;
  int retry_after_seconds = 1;
};

// What to do with one request.
struct FaultDecision {
  int latency_ms = 0;
  // 0: serve normally; otherwise answer with this status (429 or fail_status).
  int status = 0;
  // For 429: the Retry-After value in seconds.
  int retry_after_seconds = 0;
};

// Thread-safe fault state.
class Faults {
 public:
  explicit Faults(const FaultConfig& initial) : config_(initial) {}

  // Validates a fault configuration (statuses 400-599, counts >= 0, latency <= 60 s).
  static absl::Status Validate(const FaultConfig& config);

  // Merges the keys present in `update` ("fail_next", "fail_status", "latency_ms",
  // "drop_after_create", "throttle_next", "retry_after_seconds"); other keys are an
  // InvalidArgument error naming them, except "expire_sessions", which the caller handles.
  absl::Status Update(const nlohmann::json& update);

  // Removes every fault.
  void Clear();

  // Decides the fate of one request and consumes one throttle or failure if it fires.
  FaultDecision OnRequest();

  // True (consuming one) when the create just committed should have its connection dropped.
  bool TakeDropAfterCreate();

  // The current configuration as JSON.
  nlohmann::json ToJson();

 private:
  absl::Mutex mu_;
  FaultConfig config_ ABSL_GUARDED_BY(mu_);
};

}  // namespace nsxalb::emulator

#endif  // NSXALB_EMULATOR_FAULTS_H_
