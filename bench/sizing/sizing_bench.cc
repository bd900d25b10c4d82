// Speed of the sizing model: a recommendation (single SE, scale-out, open connections raising
// memory) and a validation of explicit settings against a workload.
#include <benchmark/benchmark.h>

#include "plugin/sizing/recommend.h"
#include "plugin/sizing/validate.h"

namespace nsxalb::sizing {
namespace {

Workload Mixed(double scale) {
  Workload w;
  w.platform = Platform::kNsxt;
  w.demand.Set(Metric::kL7Rps, 150000 * scale);
  w.demand.Set(Metric::kSslTpsEcc, 8000 * scale);
  w.demand.Set(Metric::kL7Gbps, 5000 * scale);
  return w;
}

void BM_RecommendSingleSe(benchmark::State& state) {
  // Half the mix: one 6-vCPU SE carries it in one CPU budget (36.6% + 34.8%). The whole mix
  // needs 2 SEs (see BM_RecommendScaleOut).
  const Workload w = Mixed(0.5);
  for (auto _ : state) benchmark::DoNotOptimize(Recommend(w));
}
BENCHMARK(BM_RecommendSingleSe);

void BM_RecommendScaleOut(benchmark::State& state) {
  const Workload w = Mixed(static_cast<double>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(Recommend(w));
}
BENCHMARK(BM_RecommendScaleOut)->Arg(4)->Arg(64);

void BM_RecommendOpenConnections(benchmark::State& state) {
  Workload w;
  w.platform = Platform::kVcenter;
  w.demand.Set(Metric::kL4OpenConns, 2000000);
  for (auto _ : state) benchmark::DoNotOptimize(Recommend(w));
}
BENCHMARK(BM_RecommendOpenConnections);

void BM_Validate(benchmark::State& state) {
  const Workload w = Mixed(1);
  Settings s;
  s.vcpus_per_se = 2;
  s.memory_per_se = 1536;
  s.disk_per_se = 10;
  s.cpu_reserve = false;
  s.num_dispatcher_cores = 1;
  s.max_queues_per_vnic = 1;
  s.hybrid_rss_mode = false;
  for (auto _ : state) benchmark::DoNotOptimize(Validate(w, s));
}
BENCHMARK(BM_Validate);

}  // namespace
}  // namespace nsxalb::sizing

BENCHMARK_MAIN();
