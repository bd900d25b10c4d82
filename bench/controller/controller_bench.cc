// Benchmarks of the Controller client against the emulator on loopback: reading one SE group
// over the client's kept-alive connection, and a full login (a fresh client each iteration).
#include <cstdlib>
#include <memory>
#include <string>

#include "benchmark/benchmark.h"
#include "plugin/controller/client.h"
#include "tests/support/emulator_process.h"

namespace nsxalb::controller {
namespace {

constexpr char kPassword[] = "Bench-Secret-Passw0rd";

// One emulator for the whole run.
testing::EmulatorProcess* Emulator() {
  static testing::EmulatorProcess* emulator = [] {
    testing::EmulatorProcess::Options options;
    options.extra_args = {"--password", kPassword};
    auto started = testing::EmulatorProcess::Start(options);
    if (!started.ok()) return static_cast<testing::EmulatorProcess*>(nullptr);
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
  if (Emulator() == nullptr) return state.SkipWithError("the emulator did not start");
  auto client = NewClient(Config());
  if (!client.ok()) return state.SkipWithError(std::string(client.status().message()).c_str());
  auto group = (*client)->FindSeGroup("Default-Group", "", "Default-Cloud");
  if (!group.ok() || !group->has_value()) return state.SkipWithError("no Default-Group");
  const std::string uuid = (*group)->uuid;
  for (auto _ : state) {
    auto got = (*client)->GetSeGroup(uuid, "");
    if (!got.ok()) return state.SkipWithError(std::string(got.status().message()).c_str());
    benchmark::DoNotOptimize(got->body);
  }
}
BENCHMARK(BM_GetSeGroup)->Unit(benchmark::kMicrosecond);

void BM_Login(benchmark::State& state) {
  if (Emulator() == nullptr) return state.SkipWithError("the emulator did not start");
  ClientConfig config = Config();
  for (auto _ : state) {
    auto client = NewClient(config);
    if (!client.ok()) return state.SkipWithError(std::string(client.status().message()).c_str());
    auto v = (*client)->ControllerVersion();
    if (!v.ok()) return state.SkipWithError(std::string(v.status().message()).c_str());
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
  delete nsxalb::controller::Emulator();
  return 0;
}
