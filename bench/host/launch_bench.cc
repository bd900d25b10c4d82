// Launch benchmark for the shipped provider binary.
//
// Starts terraform-provider-nsxalb the way Terraform does (magic cookie, PLUGIN_PROTOCOL_VERSIONS
// "5,6", AutoMTLS with a fresh P-521 client certificate per launch) --launches times, one after
// another, and reports the time from spawning the process to reading its handshake line (median,
// p90, p95, min, max) and its memory at that moment (VmRSS and VmHWM from /proc/PID/status, read
// as soon as the line is in: the provider goes on building its gRPC server meanwhile, see
// plugin/host/serve.h), the time from spawning to the answer of the first RPC Terraform makes
// (GetProviderSchema, over mutual TLS) and the memory then, and the time from the Shutdown reply
// to process exit. Each launch is checked: a valid handshake, a SERVING health check, a schema,
// a clean exit. No limit is asserted. --json FILE also writes the figures as JSON (bench/run).
//
// Usage: host_launch_bench [--launches N] [--binary PATH] [--json FILE]
#include <grpcpp/grpcpp.h>

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

double Percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  if (values.empty()) return 0;
  const size_t index = static_cast<size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(index, values.size() - 1)];
}

}  // namespace

int main(int argc, char** argv) {
  int launches = 30;
  std::string binary = NSXALB_PROVIDER_BINARY;
  std::string json_path;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--launches" && i + 1 < argc) {
      if (!absl::SimpleAtoi(argv[++i], &launches) || launches < 1) {
        std::fprintf(stderr, "--launches: want a positive integer, got \"%s\"\n", argv[i]);
        return 2;
      }
    } else if (arg == "--binary" && i + 1 < argc) {
      binary = argv[++i];
    } else if (arg == "--json" && i + 1 < argc) {
      json_path = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s [--launches N] [--binary PATH] [--json FILE]\n", argv[0]);
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

  std::printf("terraform-provider-nsxalb launch benchmark (%d launches, AutoMTLS, protocols 5,6)\n",
              launches);
  std::printf("  binary: %s\n", binary.c_str());
  std::printf(
      "  spawn -> handshake line: median %.2f ms, p90 %.2f ms, p95 %.2f ms, min %.2f ms, "
      "max %.2f ms\n",
      Percentile(handshake_ms, 0.5), Percentile(handshake_ms, 0.9), Percentile(handshake_ms, 0.95),
      Percentile(handshake_ms, 0.0), Percentile(handshake_ms, 1.0));
  std::printf(
      "  memory at handshake: VmRSS median %.0f kB (max %.0f kB), VmHWM median %.0f kB "
      "(max %.0f kB)\n",
      Percentile(rss_kb, 0.5), Percentile(rss_kb, 1.0), Percentile(hwm_kb, 0.5),
      Percentile(hwm_kb, 1.0));
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
        {"rss_at_handshake_kb",
         {{"median", Percentile(rss_kb, 0.5)}, {"max", Percentile(rss_kb, 1.0)}}},
        {"first_rpc_ms",
         {{"median", Percentile(first_rpc_ms, 0.5)}, {"p95", Percentile(first_rpc_ms, 0.95)}}},
        {"rss_after_first_rpc_kb", {{"median", Percentile(rss_after_rpc_kb, 0.5)}}},
        {"exit_after_shutdown_ms", {{"median", Percentile(exit_ms, 0.5)}}}};
    std::ofstream(json_path) << out.dump(2) << "\n";
  }
  return 0;
}
