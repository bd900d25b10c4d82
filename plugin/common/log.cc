// Implementation of the stderr logger described in log.h.
#include "plugin/common/log.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <string>

#include "absl/strings/ascii.h"

namespace nsxalb::log {
namespace {

constexpr int kUnset = -1;
std::atomic<int> g_threshold{kUnset};

Level LevelFromEnvironment() {
  for (const char* name : {"TF_LOG_PROVIDER", "TF_LOG"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0') return ParseLevel(value);
  }
  return Level::kWarn;
}

std::string_view Tag(Level level) {
  switch (level) {
    case Level::kTrace:
      return "[TRACE] ";
    case Level::kDebug:
      return "[DEBUG] ";
    case Level::kInfo:
      return "[INFO] ";
    case Level::kWarn:
      return "[WARN] ";
    case Level::kError:
      return "[ERROR] ";
    case Level::kOff:
      break;
  }
  return "";
}

}  // namespace

Level ParseLevel(std::string_view name) {
  const std::string upper = absl::AsciiStrToUpper(std::string(name));
  if (upper == "DEBUG") return Level::kDebug;
  if (upper == "INFO") return Level::kInfo;
  if (upper == "WARN") return Level::kWarn;
  if (upper == "ERROR") return Level::kError;
  if (upper == "OFF") return Level::kOff;
  return Level::kTrace;
}

Level Threshold() {
  int current = g_threshold.load(std::memory_order_relaxed);
  if (current == kUnset) {
    current = static_cast<int>(LevelFromEnvironment());
    g_threshold.store(current, std::memory_order_relaxed);
  }
  return static_cast<Level>(current);
}

void SetThreshold(Level level) { g_threshold.store(static_cast<int>(level)); }

void Write(Level level, std::string_view message) {
  if (level == Level::kOff || level < Threshold()) return;
  std::string line(Tag(level));
  line.append(message.data(), message.size());
  line.push_back('\n');
  // One write(2) per line keeps concurrent lines whole.
  size_t written = 0;
  while (written < line.size()) {
    const ssize_t n = ::write(STDERR_FILENO, line.data() + written, line.size() - written);
    if (n <= 0) return;
    written += static_cast<size_t>(n);
  }
}

}  // namespace nsxalb::log
