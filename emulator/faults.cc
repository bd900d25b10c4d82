// Fault injection state.
#include "emulator/faults.h"

#include "absl/strings/str_cat.h"

namespace nsxalb::emulator {

absl::Status Faults::Validate(const FaultConfig& c) {
  if (c.fail_next < 0 || c.throttle_next < 0 || c.drop_after_create < 0) {
    return absl::InvalidArgumentError("fault counts must not be negative");
  }
  if (c.fail_status < 400 || c.fail_status > 599) {
    return absl::InvalidArgumentError(
        absl::StrCat("fail_status must be an HTTP error status 400-599, got ", c.fail_status));
  }
  if (c.latency_ms < 0 || c.latency_ms > 60000) {
    return absl::InvalidArgumentError(
        absl::StrCat("latency_ms must be 0-60000, got ", c.latency_ms));
  }
  if (c.retry_after_seconds < 0 || c.retry_after_seconds > 3600) {
    return absl::InvalidArgumentError(
        absl::StrCat("retry_after_seconds must be 0-3600, got ", c.retry_after_seconds));
  }
  return absl::OkStatus();
}

absl::Status Faults::Update(const nlohmann::json& update) {
  if (!update.is_object()) return absl::InvalidArgumentError("faults body must be a JSON object");
  absl::MutexLock lock(&mu_);
  FaultConfig next = config_;
  for (auto it = update.begin(); it != update.end(); ++it) {
    const std::string& key = it.key();
    if (key == "expire_sessions") continue;
    int* slot = nullptr;
    if (key == "fail_next") slot = &next.fail_next;
    if (key == "fail_status") slot = &next.fail_status;
    if (key == "latency_ms") slot = &next.latency_ms;
    if (key == "drop_after_create") slot = &next.drop_after_create;
    if (key == "throttle_next") slot = &next.throttle_next;
    if (key == "retry_after_seconds") slot = &next.retry_after_seconds;
    if (slot == nullptr) return absl::InvalidArgumentError(absl::StrCat("unknown fault: ", key));
    if (!it.value().is_number_integer()) {
      return absl::InvalidArgumentError(absl::StrCat("fault ", key, " must be an integer"));
    }
    *slot = it.value().get<int>();
  }
  absl::Status valid = Validate(next);
  if (!valid.ok()) return valid;
  config_ = next;
  return absl::OkStatus();
}

void Faults::Clear() {
  absl::MutexLock lock(&mu_);
  config_ = FaultConfig{};
}

FaultDecision Faults::OnRequest() {
  absl::MutexLock lock(&mu_);
  FaultDecision d;
  d.latency_ms = config_.latency_ms;
  if (config_.throttle_next > 0) {
    --config_.throttle_next;
    d.status = 429;
    d.retry_after_seconds = config_.retry_after_seconds;
  } else if (config_.fail_next > 0) {
    --config_.fail_next;
    d.status = config_.fail_status;
  }
  return d;
}

bool Faults::TakeDropAfterCreate() {
  absl::MutexLock lock(&mu_);
  if (config_.drop_after_create <= 0) return false;
  --config_.drop_after_create;
  return true;
}

nlohmann::json Faults::ToJson() {
  absl::MutexLock lock(&mu_);
  return {{"fail_next", config_.fail_next},
          {"fail_status", config_.fail_status},
          {"latency_ms", config_.latency_ms},
          {"drop_after_create", config_.drop_after_create},
          {"throttle_next", config_.throttle_next},
          {"retry_after_seconds", config_.retry_after_seconds}};
}

}  // namespace nsxalb::emulator
