// Session table with idle expiry.
#include "emulator/sessions.h"

#include <utility>

#include "emulator/random_id.h"

namespace nsxalb::emulator {
namespace {
// Tombstones of expired sessions are dropped after this long, bounding memory.
constexpr absl::Duration kTombstoneLifetime = absl::Hours(24);
}  // namespace

SessionManager::SessionManager(absl::Duration idle_timeout, Clock clock)
    : idle_timeout_(idle_timeout), clock_(std::move(clock)) {}

Session SessionManager::Create(const std::string& username) {
  Session s;
  s.id = NewHexToken(16);
  s.csrf_token = NewHexToken(16);
  s.username = username;
  s.last_used = clock_();
  absl::MutexLock lock(&mu_);
  for (auto it = sessions_.begin(); it != sessions_.end();) {
    if (s.last_used - it->second.last_used > idle_timeout_ + kTombstoneLifetime) {
      it = sessions_.erase(it);
    } else {
      ++it;
    }
  }
  sessions_[s.id] = s;
  issued_.session_ids.push_back(s.id);
  issued_.csrf_tokens.push_back(s.csrf_token);
  return s;
}

SessionManager::State SessionManager::Touch(const std::string& id, Session* out) {
  absl::MutexLock lock(&mu_);
  auto it = sessions_.find(id);
  if (id.empty() || it == sessions_.end()) return State::kUnknown;
  const absl::Time now = clock_();
  if (!it->second.expired && now - it->second.last_used > idle_timeout_) {
    it->second.expired = true;
  }
  if (it->second.expired) return State::kExpired;
  it->second.last_used = now;
  if (out != nullptr) *out = it->second;
  return State::kValid;
}

void SessionManager::Remove(const std::string& id) {
  absl::MutexLock lock(&mu_);
  sessions_.erase(id);
}

void SessionManager::ExpireAll() {
  absl::MutexLock lock(&mu_);
  for (auto& [id, s] : sessions_) s.expired = true;
}

size_t SessionManager::ValidCount() {
  absl::MutexLock lock(&mu_);
  const absl::Time now = clock_();
  size_t n = 0;
  for (const auto& [id, s] : sessions_) {
    if (!s.expired && now - s.last_used <= idle_timeout_) ++n;
  }
  return n;
}

std::string SessionManager::IssueToken(const std::string& username) {
  std::string token = NewHexToken(20);
  absl::MutexLock lock(&mu_);
  tokens_[token] = username;
  issued_.auth_tokens.push_back(token);
  return token;
}

IssuedSecrets SessionManager::Issued() {
  absl::MutexLock lock(&mu_);
  return issued_;
}

bool SessionManager::CheckToken(const std::string& username, const std::string& token) {
  absl::MutexLock lock(&mu_);
  auto it = tokens_.find(token);
  return !token.empty() && it != tokens_.end() && it->second == username;
}

}  // namespace nsxalb::emulator
