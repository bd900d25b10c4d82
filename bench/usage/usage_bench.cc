// Speed and memory of the observed-load analysis (plugin/segroup/usage/) at the bound: a
// 10-SE group, a 30-day window of 5-minute points (8,640 points x 8 series x 10 SEs, about 690,000
// points and 38.6 MB of JSON), streamed into the decoder in 16 KB chunks as the readers stream a
// Controller body (decode.h; the body is generated a series at a time, never held whole) and
// analysed (the decoder keeps the most recent limits::kMaxUsagePointsPerSeries of each series,
// with a finding). Also the realistic 7-day answer (2,016 points a series), the analysis of a
// parsed document (AnalyzeUsage, as the tests call it), and the headroom forecast alone
// (plugin/segroup/usage/forecast.h) as the analysis runs it for a 30-day window: the Controller's
// hourly points (rule usage-step-by-window), 720 a measure, for the highest SE's CPU and the
// group's three CPU-bound rates, each through DailyPeaks and ForecastHeadroom, then
// BindingForecast.
// Counters: points in the body, body MB, and the process's peak RSS after the run (ru_maxrss; run
// one benchmark at a time with --benchmark_filter to read it per case).
#include <sys/resource.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "benchmark/benchmark.h"
#include "nlohmann/json.hpp"
#include "plugin/controller/response.h"
#include "plugin/segroup/usage/analyze.h"
#include "plugin/segroup/usage/compare.h"
#include "plugin/segroup/usage/decode.h"
#include "plugin/segroup/usage/forecast.h"

namespace nsxalb::segroup {
namespace {

using Json = nlohmann::json;

constexpr int kSes = 10;

absl::Time Now() {
  return absl::FromCivil(absl::CivilMinute(2026, 11, 28, 15, 0), absl::UTCTimeZone());
}

std::vector<ObservedSe> Ses() {
  std::vector<ObservedSe> ses;
  for (int i = 0; i < kSes; ++i) {
    ses.push_back({absl::StrCat("se-", i), absl::StrCat("se-", i), 6, 12288});
  }
  return ses;
}

// One series of `points` 5-minute points ending now, as text (built by hand: the body is large).
void AppendSeries(std::string& out, const std::string& metric, const std::string& entity,
                  int points, double base, int seed) {
  absl::StrAppend(&out, "{\"header\":{\"name\":\"", metric, "\",\"entity_uuid\":\"", entity,
                  "\",\"units\":\"PER_SECOND\"},\"data\":[");
  const absl::Time now = Now();
  for (int i = 0; i < points; ++i) {
    const absl::Time t = now - absl::Seconds(int64_t{300} * (points - 1 - i));
    // A daily wave with a little noise, deterministic.
    const double v = base * (0.5 + 0.4 * ((i + seed * 37) % 288) / 288.0) + (i * 7919 % 13);
    absl::StrAppend(&out, i == 0 ? "" : ",", "{\"timestamp\":\"",
                    absl::FormatTime("%Y-%m-%dT%H:%M:%S+00:00", t, absl::UTCTimeZone()),
                    "\",\"value\":", v, "}");
  }
  out += "]}";
}

// The collection answer for the group, 3 SE series and 5 virtual-service series per SE, handed to
// `emit` a piece at a time (a series or the punctuation between them), as a Controller streams it.
template <typename Emit>
void EmitBody(int points, Emit emit) {
  std::string piece = "{\"series\":{\"se-stats\":{";
  const auto flush = [&] {
    emit(piece);
    piece.clear();
  };
  for (int s = 0; s < kSes; ++s) {
    absl::StrAppend(&piece, s == 0 ? "" : ",", "\"se-", s, "\":[");
    AppendSeries(piece, "se_stats.avg_cpu_usage", absl::StrCat("se-", s), points, 60, s);
    flush();
    piece += ",";
    AppendSeries(piece, "se_stats.avg_mem_usage", absl::StrCat("se-", s), points, 40, s);
    flush();
    piece += ",";
    AppendSeries(piece, "se_if.avg_bandwidth", absl::StrCat("se-", s), points, 4e9, s);
    piece += "]";
    flush();
  }
  piece += "}";
  for (int s = 0; s < kSes; ++s) {
    absl::StrAppend(&piece, ",\"vs-on:se-", s, "\":{\"*\":[");
    AppendSeries(piece, "l7_client.avg_complete_responses", "*", points, 80000, s);
    flush();
    piece += ",";
    AppendSeries(piece, "l7_client.avg_ssl_handshakes_new", "*", points, 3000, s);
    flush();
    piece += ",";
    AppendSeries(piece, "l4_client.avg_new_established_conns", "*", points, 20000, s);
    flush();
    piece += ",";
    AppendSeries(piece, "l4_client.max_open_conns", "*", points, 100000, s);
    flush();
    piece += ",";
    AppendSeries(piece, "l4_client.avg_bandwidth", "*", points, 2e9, s);
    piece += "]}";
    flush();
  }
  piece += "}}";
  flush();
}

// The whole answer as one text.
std::string Body(int points) {
  std::string out;
  EmitBody(points, [&](const std::string& piece) { out += piece; });
  return out;
}

UsageInput Input(absl::Duration window) {
  UsageInput in;
  in.ses = Ses();
  in.query.window = window;
  in.now = Now();
  in.platform = sizing::Platform::kNsxt;
  in.settings = {{"max_cpu_usage", 80}};
  in.declared_workload = {{"l7_rps", 500000}, {"ssl_tps_ecc", 20000}};
  return in;
}

double PeakRssMb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024;  // KB on Linux
}

// The analysis as the readers run it (group_reader.h): the answer pushed into the streaming decoder
// in pieces as it is produced, never held whole, then analysed. The process's peak RSS is the
// decoder's and the analysis's (the answer is generated a series at a time).
void StreamAndAnalyze(benchmark::State& state, int points, absl::Duration window) {
  const UsageInput in = Input(window);
  int64_t bytes = 0;
  for (auto _ : state) {
    usage_internal::CollectionDecoder decoder(in.ses, absl::ToUnixSeconds(in.now - window),
                                              absl::ToUnixSeconds(in.now));
    bytes = 0;
    absl::Status fed = absl::OkStatus();
    EmitBody(points, [&](const std::string& piece) {
      bytes += static_cast<int64_t>(piece.size());
      // As curl hands them over: 16 KB at most a chunk.
      for (size_t at = 0; at < piece.size() && fed.ok(); at += 16384) {
        fed = decoder.Feed(std::string_view(piece).substr(at, 16384));
      }
    });
    if (fed.ok()) fed = decoder.Finish();
    if (!fed.ok()) {
      state.SkipWithError(std::string(fed.message()).c_str());
      return;
    }
    std::vector<size_t> all(in.ses.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    absl::StatusOr<UsageReport> r = AnalyzeDecoded(in, decoder, all, 0);
    if (!r.ok() || r->samples == 0) {
      state.SkipWithError("no report");
      return;
    }
    benchmark::DoNotOptimize(r->observed);
  }
  state.counters["points"] = static_cast<double>(points) * 8 * kSes;
  state.counters["body_mb"] = static_cast<double>(bytes) / (1 << 20);
  state.counters["peak_rss_mb"] = PeakRssMb();
}

void BM_Usage30DaysOf5MinutePoints(benchmark::State& state) {
  StreamAndAnalyze(state, 8640, absl::Hours(24 * 30));
}
BENCHMARK(BM_Usage30DaysOf5MinutePoints)->Unit(benchmark::kMillisecond);

void BM_Usage7Days(benchmark::State& state) { StreamAndAnalyze(state, 2016, absl::Hours(24 * 7)); }
BENCHMARK(BM_Usage7Days)->Unit(benchmark::kMillisecond);

void BM_UsageAnalyzeParsed30Days(benchmark::State& state) {
  UsageInput in = Input(absl::Hours(24 * 30));
  absl::StatusOr<Json> parsed = controller::ParseJsonLimited(Body(8640));
  if (!parsed.ok()) {
    state.SkipWithError("parse");
    return;
  }
  in.collection_response = *std::move(parsed);
  for (auto _ : state) {
    absl::StatusOr<UsageReport> r = AnalyzeUsage(in);
    benchmark::DoNotOptimize(r);
  }
  state.counters["peak_rss_mb"] = PeakRssMb();
}
BENCHMARK(BM_UsageAnalyzeParsed30Days)->Unit(benchmark::kMillisecond);

// One forecast measure over a 30-day window ending now, at the hourly step the analysis reads for
// it: a daily wave whose peak grows by `growth` points a day from `base`, with a little noise.
ForecastInput HourlyMeasure(const std::string& measure, double base, double growth) {
  constexpr int kHours = 24 * 30;
  ForecastInput in;
  in.measure = measure;
  in.window_end = Now();
  in.window_start = Now() - absl::Hours(kHours);
  in.target = 80;
  in.points.reserve(kHours);
  for (int i = 0; i < kHours; ++i) {
    const absl::Time t = Now() - absl::Hours(kHours - 1 - i);
    const double day = absl::FDivDuration(t - in.window_start, absl::Hours(24));
    const double wave = 10.0 * ((i % 24) / 23.0) + (i * 7919 % 13) / 10.0;
    in.points.emplace_back(absl::ToUnixSeconds(t), base + growth * day + wave);
  }
  return in;
}

void BM_Forecast30DaysHourly(benchmark::State& state) {
  const std::vector<ForecastInput> measures = {HourlyMeasure(kCpuForecastMeasure, 30, 1.0),
                                               HourlyMeasure("l7_rps_pct_of_capacity", 20, 0.8),
                                               HourlyMeasure("ssl_tps_pct_of_capacity", 10, 0.5),
                                               HourlyMeasure("l4_cps_pct_of_capacity", 5, 0.2)};
  size_t points = 0;
  for (const ForecastInput& m : measures) points += m.points.size();
  Forecast binding;
  for (auto _ : state) {
    std::vector<Forecast> forecasts;
    forecasts.reserve(measures.size());
    for (const ForecastInput& m : measures) forecasts.push_back(ForecastHeadroom(m));
    binding = BindingForecast(std::move(forecasts));
    benchmark::DoNotOptimize(binding);
  }
  if (!binding.days_to_target.has_value()) {
    state.SkipWithError(("no forecast: " + binding.reason).c_str());
    return;
  }
  state.counters["points"] = static_cast<double>(points);
  state.counters["daily_peaks"] = static_cast<double>(binding.daily_peaks.size());
  state.counters["days_to_target"] = *binding.days_to_target;
}
BENCHMARK(BM_Forecast30DaysHourly)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace nsxalb::segroup

BENCHMARK_MAIN();
