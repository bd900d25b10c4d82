// Command-line configuration of nsxalb-controller-emulator.
//
// Usage: nsxalb-controller-emulator [--bind 127.0.0.1|::1] [--port N] [--tls-dir DIR]
//   [--controller-version 22.1.3] [--state FILE] [--username admin] [--password P]
//   [--session-idle-timeout SECONDS] [--expired-session-status 419|401] [--page-size N]
//   [--latency-ms N] [--fail-next N] [--fail-status S] [--throttle-next N] [--retry-after SECONDS]
//   [--drop-after-create N] [--se-boot-ms N] [--se-migration-ms N] [--emulated-minute-ms N]
//   [--license TIER=UNITS]... [--log-level LEVEL] [--exit-with-parent]
// The password defaults to $NSXALB_EMULATOR_PASSWORD, else "admin".
#ifndef NSXALB_EMULATOR_CONFIG_H_
#define NSXALB_EMULATOR_CONFIG_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "emulator/faults.h"
#include "emulator/se_lifecycle.h"
#include "plugin/controller/version.h"

namespace nsxalb::emulator {

// Everything the command line can set.
struct Config {
  // Loopback address to listen on: 127.0.0.1 (default) or ::1.
  std::string bind = "127.0.0.1";
  // 0 picks a free port.
  int port = 0;
  // Where cert.pem and key.pem go; empty means a new private temporary directory that is removed
  // on exit.
  std::string tls_dir;
  controller::ApiVersion controller_version{22, 1, 3};
  // Optional state file, loaded at start and written after every change and at exit.
  std::string state_file;
  std::string username = "admin";
  std::string password = "admin";
  // The Controller's api_idle_timeout; sessions idle longer than this expire.
  int session_idle_timeout_seconds = 900;
  // Status answered to a request that carries an expired session cookie (419 or 401).
  int expired_session_status = 419;
  // Page size of collection GETs without page_size.
  int default_page_size = 25;
  FaultConfig faults;
  // Service Units licensed per tier (--license ENTERPRISE=64, repeatable); empty means the
  // default licence (license.h: kDefaultLicenseServiceUnits of ENTERPRISE).
  std::map<std::string, double> license;
  // The SE lifecycle's durations (boot, migration, the emulated minute of se_deprovision_delay).
  SeTiming se_timing;
  // Stop (as on SIGTERM) when the process that started the emulator dies, so a crashed test
  // leaves no emulator behind. Linux-only; the parent *thread* that spawned us must stay alive.
  bool exit_with_parent = false;
  // Threshold of stderr logging (TRACE, DEBUG, INFO, WARN, ERROR).
  std::string log_level = "INFO";
};

// Parses argv (without argv[0]). Errors name the flag; `--help` is an error carrying the usage.
absl::StatusOr<Config> ParseCommandLine(const std::vector<std::string>& args,
                                        const char* password_env);

// The usage text.
const char* Usage();

}  // namespace nsxalb::emulator

#endif  // NSXALB_EMULATOR_CONFIG_H_
