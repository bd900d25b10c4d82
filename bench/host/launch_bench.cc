// Launch benchmark for the shipped provider binary.
//
// Starts terraform-provider-nsxalb the way Terraform does (magic cookie, PLUGIN_PROTOCOL_VERSIONS
// "5,6", AutoMTLS with a fresh P-521 client certificate per launch) --launches times, one after
// another, and reports the time from spawning the process to reading its handshake line (median,
// p90, p95, min, max) and its memory at that moment (VmRSS and VmHWM from /proc/PID/status, read
// as soon as the line is in: the provider goes on building its gRPC server meanwhile, see
// plugin/host/serve.h; so a second pass, --rss-launches times, runs the provider under ptrace
// and reads its memory exactly when it writes the line, stopped at that write(2)), the time from
// spawning to the answer of the first RPC Terraform makes
// (GetProviderSchema, over mutual TLS) and the memory then, and the time from the Shutdown reply
// to process exit. Each launch is checked: a valid handshake, a SERVING health check, a schema,
// a clean exit. No limit is asserted. --json FILE also writes the figures as JSON (bench/run).
//
// Usage: host_launch_bench [--launches N] [--rss-launches N] [--binary PATH] [--json FILE]
#include <fcntl.h>
#include <grpcpp/grpcpp.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "plugin/host/cert.h"
#include "plugin/host/env.h"
#include "proto/health.grpc.pb.h"
#include "proto/tfplugin5.grpc.pb.h"
#include "tests/harness/plugin_process.h"

namespace {

// Reads a "Key:   123 kB" line of /proc/PID/status; -1 if missing.
long ReadStatusKb(pid_t pid, const std::string& key) {  // NOLINT(runtime/int)
  std::ifstream status(absl::StrCat("/proc/", pid, "/status"));
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(key + ":", 0) != 0) continue;
    long kb = -1;  // NOLINT(runtime/int)
    std::string digits;
    for (char c : line) {
      if (c >= '0' && c <= '9') digits.push_back(c);
    }
    return absl::SimpleAtoi(digits, &kb) ? kb : -1;
  }
  return -1;
}

// Runs `binary` as Terraform would (cookie, protocols, a P-521 client certificate) under ptrace,
// stops it at its first write(2) to stdout (the handshake line) and returns its VmRSS then, in
// kB; the process is killed afterwards. -1 on any failure.
long RssAtHandshakeWrite(const std::string& binary) {  // NOLINT(runtime/int)
  nsxalb::host::CertificateOptions client;
  client.curve = nsxalb::host::KeyCurve::kP521;
  client.organization = "HashiCorp";
  absl::StatusOr<nsxalb::host::Certificate> cert =
      nsxalb::host::GenerateSelfSignedCertificate(client);
  if (!cert.ok()) return -1;
  char dir[] = "/tmp/nsxalb-rss-XXXXXX";
  if (mkdtemp(dir) == nullptr) return -1;
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    setenv(nsxalb::host::kMagicCookieKey, nsxalb::host::kMagicCookieValue, 1);
    setenv("PLUGIN_PROTOCOL_VERSIONS", "5,6", 1);
    setenv("PLUGIN_CLIENT_CERT", cert->cert_pem.c_str(), 1);
    setenv("TMPDIR", dir, 1);
    const int null_fd = open("/dev/null", O_RDWR);
    dup2(null_fd, 0);
    dup2(null_fd, 1);
    dup2(null_fd, 2);
    ptrace(PTRACE_TRACEME, 0, nullptr, nullptr);
    execl(binary.c_str(), binary.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  long rss = -1;  // NOLINT(runtime/int)
  int status = 0;
  waitpid(pid, &status, 0);  // stopped at exec
  ptrace(PTRACE_SETOPTIONS, pid, nullptr, PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL);
  bool entering = true;
  while (WIFSTOPPED(status)) {
    if (WSTOPSIG(status) == (SIGTRAP | 0x80)) {
      user_regs_struct regs = {};
      ptrace(PTRACE_GETREGS, pid, nullptr, &regs);
      if (entering && regs.orig_rax == SYS_write && regs.rdi == 1) {
        rss = ReadStatusKb(pid, "VmRSS");
        break;
      }
      entering = !entering;
    }
    const int deliver =
        WSTOPSIG(status) == (SIGTRAP | 0x80) || WSTOPSIG(status) == SIGTRAP ? 0 : WSTOPSIG(status);
    if (ptrace(PTRACE_SYSCALL, pid, nullptr, deliver) != 0) break;
    if (waitpid(pid, &status, 0) != pid) break;
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  // The socket directory the provider made under `dir`, and `dir`.
  std::system(absl::StrCat("rm -rf '", dir, "'").c_str());
  return rss;
}

double Percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  if (values.empty()) return 0;
  const size_t index = static_cast<size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(index, values.size() - 1)];
}

}  // namespace

int main(int argc, char** argv) {
  int launches = 30;
  int rss_launches = 10;
  std::string binary = NSXALB_PROVIDER_BINARY;
  std::string json_path;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--launches" && i + 1 < argc) {
      if (!absl::SimpleAtoi(argv[++i], &launches) || launches < 1) {
        std::fprintf(stderr, "--launches: want a positive integer, got \"%s\"\n", argv[i]);
        return 2;
      }
    } else if (arg == "--rss-launches" && i + 1 < argc) {
      if (!absl::SimpleAtoi(argv[++i], &rss_launches) || rss_launches < 0) {
        std::fprintf(stderr, "--rss-launches: want a non-negative integer, got \"%s\"\n", argv[i]);
        return 2;
      }
    } else if (arg == "--binary" && i + 1 < argc) {
      binary = argv[++i];
    } else if (arg == "--json" && i + 1 < argc) {
      json_path = argv[++i];
    } else {
      std::fprintf(stderr,
                   "usage: %s [--launches N] [--rss-launches N] [--binary PATH] [--json FILE]\n",
                   argv[0]);
      return 2;
    }
  }

  std::vector<double> handshake_ms;
  std::vector<double> rss_kb;
  std::vector<double> hwm_kb;
  std::vector<double> exit_ms;
  std::vector<double> first_rpc_ms;
  std::vector<double> rss_after_rpc_kb;
  for (int i = 0; i < launches; ++i) {
    nsxalb::harness::PluginProcessOptions options;
    options.binary = binary;
    absl::StatusOr<std::unique_ptr<nsxalb::harness::PluginProcess>> process =
        nsxalb::harness::PluginProcess::Start(options);
    if (!process.ok()) {
      std::fprintf(stderr, "launch %d failed: %s\n", i,
                   std::string(process.status().message()).c_str());
      return 1;
    }
    const pid_t pid = (*process)->pid();
    const long rss = ReadStatusKb(pid, "VmRSS");  // NOLINT(runtime/int)
    const long hwm = ReadStatusKb(pid, "VmHWM");  // NOLINT(runtime/int)
    const absl::Time handshake_read = absl::Now();
    handshake_ms.push_back(absl::ToDoubleMilliseconds((*process)->time_to_handshake()));
    rss_kb.push_back(static_cast<double>(rss));
    hwm_kb.push_back(static_cast<double>(hwm));

    // The first RPC Terraform makes, timed from the spawn.
    {
      auto provider = tfplugin5::Provider::NewStub((*process)->channel());
      grpc::ClientContext context;
      context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
      tfplugin5::GetProviderSchema::Response schema;
      const grpc::Status status =
          provider->GetSchema(&context, tfplugin5::GetProviderSchema::Request(), &schema);
      if (!status.ok() || schema.resource_schemas().empty()) {
        std::fprintf(stderr, "launch %d: GetProviderSchema failed: %s\n", i,
                     status.error_message().c_str());
        return 1;
      }
      first_rpc_ms.push_back(handshake_ms.back() +
                             absl::ToDoubleMilliseconds(absl::Now() - handshake_read));
      rss_after_rpc_kb.push_back(static_cast<double>(ReadStatusKb(pid, "VmRSS")));
    }

    auto health = grpc::health::v1::Health::NewStub((*process)->channel());
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    grpc::health::v1::HealthCheckRequest request;
    request.set_service("plugin");
    grpc::health::v1::HealthCheckResponse response;
    const grpc::Status status = health->Check(&context, request, &response);
    if (!status.ok() || response.status() != grpc::health::v1::HealthCheckResponse::SERVING) {
      std::fprintf(stderr, "launch %d: health check failed: %s\n", i,
                   status.error_message().c_str());
      return 1;
    }
    absl::StatusOr<absl::Duration> took = (*process)->Shutdown(absl::Seconds(5));
    if (!took.ok()) {
      std::fprintf(stderr, "launch %d: shutdown failed: %s\n", i,
                   std::string(took.status().message()).c_str());
      return 1;
    }
    exit_ms.push_back(absl::ToDoubleMilliseconds(*took));
  }

  std::vector<double> exact_rss_kb;
  for (int i = 0; i < rss_launches; ++i) {
    const long rss = RssAtHandshakeWrite(binary);  // NOLINT(runtime/int)
    if (rss < 0) {
      // ptrace may be forbidden (a container's seccomp policy): the figure is then left out.
      std::fprintf(stderr, "RSS pass: no reading at the handshake write (ptrace refused?)\n");
      exact_rss_kb.clear();
      break;
    }
    exact_rss_kb.push_back(static_cast<double>(rss));
  }

  std::printf("terraform-provider-nsxalb launch benchmark (%d launches, AutoMTLS, protocols 5,6)\n",
              launches);
  std::printf("  binary: %s\n", binary.c_str());
  std::printf(
      "  spawn -> handshake line: median %.2f ms, p90 %.2f ms, p95 %.2f ms, min %.2f ms, "
      "max %.2f ms\n",
      Percentile(handshake_ms, 0.5), Percentile(handshake_ms, 0.9), Percentile(handshake_ms, 0.95),
      Percentile(handshake_ms, 0.0), Percentile(handshake_ms, 1.0));
  std::printf(
      "  memory when the line is read: VmRSS median %.0f kB (max %.0f kB), VmHWM median %.0f kB "
      "(max %.0f kB)\n",
      Percentile(rss_kb, 0.5), Percentile(rss_kb, 1.0), Percentile(hwm_kb, 0.5),
      Percentile(hwm_kb, 1.0));
  if (!exact_rss_kb.empty()) {
    std::printf(
        "  memory at the handshake write(2), under ptrace (%d launches): VmRSS median %.0f kB "
        "(max %.0f kB)\n",
        rss_launches, Percentile(exact_rss_kb, 0.5), Percentile(exact_rss_kb, 1.0));
  }
  std::printf(
      "  spawn -> GetProviderSchema answered: median %.2f ms, p95 %.2f ms; VmRSS then median "
      "%.0f kB\n",
      Percentile(first_rpc_ms, 0.5), Percentile(first_rpc_ms, 0.95),
      Percentile(rss_after_rpc_kb, 0.5));
  std::printf("  Shutdown reply -> exit: median %.2f ms, p90 %.2f ms, max %.2f ms\n",
              Percentile(exit_ms, 0.5), Percentile(exit_ms, 0.9), Percentile(exit_ms, 1.0));
  if (!json_path.empty()) {
    const nlohmann::json out = {
        {"launches", launches},
        {"handshake_ms",
         {{"median", Percentile(handshake_ms, 0.5)},
          {"p90", Percentile(handshake_ms, 0.9)},
          {"p95", Percentile(handshake_ms, 0.95)},
          {"min", Percentile(handshake_ms, 0.0)},
          {"max", Percentile(handshake_ms, 1.0)}}},
        {"rss_when_line_read_kb",
         {{"median", Percentile(rss_kb, 0.5)}, {"max", Percentile(rss_kb, 1.0)}}},
        {"rss_at_handshake_kb", exact_rss_kb.empty()
                                    ? nlohmann::json()
                                    : nlohmann::json{{"median", Percentile(exact_rss_kb, 0.5)},
                                                     {"max", Percentile(exact_rss_kb, 1.0)},
                                                     {"launches", rss_launches}}},
        {"first_rpc_ms",
         {{"median", Percentile(first_rpc_ms, 0.5)}, {"p95", Percentile(first_rpc_ms, 0.95)}}},
        {"rss_after_first_rpc_kb", {{"median", Percentile(rss_after_rpc_kb, 0.5)}}},
        {"exit_after_shutdown_ms", {{"median", Percentile(exit_ms, 0.5)}}}};
    std::ofstream(json_path) << out.dump(2) << "\n";
  }
  return 0;
}
