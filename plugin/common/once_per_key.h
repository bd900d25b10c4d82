// OncePerKey: a value fetched at most once per key for the life of its owner, shared by every
// caller and thread. The first caller of a key runs the fetch; callers that come while it runs
// wait for it and get its answer; later callers get the kept value without fetching. A failed
// fetch is given to the callers that waited for it and is not kept: the next caller fetches
// again. Header-only and generic, for the provider's per-process reads of the Controller (the
// tenant's SE listing, plugin/segroup/lifecycle/running_ses.h; the licence ledger): one request for
// a plan of any number of resources.
#ifndef NSXALB_PLUGIN_COMMON_ONCE_PER_KEY_H_
#define NSXALB_PLUGIN_COMMON_ONCE_PER_KEY_H_

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace nsxalb::common {

// Values of type `Value` by string key, each fetched once. Thread-safe.
template <typename Value>
class OncePerKey {
 public:
  using Shared = std::shared_ptr<const Value>;

  // The value of `key`: the kept one, the answer of the fetch in flight, or the answer of
  // `fetch`, run now by this caller (without the lock held, so fetches of other keys run at the
  // same time).
  absl::StatusOr<Shared> Get(const std::string& key,
                             const std::function<absl::StatusOr<Value>()>& fetch) {
    std::unique_lock<std::mutex> lock(mu_);
    Entry& entry = entries_[key];
    while (entry.in_flight) {
      const uint64_t generation = entry.generation;
      done_.wait(lock, [&] { return !entry.in_flight || entry.generation != generation; });
      if (entry.value != nullptr) return entry.value;
      if (entry.generation != generation) return entry.last_error;  // the fetch waited for failed
    }
    if (entry.value != nullptr) return entry.value;
    entry.in_flight = true;
    lock.unlock();
    absl::StatusOr<Value> fetched = fetch();
    lock.lock();
    entry.in_flight = false;
    ++entry.generation;
    absl::StatusOr<Shared> out;
    if (fetched.ok()) {
      entry.value = std::make_shared<const Value>(*std::move(fetched));
      out = entry.value;
    } else {
      entry.last_error = fetched.status();
      out = fetched.status();
    }
    done_.notify_all();
    return out;
  }

  // How many fetches have finished for `key` (for tests).
  uint64_t Fetches(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(key);
    return it == entries_.end() ? 0 : it->second.generation;
  }

 private:
  struct Entry {
    bool in_flight = false;
    uint64_t generation = 0;  // fetches finished
    Shared value;             // set once a fetch succeeded
    absl::Status last_error;  // of the last failed fetch
  };
  std::mutex mu_;
  std::condition_variable done_;
  std::map<std::string, Entry> entries_;  // std::map: references stay valid as keys are added
};

}  // namespace nsxalb::common

#endif  // NSXALB_PLUGIN_COMMON_ONCE_PER_KEY_H_
