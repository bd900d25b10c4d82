// Benchmarks of the Controller client against the emulator on loopback: reading one SE group
// over the client's kept-alive connection, and a full login (a fresh client each iteration).
// Exits 1 when the emulator does not start or a benchmark fails, so `ctest -L bench` fails too.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "benchmark/benchmark.h"
#include "plugin/controller/client.h"
#include "tests/support/emulator_process.h"

namespace nsxalb::controller {
namespace {

constexpr char kPassword[] = "Bench-Secret-Passw0rd";

// Set when a benchmark fails; main then exits 1.
bool failed = false;

// Marks the benchmark as failed (SkipWithError alone would leave the exit status 0).
void Fail(benchmark::State& state, const std::string& why) {
  failed = true;
  state.SkipWithError(why.c_str());
}

// One emulator for the whole run.
testing::EmulatorProcess* Emulator() {
  static testing::EmulatorProcess* emulator = [] {
    testing::EmulatorProcess::Options options;
    options.extra_args = {"--password", kPassword};
    auto started = testing::EmulatorProcess::Start(options);
    if (!started.ok()) {
      std::fprintf(stderr, "controller_bench: the emulator did not start: %s\n",
                   std::string(started.status().message()).c_str());
      return static_cast<testing::EmulatorProcess*>(nullptr);
    }
    return started->release();
  }();
  return emulator;
}

ClientConfig Config() {
  ClientConfig c;
  c.controller = Emulator()->url();
  c.username = "admin";
  c.password = kPassword;
  c.ca_file = Emulator()->ca_file();
  return c;
}

void BM_GetSeGroup(benchmark::State& state) {
  if (Emulator() == nullptr) return Fail(state, "the emulator did not start");
  auto client = NewClient(Config());
  if (!client.ok()) return Fail(state, std::string(client.status().message()));
  auto group = (*client)->FindSeGroup("Default-Group", "", "Default-Cloud");
  if (!group.ok() || !group->has_value()) return Fail(state, "no Default-Group");
  const std::string uuid = (*group)->uuid;
  for (auto _ : state) {
    auto got = (*client)->GetSeGroup(uuid, "");
    if (!got.ok()) return Fail(state, std::string(got.status().message()));
    benchmark::DoNotOptimize(got->body);
  }
}
BENCHMARK(BM_GetSeGroup)->Unit(benchmark::kMicrosecond);

void BM_Login(benchmark::State& state) {
  if (Emulator() == nullptr) return Fail(state, "the emulator did not start");
  ClientConfig config = Config();
  for (auto _ : state) {
    auto client = NewClient(config);
    if (!client.ok()) return Fail(state, std::string(client.status().message()));
    auto v = (*client)->ControllerVersion();
    if (!v.ok()) return Fail(state, std::string(v.status().message()));
    state.PauseTiming();
    client->reset();  // logs out; not part of the measured login
    state.ResumeTiming();
  }
}
BENCHMARK(BM_Login)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace nsxalb::controller

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  nsxalb::testing::EmulatorProcess* emulator = nsxalb::controller::Emulator();
  if (emulator != nullptr) {
    // An emulator that crashed, or does not stop cleanly, fails the run too.
    const absl::Status stopped = emulator->Stop();
    if (!stopped.ok()) {
      std::fprintf(stderr, "controller_bench: the emulator failed: %s\n",
                   std::string(stopped.message()).c_str());
      nsxalb::controller::failed = true;
    }
  }
  delete emulator;
  return nsxalb::controller::failed ? 1 : 0;
}
