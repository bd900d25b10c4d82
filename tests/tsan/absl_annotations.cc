// ThreadSanitizer annotations for Debian's Abseil synchronization primitives (NSXALB_TSAN only).
//
// Debian builds libabsl_synchronization without ThreadSanitizer, so absl::Mutex, CondVar and
// Notification synchronize through atomics and futexes that TSan never sees: every access
// guarded by an absl::Mutex would be reported as a race. Abseil built with TSan annotates these
// operations itself (ABSL_TSAN_MUTEX_* in its mutex.cc); this file adds the same annotations from
// outside. It defines the out-of-line member functions of absl::Mutex, CondVar and Notification;
// linked into an executable (and exported with -rdynamic), these definitions interpose on the
// shared library's, for our code, Abseil's own calls between its functions, and gRPC's. Each one
// tells TSan what happens (lock, unlock, release) and calls the real function, found with
// dlsym(RTLD_NEXT). tests/tsan/CMakeLists.txt links it into every executable of a TSan build.
//
// What it cannot see: Abseil's and gRPC's own memory accesses are not instrumented at all, so
// races inside them go unreported, and their lock-free hand-offs are invisible; the few reports
// that come from that are suppressed by module in tests/tsan/suppressions.txt.
#include <dlfcn.h>
#include <sanitizer/tsan_interface.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/base/options.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"

namespace {

#define NSXALB_STR2(x) #x
#define NSXALB_STR(x) NSXALB_STR2(x)

// The real function `rest` ("5Mutex4LockEv") of Abseil's inline namespace.
void* Real(const char* rest) {
  const std::string ns = NSXALB_STR(ABSL_OPTION_INLINE_NAMESPACE_NAME);
  const std::string name = "_ZN4absl" + std::to_string(ns.size()) + ns + rest;
  void* fn = dlsym(RTLD_NEXT, name.c_str());
  if (fn == nullptr) {
    std::fprintf(stderr, "absl_annotations: %s not found\n", name.c_str());
    std::abort();
  }
  return fn;
}

template <typename Fn>
Fn RealFn(const char* rest) {
  return reinterpret_cast<Fn>(Real(rest));
}

constexpr unsigned kRead = __tsan_mutex_read_lock;

// Some of the real functions call others of this file through the PLT (LockWhenWithTimeout
// calls LockWhenWithDeadline, CondVar::WaitWithTimeout calls WaitWithDeadline). Only the
// outermost call of a thread annotates; nested ones go straight to the real function.
thread_local int active_calls = 0;

class Outermost {
 public:
  Outermost() : outermost_(active_calls++ == 0) {}
  ~Outermost() { --active_calls; }
  explicit operator bool() const { return outermost_; }

 private:
  bool outermost_;
};

// The Mutex is held again after a wait that released it inside Abseil.
void Relocked(void* mu, unsigned flags) {
  __tsan_mutex_pre_lock(mu, flags);
  __tsan_mutex_post_lock(mu, flags, 0);
}

// The Mutex is released for a wait inside Abseil.
void Released(void* mu, unsigned flags) {
  __tsan_mutex_pre_unlock(mu, flags);
  __tsan_mutex_post_unlock(mu, flags);
}

// Lock-like calls: the mutex is held when they return. Accesses inside (condition evaluation)
// are ignored between pre and post.
template <typename R, typename... Args>
R Locking(void* mu, unsigned flags, R (*real)(absl::Mutex*, Args...), Args... args) {
  __tsan_mutex_pre_lock(mu, flags);
  R r = real(static_cast<absl::Mutex*>(mu), args...);
  __tsan_mutex_post_lock(mu, flags, 0);
  return r;
}

template <typename... Args>
void LockingVoid(void* mu, unsigned flags, void (*real)(absl::Mutex*, Args...), Args... args) {
  __tsan_mutex_pre_lock(mu, flags);
  real(static_cast<absl::Mutex*>(mu), args...);
  __tsan_mutex_post_lock(mu, flags, 0);
}

// Await-like calls: entered and left with the mutex held, released in between.
template <typename R, typename... Args>
R Waiting(void* mu, unsigned flags, R (*real)(absl::Mutex*, Args...), Args... args) {
  __tsan_mutex_pre_unlock(mu, flags);
  R r = real(static_cast<absl::Mutex*>(mu), args...);
  __tsan_mutex_post_unlock(mu, flags);
  Relocked(mu, flags);
  return r;
}

}  // namespace

namespace absl {
ABSL_NAMESPACE_BEGIN

using Cond = const Condition&;

void Mutex::Lock() {
  static auto real = RealFn<void (*)(Mutex*)>("5Mutex4LockEv");
  Outermost call;
  if (!call) return real(this);
  LockingVoid(this, 0, real);
}

void Mutex::ReaderLock() {
  static auto real = RealFn<void (*)(Mutex*)>("5Mutex10ReaderLockEv");
  Outermost call;
  if (!call) return real(this);
  LockingVoid(this, kRead, real);
}

bool Mutex::TryLock() {
  static auto real = RealFn<bool (*)(Mutex*)>("5Mutex7TryLockEv");
  Outermost call;
  if (!call) return real(this);
  __tsan_mutex_pre_lock(this, __tsan_mutex_try_lock);
  bool locked = real(this);
  __tsan_mutex_post_lock(this, __tsan_mutex_try_lock | (locked ? 0 : __tsan_mutex_try_lock_failed),
                         0);
  return locked;
}

bool Mutex::ReaderTryLock() {
  static auto real = RealFn<bool (*)(Mutex*)>("5Mutex13ReaderTryLockEv");
  Outermost call;
  if (!call) return real(this);
  __tsan_mutex_pre_lock(this, kRead | __tsan_mutex_try_lock);
  bool locked = real(this);
  __tsan_mutex_post_lock(
      this, kRead | __tsan_mutex_try_lock | (locked ? 0 : __tsan_mutex_try_lock_failed), 0);
  return locked;
}

void Mutex::Unlock() {
  static auto real = RealFn<void (*)(Mutex*)>("5Mutex6UnlockEv");
  Outermost call;
  if (!call) return real(this);
  __tsan_mutex_pre_unlock(this, 0);
  real(this);
  __tsan_mutex_post_unlock(this, 0);
}

void Mutex::ReaderUnlock() {
  static auto real = RealFn<void (*)(Mutex*)>("5Mutex12ReaderUnlockEv");
  Outermost call;
  if (!call) return real(this);
  __tsan_mutex_pre_unlock(this, kRead);
  real(this);
  __tsan_mutex_post_unlock(this, kRead);
}

void Mutex::LockWhen(Cond cond) {
  static auto real = RealFn<void (*)(Mutex*, Cond)>("5Mutex8LockWhenERKNS0_9ConditionE");
  Outermost call;
  if (!call) return real(this, cond);
  LockingVoid<Cond>(this, 0, real, cond);
}

bool Mutex::LockWhenWithTimeout(Cond cond, Duration timeout) {
  static auto real = RealFn<bool (*)(Mutex*, Cond, Duration)>(
      "5Mutex19LockWhenWithTimeoutERKNS0_9ConditionENS0_8DurationE");
  Outermost call;
  if (!call) return real(this, cond, timeout);
  return Locking<bool, Cond, Duration>(this, 0, real, cond, timeout);
}

bool Mutex::LockWhenWithDeadline(Cond cond, Time deadline) {
  static auto real = RealFn<bool (*)(Mutex*, Cond, Time)>(
      "5Mutex20LockWhenWithDeadlineERKNS0_9ConditionENS0_4TimeE");
  Outermost call;
  if (!call) return real(this, cond, deadline);
  return Locking<bool, Cond, Time>(this, 0, real, cond, deadline);
}

void Mutex::ReaderLockWhen(Cond cond) {
  static auto real = RealFn<void (*)(Mutex*, Cond)>("5Mutex14ReaderLockWhenERKNS0_9ConditionE");
  Outermost call;
  if (!call) return real(this, cond);
  LockingVoid<Cond>(this, kRead, real, cond);
}

bool Mutex::ReaderLockWhenWithTimeout(Cond cond, Duration timeout) {
  static auto real = RealFn<bool (*)(Mutex*, Cond, Duration)>(
      "5Mutex25ReaderLockWhenWithTimeoutERKNS0_9ConditionENS0_8DurationE");
  Outermost call;
  if (!call) return real(this, cond, timeout);
  return Locking<bool, Cond, Duration>(this, kRead, real, cond, timeout);
}

bool Mutex::ReaderLockWhenWithDeadline(Cond cond, Time deadline) {
  static auto real = RealFn<bool (*)(Mutex*, Cond, Time)>(
      "5Mutex26ReaderLockWhenWithDeadlineERKNS0_9ConditionENS0_4TimeE");
  Outermost call;
  if (!call) return real(this, cond, deadline);
  return Locking<bool, Cond, Time>(this, kRead, real, cond, deadline);
}

void Mutex::Await(Cond cond) {
  static auto real = RealFn<void (*)(Mutex*, Cond)>("5Mutex5AwaitERKNS0_9ConditionE");
  Outermost call;
  if (!call) return real(this, cond);
  __tsan_mutex_pre_unlock(this, 0);
  real(this, cond);
  __tsan_mutex_post_unlock(this, 0);
  Relocked(this, 0);
}

bool Mutex::AwaitWithTimeout(Cond cond, Duration timeout) {
  static auto real = RealFn<bool (*)(Mutex*, Cond, Duration)>(
      "5Mutex16AwaitWithTimeoutERKNS0_9ConditionENS0_8DurationE");
  Outermost call;
  if (!call) return real(this, cond, timeout);
  return Waiting<bool, Cond, Duration>(this, 0, real, cond, timeout);
}

bool Mutex::AwaitWithDeadline(Cond cond, Time deadline) {
  static auto real =
      RealFn<bool (*)(Mutex*, Cond, Time)>("5Mutex17AwaitWithDeadlineERKNS0_9ConditionENS0_4TimeE");
  Outermost call;
  if (!call) return real(this, cond, deadline);
  return Waiting<bool, Cond, Time>(this, 0, real, cond, deadline);
}

Mutex::~Mutex() {
  static auto real = RealFn<void (*)(Mutex*)>("5MutexD2Ev");
  __tsan_mutex_destroy(this, 0);
  real(this);
}

void CondVar::Wait(Mutex* mu) {
  static auto real = RealFn<void (*)(CondVar*, Mutex*)>("7CondVar4WaitEPNS0_5MutexE");
  Outermost call;
  if (!call) return real(this, mu);
  Released(mu, 0);
  real(this, mu);
  Relocked(mu, 0);
}

bool CondVar::WaitWithTimeout(Mutex* mu, Duration timeout) {
  static auto real = RealFn<bool (*)(CondVar*, Mutex*, Duration)>(
      "7CondVar15WaitWithTimeoutEPNS0_5MutexENS0_8DurationE");
  Outermost call;
  if (!call) return real(this, mu, timeout);
  Released(mu, 0);
  bool timed_out = real(this, mu, timeout);
  Relocked(mu, 0);
  return timed_out;
}

bool CondVar::WaitWithDeadline(Mutex* mu, Time deadline) {
  static auto real =
      RealFn<bool (*)(CondVar*, Mutex*, Time)>("7CondVar16WaitWithDeadlineEPNS0_5MutexENS0_4TimeE");
  Outermost call;
  if (!call) return real(this, mu, deadline);
  Released(mu, 0);
  bool timed_out = real(this, mu, deadline);
  Relocked(mu, 0);
  return timed_out;
}

// HasBeenNotified() is inline: an acquire load of notified_yet_ in our (instrumented) code,
// which must see the release of the store made inside the uninstrumented Notify().
// notified_yet_ follows mutex_ in the object.
static_assert(sizeof(Notification) == sizeof(Mutex) + sizeof(std::atomic<bool>) + 7,
              "absl::Notification's layout changed: update the address of notified_yet_");

void Notification::Notify() {
  static auto real = RealFn<void (*)(Notification*)>("12Notification6NotifyEv");
  __tsan_release(reinterpret_cast<char*>(this) + sizeof(Mutex));
  real(this);
}

ABSL_NAMESPACE_END
}  // namespace absl
