// Request counters.
#include "emulator/counters.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"

namespace nsxalb::emulator {

Counters::Counters(std::function<int64_t()> now_us)
    : now_us_(now_us ? std::move(now_us) : [] { return absl::ToUnixMicros(absl::Now()); }) {}

std::string Counters::Key(absl::string_view method, absl::string_view path) {
  // "/api/serviceenginegroup/" and "/api/serviceenginegroup" are the same endpoint.
  if (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  std::vector<std::string> parts = absl::StrSplit(path, '/');
  // parts: "", "api", TYPE, ID, ... ; the segment after the type is an object id, except the
  // collection-level actions a Controller defines there.
  // Analytics paths hold the type two segments further on: /api/analytics/metrics/TYPE/ID
  // (and /api/analytics/metrics/collection, which has none).
  const size_t id_at = parts.size() >= 3 && parts[1] == "api" && parts[2] == "analytics" ? 5 : 3;
  // /api/licensing/ledger/details is one endpoint, not an object of a type "licensing".
  if (parts.size() >= id_at + 1 && parts[1] == "api" && parts[2] != "licensing" &&
      !parts[id_at].empty() && parts[id_at] != "clear") {
    parts[id_at] = "{uuid}";
  }
  return absl::StrCat(method, " ", absl::StrJoin(parts, "/"));
}

void Counters::Record(absl::string_view method, absl::string_view path, absl::string_view faults) {
  std::string key = Key(method, path);
  const int64_t at = now_us_();
  absl::MutexLock lock(&mu_);
  ++total_;
  ++by_key_[key];
  if (log_.size() >= kMaxLogged) log_.pop_front();
  log_.push_back(Logged{std::move(key), at, std::string(faults)});
}

void Counters::SetConnectionTotal(std::function<uint64_t()> total) {
  absl::MutexLock lock(&mu_);
  connection_total_ = std::move(total);
  connections_at_reset_ = connection_total_();
}

nlohmann::json Counters::ToJson() {
  absl::MutexLock lock(&mu_);
  nlohmann::json requests = nlohmann::json::object();
  for (const auto& [k, v] : by_key_) requests[k] = v;
  nlohmann::json log = nlohmann::json::array();
  for (const Logged& l : log_) {
    nlohmann::json entry = {{"request", l.key}, {"at_us", l.at_us}};
    if (!l.faults.empty()) entry["faults"] = l.faults;
    log.push_back(std::move(entry));
  }
  const uint64_t connections = connection_total_ ? connection_total_() - connections_at_reset_ : 0;
  return {
      {"total", total_}, {"requests", requests}, {"log", log}, {"tls_connections", connections}};
}

void Counters::Reset() {
  absl::MutexLock lock(&mu_);
  total_ = 0;
  by_key_.clear();
  log_.clear();
  if (connection_total_) connections_at_reset_ = connection_total_();
}

}  // namespace nsxalb::emulator
