// Fault injection state.
#include "emulator/faults.h"

#include <fnmatch.h>

#include <algorithm>
#include <iterator>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "plugin/common/status_macros.h"

namespace nsxalb::emulator {
namespace {

bool Matches(const std::string& match, const std::string& key) {
  return match.empty() || fnmatch(match.c_str(), key.c_str(), 0) == 0;
}

}  // namespace

std::string FaultDecision::Names() const {
  std::vector<std::string> names;
  if (latency_ms > 0) names.push_back("latency");
  if (expire) names.push_back("expire");
  if (hang) names.push_back("hang");
  if (status == 429) names.push_back("throttle");
  if (status != 0 && status != 429) names.push_back(after_commit ? "fail_after_commit" : "fail");
  if (!bad_body.empty()) names.push_back(absl::StrCat("bad_body:", bad_body));
  return absl::StrJoin(names, ",");
}

absl::Status Faults::Validate(const FaultConfig& c) {
  if (c.fail_next < 0 || c.throttle_next < 0 || c.drop_after_create < 0 || c.hang_next < 0 ||
      c.bad_body_next < 0 || c.expire_next < 0 || c.other_writer_next < 0 ||
      c.migrate_fail_next < 0 || c.se_never_up_next < 0) {
    return absl::InvalidArgumentError("fault counts must not be negative");
  }
  if (c.fail_status < 400 || c.fail_status > 599) {
    return absl::InvalidArgumentError(
        absl::StrCat("fail_status must be an HTTP error status 400-599, got ", c.fail_status));
  }
  if (c.fail_body != "json" && c.fail_body != "html") {
    return absl::InvalidArgumentError(
        absl::StrCat("fail_body must be \"json\" or \"html\", got \"", c.fail_body, "\""));
  }
  if (c.latency_ms < 0 || c.latency_ms > 60000) {
    return absl::InvalidArgumentError(
        absl::StrCat("latency_ms must be 0-60000, got ", c.latency_ms));
  }
  if (c.retry_after_seconds < 0 || c.retry_after_seconds > 3600) {
    return absl::InvalidArgumentError(
        absl::StrCat("retry_after_seconds must be 0-3600, got ", c.retry_after_seconds));
  }
  if (std::find(std::begin(kBadBodies), std::end(kBadBodies), c.bad_body) == std::end(kBadBodies)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bad_body must be one of ", absl::StrJoin(kBadBodies, ", "), "; got \"", c.bad_body, "\""));
  }
  if (c.other_writer_field.empty() || c.other_writer_field == "name" ||
      c.other_writer_field == "uuid" || c.other_writer_field == "url" ||
      c.other_writer_field == "_last_modified" || absl::EndsWith(c.other_writer_field, "_ref")) {
    return absl::InvalidArgumentError(
        absl::StrCat("other_writer_field must name an untyped SE group field (not name, uuid, "
                     "url, _last_modified or a ref), got \"",
                     c.other_writer_field, "\""));
  }
  return absl::OkStatus();
}

absl::Status Faults::Update(const nlohmann::json& update) {
  if (!update.is_object()) return absl::InvalidArgumentError("faults body must be a JSON object");
  std::string match;
  if (auto m = update.find("match"); m != update.end()) {
    if (!m->is_string()) return absl::InvalidArgumentError("fault match must be a string");
    match = m->get<std::string>();
  }
  absl::MutexLock lock(&mu_);
  FaultConfig next = config_;
  for (auto it = update.begin(); it != update.end(); ++it) {
    const std::string& key = it.key();
    if (key == "expire_sessions" || key == "match") continue;
    int* slot = nullptr;
    std::string* text = nullptr;
    bool* flag = nullptr;
    // The match of the fault this key counts, if it is a count.
    std::string* match_slot = nullptr;
    if (key == "fail_next") slot = &next.fail_next, match_slot = &next.fail_match;
    if (key == "fail_status") slot = &next.fail_status;
    if (key == "fail_body") text = &next.fail_body;
    if (key == "fail_after_commit") flag = &next.fail_after_commit;
    if (key == "latency_ms") slot = &next.latency_ms, match_slot = &next.latency_match;
    if (key == "latency_after_commit") flag = &next.latency_after_commit;
    if (key == "drop_after_create") slot = &next.drop_after_create;
    if (key == "throttle_next") slot = &next.throttle_next, match_slot = &next.throttle_match;
    if (key == "retry_after_seconds") slot = &next.retry_after_seconds;
    if (key == "hang_next") slot = &next.hang_next, match_slot = &next.hang_match;
    if (key == "bad_body_next") slot = &next.bad_body_next, match_slot = &next.bad_body_match;
    if (key == "bad_body") text = &next.bad_body;
    if (key == "expire_next") slot = &next.expire_next, match_slot = &next.expire_match;
    if (key == "other_writer_next") slot = &next.other_writer_next;
    if (key == "other_writer_field") text = &next.other_writer_field;
    if (key == "other_writer_value") slot = &next.other_writer_value;
    if (key == "migrate_fail_next") slot = &next.migrate_fail_next;
    if (key == "se_never_up_next") slot = &next.se_never_up_next;
    if (key == "delete_hosting_se") flag = &next.delete_hosting_se;
    if (slot != nullptr) {
      if (!it.value().is_number_integer()) {
        return absl::InvalidArgumentError(absl::StrCat("fault ", key, " must be an integer"));
      }
      *slot = it.value().get<int>();
      if (match_slot != nullptr) *match_slot = match;
    } else if (text != nullptr) {
      if (!it.value().is_string()) {
        return absl::InvalidArgumentError(absl::StrCat("fault ", key, " must be a string"));
      }
      *text = it.value().get<std::string>();
    } else if (flag != nullptr) {
      if (!it.value().is_boolean()) {
        return absl::InvalidArgumentError(absl::StrCat("fault ", key, " must be a boolean"));
      }
      *flag = it.value().get<bool>();
    } else {
      return absl::InvalidArgumentError(absl::StrCat("unknown fault: ", key));
    }
  }
  NSXALB_RETURN_IF_ERROR(Validate(next));
  config_ = next;
  return absl::OkStatus();
}

void Faults::Clear() {
  absl::MutexLock lock(&mu_);
  config_ = FaultConfig{};
  ++hang_generation_;
}

void Faults::ReleaseHangs() {
  absl::MutexLock lock(&mu_);
  ++hang_generation_;
}

bool Faults::HangReleased(uint64_t generation) {
  absl::MutexLock lock(&mu_);
  return hang_generation_ != generation;
}

FaultDecision Faults::OnRequest(const std::string& key) {
  absl::MutexLock lock(&mu_);
  FaultConfig& c = config_;
  FaultDecision d;
  if (Matches(c.latency_match, key)) {
    d.latency_ms = c.latency_ms;
    d.latency_after_commit = c.latency_after_commit;
  }
  if (c.expire_next > 0 && Matches(c.expire_match, key)) {
    --c.expire_next;
    d.expire = true;
  }
  if (c.hang_next > 0 && Matches(c.hang_match, key)) {
    --c.hang_next;
    d.hang = true;
    d.hang_generation = hang_generation_;
    return d;
  }
  if (c.throttle_next > 0 && Matches(c.throttle_match, key)) {
    --c.throttle_next;
    d.status = 429;
    d.retry_after_seconds = c.retry_after_seconds;
    return d;
  }
  if (c.fail_next > 0 && Matches(c.fail_match, key)) {
    --c.fail_next;
    d.status = c.fail_status;
    d.fail_body = c.fail_body;
    d.after_commit = c.fail_after_commit;
    return d;
  }
  if (c.bad_body_next > 0 && Matches(c.bad_body_match, key)) {
    --c.bad_body_next;
    d.bad_body = c.bad_body;
  }
  return d;
}

std::optional<std::pair<std::string, int>> Faults::TakeOtherWriter() {
  absl::MutexLock lock(&mu_);
  if (config_.other_writer_next <= 0) return std::nullopt;
  --config_.other_writer_next;
  return std::make_pair(config_.other_writer_field, config_.other_writer_value);
}

bool Faults::TakeMigrateFail() {
  absl::MutexLock lock(&mu_);
  if (config_.migrate_fail_next <= 0) return false;
  --config_.migrate_fail_next;
  return true;
}

bool Faults::TakeSeNeverUp() {
  absl::MutexLock lock(&mu_);
  if (config_.se_never_up_next <= 0) return false;
  --config_.se_never_up_next;
  return true;
}

bool Faults::DeleteHostingSe() {
  absl::MutexLock lock(&mu_);
  return config_.delete_hosting_se;
}

bool Faults::TakeDropAfterCreate() {
  absl::MutexLock lock(&mu_);
  if (config_.drop_after_create <= 0) return false;
  --config_.drop_after_create;
  return true;
}

nlohmann::json Faults::ToJson() {
  absl::MutexLock lock(&mu_);
  const FaultConfig& c = config_;
  return {{"fail_next", c.fail_next},
          {"fail_status", c.fail_status},
          {"fail_body", c.fail_body},
          {"fail_after_commit", c.fail_after_commit},
          {"fail_match", c.fail_match},
          {"latency_ms", c.latency_ms},
          {"latency_after_commit", c.latency_after_commit},
          {"latency_match", c.latency_match},
          {"drop_after_create", c.drop_after_create},
          {"throttle_next", c.throttle_next},
          {"retry_after_seconds", c.retry_after_seconds},
          {"throttle_match", c.throttle_match},
          {"hang_next", c.hang_next},
          {"hang_match", c.hang_match},
          {"bad_body_next", c.bad_body_next},
          {"bad_body", c.bad_body},
          {"bad_body_match", c.bad_body_match},
          {"expire_next", c.expire_next},
          {"expire_match", c.expire_match},
          {"other_writer_next", c.other_writer_next},
          {"other_writer_field", c.other_writer_field},
          {"other_writer_value", c.other_writer_value},
          {"migrate_fail_next", c.migrate_fail_next},
          {"se_never_up_next", c.se_never_up_next},
          {"delete_hosting_se", c.delete_hosting_se}};
}

}  // namespace nsxalb::emulator
