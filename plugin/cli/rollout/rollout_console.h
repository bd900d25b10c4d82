// Where `controller rollout` writes while a roll runs: one line per step on `out`, as off a
// terminal; on a terminal also a progress line under them, rewritten in place ("\r" and erase to
// the end of the line) once a second so its clock moves:
//   rollout 2/3 checkout-se-2, 0:42: disabled, 2 virtual services migrating
// (the SE named by the latest step line among the SEs to roll, its position in the roll's order,
// the time since the roll began, and that step). Every write, the signal watcher's notice on
// `err` included, goes through one mutex, so lines never interleave and the progress line never
// sits in the middle of one.
#ifndef NSXALB_PLUGIN_CLI_ROLLOUT_ROLLOUT_CONSOLE_H_
#define NSXALB_PLUGIN_CLI_ROLLOUT_ROLLOUT_CONSOLE_H_

#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"

namespace nsxalb::cli {

// The roll's output streams, with or without a progress line.
class RolloutConsole {
 public:
  // `names`: the SEs to roll, in the roll's order. With `progress`, a ticker thread redraws the
  // progress line every second until the object is destroyed.
  RolloutConsole(std::ostream& out, std::ostream& err, bool progress,
                 std::vector<std::string> names);
  // Erases the progress line and stops the ticker.
  ~RolloutConsole();
  RolloutConsole(const RolloutConsole&) = delete;
  RolloutConsole& operator=(const RolloutConsole&) = delete;

  // One step line on `out` (a line of its own), then the progress line again.
  void Step(const std::string& line);
  // One line on `err`, then the progress line again.
  void Error(const std::string& line);

 private:
  void Print(std::ostream& stream, const std::string& line);
  void DrawLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  void EraseLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  std::ostream& out_;
  std::ostream& err_;
  const bool progress_;
  const std::vector<std::string> names_;
  const absl::Time start_;
  absl::Mutex mutex_;
  size_t current_ ABSL_GUARDED_BY(mutex_) = 0;     // index in names_ of the SE at hand
  std::string last_step_ ABSL_GUARDED_BY(mutex_);  // what the latest step line said of it
  absl::Notification done_;
  std::thread ticker_;
};

}  // namespace nsxalb::cli

#endif  // NSXALB_PLUGIN_CLI_ROLLOUT_ROLLOUT_CONSOLE_H_
