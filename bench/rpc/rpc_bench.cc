// Per-RPC latency of the shipped provider over its real gRPC connection (AutoMTLS on a unix
// socket), for nsxalb_se_group, with ApplyResourceChange and ReadResource against the emulator.
//
// One provider process is launched the way Terraform launches it (tests/harness) with
// TF_LOG_PROVIDER=TRACE, so it logs each handler's time ("served tfplugin5.Provider/RPC in N
// us", plugin/wire/provider_service.cc): that is the server-side figure, from the request
// decoded by gRPC to the response ready for it. The client's round trip (protobuf, gRPC, TLS,
// and the harness's checks of Terraform's rules on each answer) is printed next to it.
//
// Per iteration: GetProviderSchema; ValidateResourceTypeConfig; PlanResourceChange for a new
// group (create) and for an existing one with its refreshed state and the same configuration
// (no change, what every resource costs in a refresh plan); ApplyResourceChange creating a
// group (one POST); ReadResource of it (one GET). Workloads alternate between the vcenter and
// the nsxt cloud.
//
// Usage: rpc_bench [--iterations N] [--json FILE] [--binary PATH]
#include <sys/types.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "proto/tfplugin5.grpc.pb.h"
#include "tests/harness/terraform_driver.h"
#include "tests/support/emulator_process.h"

namespace nsxalb::bench {
namespace {

using harness::ProviderSession;

constexpr char kType[] = "nsxalb_se_group";

double Percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t index = static_cast<size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(index, values.size() - 1)];
}

// Handler times from the provider's TRACE lines, by RPC name, in order.
std::map<std::string, std::vector<double>> ServerTimes(const std::string& stderr_text) {
  std::map<std::string, std::vector<double>> out;
  constexpr absl::string_view kMarker = "served tfplugin5.Provider/";
  for (absl::string_view line : absl::StrSplit(stderr_text, '\n')) {
    const size_t at = line.find(kMarker);
    if (at == absl::string_view::npos) continue;
    std::vector<absl::string_view> words =
        absl::StrSplit(line.substr(at + kMarker.size()), ' ', absl::SkipEmpty());
    double us = 0;
    if (words.size() >= 3 && words[1] == "in" && absl::SimpleAtod(words[2], &us)) {
      out[std::string(words[0])].push_back(us);
    }
  }
  return out;
}

// A "Key:   123 kB" line of /proc/PID/status, in kB; -1 if missing.
long StatusKb(pid_t pid, const std::string& key) {  // NOLINT(runtime/int)
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

int Fail(const std::string& what, const absl::Status& status) {
  std::fprintf(stderr, "rpc_bench: %s: %s\n", what.c_str(), std::string(status.message()).c_str());
  return 1;
}

int Run(int iterations, const std::string& binary, const std::string& json_path) {
  testing::EmulatorProcess::Options emulator_options;
  absl::StatusOr<std::unique_ptr<testing::EmulatorProcess>> emulator =
      testing::EmulatorProcess::Start(emulator_options);
  if (!emulator.ok()) return Fail("emulator", emulator.status());

  harness::DriverOptions options;
  options.process.binary = binary;
  options.process.env = {{"TF_LOG_PROVIDER", "TRACE"},
                         {"NSXALB_CONTROLLER", (*emulator)->url()},
                         {"NSXALB_USERNAME", "admin"},
                         {"NSXALB_PASSWORD", "admin"},
                         {"NSXALB_CA_FILE", (*emulator)->ca_file()}};
  std::vector<std::string> log;
  absl::StatusOr<std::unique_ptr<ProviderSession>> opened =
      ProviderSession::Open(options, "bench", &log);
  if (!opened.ok()) return Fail("launch", opened.status());
  ProviderSession& session = **opened;
  absl::StatusOr<const harness::Schema*> schema = session.ResourceSchema(kType);
  if (!schema.ok()) return Fail("schema", schema.status());
  absl::StatusOr<cty::Value> provider_config =
      harness::NormalizeConfig(session.provider_schema().block, cty::Value::Object({}));
  if (!provider_config.ok()) return Fail("provider config", provider_config.status());
  if (absl::Status s = session.Configure(*provider_config); !s.ok()) return Fail("Configure", s);

  auto provider_stub = tfplugin5::Provider::NewStub(session.process().channel());
  std::map<std::string, std::vector<double>> round_trip_us;
  const auto timed = [&round_trip_us](const char* rpc, auto call) {
    const absl::Time start = absl::Now();
    auto result = call();
    round_trip_us[rpc].push_back(absl::ToDoubleMicroseconds(absl::Now() - start));
    return result;
  };

  for (int i = 0; i < iterations; ++i) {
    // GetProviderSchema, raw: the harness reads it once per session.
    absl::Status got = timed("GetSchema", [&] {
      grpc::ClientContext context;
      context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
      tfplugin5::GetProviderSchema::Response response;
      grpc::Status status =
          provider_stub->GetSchema(&context, tfplugin5::GetProviderSchema::Request(), &response);
      return status.ok() ? absl::OkStatus() : absl::UnavailableError(status.error_message());
    });
    if (!got.ok()) return Fail("GetProviderSchema", got);

    absl::StatusOr<cty::Value> config = harness::NormalizeConfig(
        (*schema)->block,
        cty::Value::Object(
            {{"name", cty::Value::String(absl::StrCat("bench-", i))},
             {"cloud", cty::Value::String(i % 2 == 0 ? "Default-Cloud" : "nsxt-cloud")},
             {"workload", cty::Value::Object({{"l7_rps", cty::Value::Int(10000 + 100 * i)},
                                              {"ssl_tps_ecc", cty::Value::Int(500 + i % 50)}})}}));
    if (!config.ok()) return Fail("config", config.status());
    const std::string address = absl::StrCat(kType, ".g[", i, "]");

    absl::Status valid = timed("ValidateResourceTypeConfig",
                               [&] { return session.ValidateResourceTypeConfig(kType, *config); });
    if (!valid.ok()) return Fail("ValidateResourceTypeConfig", valid);

    const cty::Value null_prior = cty::Value::Null(harness::ImpliedType((*schema)->block));
    absl::StatusOr<harness::PlannedChange> plan = timed("PlanResourceChange", [&] {
      return session.Plan(address, kType, null_prior, "", *config);
    });
    if (!plan.ok()) return Fail("PlanResourceChange", plan.status());

    absl::StatusOr<std::pair<cty::Value, std::string>> applied = timed("ApplyResourceChange", [&] {
      return session.Apply(address, kType, null_prior, plan->after, *config, plan->planned_private);
    });
    if (!applied.ok()) return Fail("ApplyResourceChange", applied.status());

    std::string private_data = applied->second;
    absl::StatusOr<cty::Value> read = timed("ReadResource", [&] {
      return session.ReadResource(address, kType, applied->first, &private_data);
    });
    if (!read.ok()) return Fail("ReadResource", read.status());

    absl::StatusOr<harness::PlannedChange> noop = timed("PlanResourceChange (no change)", [&] {
      return session.Plan(address, kType, *read, private_data, *config);
    });
    if (!noop.ok()) return Fail("PlanResourceChange (no change)", noop.status());
    if (noop->action != harness::PlanAction::kNoOp) {
      return Fail("PlanResourceChange (no change)",
                  absl::InternalError(absl::StrCat("planned ", PlanActionName(noop->action))));
    }
  }
  // The provider's memory after the run: resident now and at its peak.
  const pid_t pid = session.process().pid();
  const double rss_mb = static_cast<double>(StatusKb(pid, "VmRSS")) / 1024;
  const double hwm_mb = static_cast<double>(StatusKb(pid, "VmHWM")) / 1024;
  if (const char* smaps = std::getenv("NSXALB_BENCH_SMAPS"); smaps != nullptr) {
    std::ifstream in(absl::StrCat("/proc/", pid, "/smaps"));
    std::ofstream(smaps) << in.rdbuf();
  }
  const std::string stderr_text = session.process().Stderr();
  if (absl::Status closed = session.Close(); !closed.ok()) return Fail("Shutdown", closed);

  // The provider logs every PlanResourceChange under one name: the harness calls it once per
  // plan here (no replace), alternately for a create and for no change.
  std::map<std::string, std::vector<double>> server = ServerTimes(stderr_text);
  std::vector<double>& plans = server["PlanResourceChange"];
  std::vector<double> creates, unchanged;
  for (size_t i = 0; i < plans.size(); ++i) (i % 2 == 0 ? creates : unchanged).push_back(plans[i]);
  server["PlanResourceChange (no change)"] = unchanged;
  plans = creates;
  // The session's own GetSchema comes first.
  if (!server["GetSchema"].empty()) server["GetSchema"].erase(server["GetSchema"].begin());

  const std::vector<std::pair<std::string, std::string>> rows = {
      {"GetSchema", "GetProviderSchema"},
      {"ValidateResourceTypeConfig", "ValidateResourceTypeConfig"},
      {"PlanResourceChange", "PlanResourceChange (create)"},
      {"PlanResourceChange (no change)", "PlanResourceChange (no change)"},
      {"ApplyResourceChange", "ApplyResourceChange (create, 1 POST)"},
      {"ReadResource", "ReadResource (1 GET)"}};
  nlohmann::json out = nlohmann::json::object();
  out["iterations"] = iterations;
  out["provider_rss_mb"] = rss_mb;
  out["provider_peak_rss_mb"] = hwm_mb;
  std::printf(
      "per-RPC latency, nsxalb_se_group, %d iterations (server-side handler time; client "
      "round trip incl. gRPC, TLS and the harness's checks)\n",
      iterations);
  std::printf("  %-38s %10s %10s %12s\n", "rpc", "p50 us", "p99 us", "round-trip p50");
  for (const auto& [key, label] : rows) {
    const std::vector<double>& s = server[key];
    const std::vector<double>& c = round_trip_us[key];
    // No samples: the provider does not log its handler times (an older build).
    const nlohmann::json p50 = s.empty() ? nlohmann::json() : nlohmann::json(Percentile(s, 0.5));
    const nlohmann::json p99 = s.empty() ? nlohmann::json() : nlohmann::json(Percentile(s, 0.99));
    out["rpcs"][label] = {{"server_p50_us", p50},
                          {"server_p99_us", p99},
                          {"server_samples", s.size()},
                          {"round_trip_p50_us", Percentile(c, 0.5)},
                          {"round_trip_p99_us", Percentile(c, 0.99)}};
    if (s.empty()) {
      std::printf("  %-38s %10s %10s %12.1f\n", label.c_str(), "-", "-", Percentile(c, 0.5));
    } else {
      std::printf("  %-38s %10.1f %10.1f %12.1f\n", label.c_str(), Percentile(s, 0.5),
                  Percentile(s, 0.99), Percentile(c, 0.5));
    }
  }
  std::printf("  provider memory after the run: RSS %.1f MB, peak %.1f MB\n", rss_mb, hwm_mb);
  if (!json_path.empty()) {
    std::ofstream(json_path) << out.dump(2) << "\n";
  }
  return 0;
}

}  // namespace
}  // namespace nsxalb::bench

int main(int argc, char** argv) {
  int iterations = 200;
  std::string json_path;
  std::string binary = NSXALB_PROVIDER_BINARY;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--iterations" && i + 1 < argc && absl::SimpleAtoi(argv[i + 1], &iterations) &&
        iterations > 0) {
      ++i;
    } else if (arg == "--json" && i + 1 < argc) {
      json_path = argv[++i];
    } else if (arg == "--binary" && i + 1 < argc) {
      binary = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s [--iterations N] [--json FILE] [--binary PATH]\n", argv[0]);
      return 2;
    }
  }
  return nsxalb::bench::Run(iterations, binary, json_path);
}
