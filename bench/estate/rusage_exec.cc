// rusage_exec: runs a program and appends its resource usage to a log, one JSON line per run.
//
//   rusage_exec --log FILE -- PROGRAM [ARGS...]
//
// The estate benchmark (bench/estate/estate.sh) puts it between Terraform and the provider
// (the filesystem mirror's provider is a two-line script that execs it) and between the shell
// and Terraform, so that the CPU time and peak RSS of every provider process, and Terraform's
// own, are measured exactly: wait4(2) returns them for the child and the descendants it waited
// for. The child inherits stdin, stdout and stderr (the go-plugin handshake passes straight
// through), dies with this process (PR_SET_PDEATHSIG), and gets SIGTERM and SIGINT forwarded.
// The line:
//   {"pid":123,"exit":0,"wall_us":..,"utime_us":..,"stime_us":..,"maxrss_kb":..,
//    "self_utime_us":..,"self_stime_us":..}
// where self_* is this process's own usage (including a shell that exec'd it), for subtracting.
// Exits with the child's exit code (128 + signal if it was killed).
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

pid_t g_child = -1;

void Forward(int signal) {
  if (g_child > 0) kill(g_child, signal);
}

int64_t Micros(const timeval& t) {
  return static_cast<int64_t>(t.tv_sec) * 1000000 + static_cast<int64_t>(t.tv_usec);
}

int64_t NowMicros() {
  timespec t = {};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<int64_t>(t.tv_sec) * 1000000 + t.tv_nsec / 1000;
}

int Usage(const char* self) {
  std::fprintf(stderr, "usage: %s --log FILE -- PROGRAM [ARGS...]\n", self);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5 || std::strcmp(argv[1], "--log") != 0 || std::strcmp(argv[3], "--") != 0) {
    return Usage(argv[0]);
  }
  const char* log_path = argv[2];
  char** program = argv + 4;

  const int64_t start = NowMicros();
  const pid_t parent = getpid();
  g_child = fork();
  if (g_child < 0) {
    std::perror("rusage_exec: fork");
    return 127;
  }
  if (g_child == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    execvp(program[0], program);
    std::fprintf(stderr, "rusage_exec: cannot run %s: %s\n", program[0], std::strerror(errno));
    _exit(127);
  }
  struct sigaction forward = {};
  forward.sa_handler = Forward;
  sigemptyset(&forward.sa_mask);
  sigaction(SIGTERM, &forward, nullptr);
  sigaction(SIGINT, &forward, nullptr);

  int status = 0;
  rusage child = {};
  while (wait4(g_child, &status, 0, &child) < 0) {
    if (errno != EINTR) {
      std::perror("rusage_exec: wait4");
      return 127;
    }
  }
  const int64_t wall = NowMicros() - start;
  rusage self = {};
  getrusage(RUSAGE_SELF, &self);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

  char line[512];
  const int n = std::snprintf(
      line, sizeof(line),
      "{\"pid\":%d,\"exit\":%d,\"wall_us\":%lld,\"utime_us\":%lld,\"stime_us\":%lld,"
      "\"maxrss_kb\":%ld,\"self_utime_us\":%lld,\"self_stime_us\":%lld}\n",
      static_cast<int>(g_child), code, static_cast<long long>(wall),   // NOLINT(runtime/int)
      static_cast<long long>(Micros(child.ru_utime)),                  // NOLINT(runtime/int)
      static_cast<long long>(Micros(child.ru_stime)),                  // NOLINT(runtime/int)
      child.ru_maxrss, static_cast<long long>(Micros(self.ru_utime)),  // NOLINT(runtime/int)
      static_cast<long long>(Micros(self.ru_stime)));                  // NOLINT(runtime/int)
  // One write of a short line with O_APPEND: lines from concurrent processes never interleave.
  const int fd = open(log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0 || n <= 0 || write(fd, line, static_cast<size_t>(n)) != n) {
    std::fprintf(stderr, "rusage_exec: cannot append to %s: %s\n", log_path, std::strerror(errno));
  }
  if (fd >= 0) close(fd);
  return code;
}
