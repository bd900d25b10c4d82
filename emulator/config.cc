// Command-line parsing for the emulator.
#include "emulator/config.h"

#include <arpa/inet.h>

#include <functional>
#include <map>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "emulator/license.h"
#include "plugin/common/status_macros.h"

namespace nsxalb::emulator {
namespace {

bool IsLoopback(const std::string& addr) {
  in_addr v4{};
  if (inet_pton(AF_INET, addr.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (inet_pton(AF_INET6, addr.c_str(), &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
  return false;
}

}  // namespace

const char* Usage() {
  return "usage: nsxalb-controller-emulator [--bind 127.0.0.1|::1] [--port N (0: any free port)]\n"
         "  [--tls-dir DIR] [--controller-version 22.1.3] [--state FILE] [--username admin]\n"
         "  [--password P (default $NSXALB_EMULATOR_PASSWORD, else admin)]\n"
         "  [--session-idle-timeout SECONDS (900)] [--expired-session-status 419|401]\n"
         "  [--page-size N (25)] [--latency-ms N] [--fail-next N] [--fail-status 503]\n"
         "  [--throttle-next N] [--retry-after SECONDS] [--drop-after-create N] "
         "[--delete-hosting-se]\n"
         "  [--license TIER=UNITS (repeatable; default ENTERPRISE=100000)]\n"
         "  [--se-boot-ms N (300)] [--se-migration-ms N (300)] [--emulated-minute-ms N (60000)]\n"
         "  [--log-level TRACE|DEBUG|INFO|WARN|ERROR] [--exit-with-parent]\n";
}

absl::StatusOr<Config> ParseCommandLine(const std::vector<std::string>& args,
                                        const char* password_env) {
  Config c;
  if (password_env != nullptr && password_env[0] != '\0') c.password = password_env;
  auto int_flag = [](int* slot, int lo, int hi) {
    return [slot, lo, hi](const std::string& flag, const std::string& v) -> absl::Status {
      if (!absl::SimpleAtoi(v, slot) || *slot < lo || *slot > hi) {
        return absl::InvalidArgumentError(
            absl::StrCat(flag, " must be an integer from ", lo, " to ", hi, ", got \"", v, "\""));
      }
      return absl::OkStatus();
    };
  };
  auto int64_flag = [](int64_t* slot, int64_t lo) {
    return [slot, lo](const std::string& flag, const std::string& v) -> absl::Status {
      if (!absl::SimpleAtoi(v, slot) || *slot < lo || *slot > 3600000) {
        return absl::InvalidArgumentError(
            absl::StrCat(flag, " must be an integer from ", lo, " to 3600000, got \"", v, "\""));
      }
      return absl::OkStatus();
    };
  };
  auto string_flag = [](std::string* slot) {
    return [slot](const std::string& flag, const std::string& v) -> absl::Status {
      if (v.empty()) return absl::InvalidArgumentError(absl::StrCat(flag, " must not be empty"));
      *slot = v;
      return absl::OkStatus();
    };
  };
  using Setter = std::function<absl::Status(const std::string&, const std::string&)>;
  const std::map<std::string, Setter> flags = {
      {"--bind",
       [&c](const std::string& flag, const std::string& v) -> absl::Status {
         if (!IsLoopback(v)) {
           return absl::InvalidArgumentError(absl::StrCat(
               flag, " must be a loopback address (127.0.0.1 or ::1), got \"", v, "\""));
         }
         c.bind = v;
         return absl::OkStatus();
       }},
      {"--port", int_flag(&c.port, 0, 65535)},
      {"--tls-dir", string_flag(&c.tls_dir)},
      {"--controller-version",
       [&c](const std::string& flag, const std::string& v) -> absl::Status {
         absl::StatusOr<controller::ApiVersion> parsed = controller::ApiVersion::ParseExact(v);
         if (!parsed.ok()) {
           return absl::InvalidArgumentError(absl::StrCat(flag, ": ", parsed.status().message()));
         }
         c.controller_version = *parsed;
         return absl::OkStatus();
       }},
      {"--state", string_flag(&c.state_file)},
      {"--username", string_flag(&c.username)},
      {"--password", string_flag(&c.password)},
      {"--session-idle-timeout", int_flag(&c.session_idle_timeout_seconds, 1, 86400)},
      {"--expired-session-status",
       [&c](const std::string& flag, const std::string& v) -> absl::Status {
         if (v != "419" && v != "401") {
           return absl::InvalidArgumentError(absl::StrCat(flag, " must be 419 or 401"));
         }
         c.expired_session_status = v == "419" ? 419 : 401;
         return absl::OkStatus();
       }},
      {"--page-size", int_flag(&c.default_page_size, 1, 200)},
      {"--latency-ms", int_flag(&c.faults.latency_ms, 0, 60000)},
      {"--fail-next", int_flag(&c.faults.fail_next, 0, 1000000)},
      {"--fail-status", int_flag(&c.faults.fail_status, 400, 599)},
      {"--throttle-next", int_flag(&c.faults.throttle_next, 0, 1000000)},
      {"--retry-after", int_flag(&c.faults.retry_after_seconds, 0, 3600)},
      {"--drop-after-create", int_flag(&c.faults.drop_after_create, 0, 1000000)},
      {"--log-level", string_flag(&c.log_level)},
      {"--license",
       [&c](const std::string&, const std::string& v) { return ParseLicenseFlag(v, &c.license); }},
      {"--se-boot-ms", int64_flag(&c.se_timing.boot_ms, 0)},
      {"--se-migration-ms", int64_flag(&c.se_timing.migration_ms, 0)},
      {"--emulated-minute-ms", int64_flag(&c.se_timing.minute_ms, 1)},
  };
  for (size_t i = 0; i < args.size(); ++i) {
    std::string name = args[i];
    std::string value;
    bool has_value = false;
    if (name == "--help" || name == "-h") return absl::InvalidArgumentError(Usage());
    if (name == "--exit-with-parent") {
      c.exit_with_parent = true;
      continue;
    }
    if (name == "--delete-hosting-se") {
      c.faults.delete_hosting_se = true;
      continue;
    }
    const size_t eq = name.find('=');
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    auto it = flags.find(name);
    if (it == flags.end()) {
      return absl::InvalidArgumentError(absl::StrCat("unknown flag \"", name, "\"\n", Usage()));
    }
    if (!has_value) {
      if (i + 1 >= args.size()) {
        return absl::InvalidArgumentError(absl::StrCat(name, " needs a value"));
      }
      value = args[++i];
    }
    NSXALB_RETURN_IF_ERROR(it->second(name, value));
  }
  return c;
}

}  // namespace nsxalb::emulator
