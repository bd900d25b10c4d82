// nsxalb-controller-emulator: flags, start the server, print the ready line, serve until SIGTERM.
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "emulator/config.h"
#include "emulator/server.h"
#include "nlohmann/json.hpp"
#include "plugin/common/log.h"

int main(int argc, char** argv) {
  const auto started = std::chrono::steady_clock::now();
  namespace emu = nsxalb::emulator;
  std::vector<std::string> args(argv + 1, argv + argc);
  absl::StatusOr<emu::Config> config =
      emu::ParseCommandLine(args, std::getenv("NSXALB_EMULATOR_PASSWORD"));
  if (!config.ok()) {
    std::fprintf(stderr, "nsxalb-controller-emulator: %s\n",
                 std::string(config.status().message()).c_str());
    return 2;
  }
  nsxalb::log::SetThreshold(nsxalb::log::ParseLevel(config->log_level));

  // Writes to a client that went away must not kill the process; termination signals are taken
  // by a dedicated thread so the server can stop and save its state.
  signal(SIGPIPE, SIG_IGN);
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  if (config->exit_with_parent) {
    const pid_t parent = getppid();
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) return 1;  // The parent died before prctl took effect.
  }

  absl::StatusOr<std::unique_ptr<emu::Server>> server = emu::Server::Create(*config);
  if (!server.ok()) {
    nsxalb::log::Error(absl::StrCat("nsxalb-controller-emulator: ", server.status().message()));
    return 1;
  }
  emu::Server* s = server->get();
  absl::Notification run_returned;
  std::thread waiter([s, &signals, &run_returned] {
    int sig = 0;
    sigwait(&signals, &sig);
    if (sig == SIGUSR1) return;  // Run() ended by itself.
    nsxalb::log::Info(absl::StrCat("emulator: signal ", sig, ", shutting down"));
    s->Stop();
    // cpp-httplib's Stop() waits for idle keep-alive connections to time out. Give requests in
    // flight a moment, then save state and exit without waiting for idle connections.
    if (!run_returned.WaitForNotificationWithTimeout(absl::Milliseconds(500))) {
      absl::Status done = s->Shutdown();
      if (!done.ok()) nsxalb::log::Error(absl::StrCat("emulator: ", done.message()));
      std::fflush(stderr);
      std::_Exit(done.ok() ? 0 : 1);
    }
  });

  nlohmann::ordered_json ready = {
      {"event", "ready"}, {"url", s->url()}, {"port", s->port()}, {"ca_file", s->ca_file()}};
  std::printf("%s\n", ready.dump().c_str());
  std::fflush(stdout);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  nsxalb::log::Info(absl::StrCat("emulator: Controller ", config->controller_version.ToString(),
                                 " listening on ", s->url(), " (ready in ", ms, " ms)"));

  s->Run();
  run_returned.Notify();
  pthread_kill(waiter.native_handle(), SIGUSR1);
  waiter.join();
  absl::Status done = s->Shutdown();
  if (!done.ok()) {
    nsxalb::log::Error(absl::StrCat("emulator: ", done.message()));
    return 1;
  }
  return 0;
}
