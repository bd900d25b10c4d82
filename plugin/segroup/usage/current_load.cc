// Implementation of current_load.h.
#include "plugin/segroup/usage/current_load.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "plugin/segroup/usage/collection_stream.h"
#include "plugin/segroup/usage/decode.h"
#include "plugin/segroup/usage/group_reader.h"
#include "plugin/segroup/usage/series.h"

namespace nsxalb::segroup {
namespace {

// Why `group` has no figure of `metric_id` over `window`.
std::string NoSampleOf(const char* metric_id, absl::Duration window, size_t group_ses) {
  return absl::StrCat("no sample of ", metric_id, " in the last ", UsageWindowProse(window),
                      " for the group's ", group_ses, group_ses == 1 ? " SE" : " SEs");
}

}  // namespace

UsageQuery RollLoadQuery(const UsageQuery* observed) {
  if (observed != nullptr) return *observed;
  UsageQuery query;
  query.window = kRollLoadWindow;
  query.statistic = UsageStatistic::kMax;
  return query;
}

absl::StatusOr<SesLoadNow> ReadSesLoadNow(controller::Client& client, std::string_view tenant,
                                          const std::vector<controller::ServiceEngine>& ses,
                                          const UsageQuery& query, absl::Time now) {
  SesLoadNow out;
  out.window = query.window;
  const std::string statistic =
      query.statistic == UsageStatistic::kMax
          ? "the highest sample"
          : absl::StrCat("the ", UsageStatisticName(query.statistic), " of the samples");
  out.source = absl::StrCat(
      "the Controller's se_stats.avg_cpu_usage and se_stats.avg_mem_usage "
      "of each SE, ",
      statistic, " of the last ", UsageWindowProse(query.window), " (",
      UsageStepSeconds(query.window), " s samples)");
  if (ses.empty()) return out;
  const std::vector<ObservedSe> observed = ObservedSes(ses);
  // The usage request's SE part only, asking memory and bandwidth too: the roll reads no
  // virtual-service series.
  nlohmann::json request = UsageCollectionRequest(observed, query, now);
  nlohmann::json& requests = request["metric_requests"];
  for (auto it = requests.begin(); it != requests.end();) {
    it = it->value("id", "") == kSeStatsRequestId ? std::next(it) : requests.erase(it);
  }
  for (nlohmann::json& se_request : requests) se_request["metric_id"] = kRollLoadMetricIds;
  usage_internal::CollectionDecoder decoder(observed, absl::ToUnixSeconds(now - query.window),
                                            absl::ToUnixSeconds(now));
  const absl::Status read = usage_internal::StreamCollection(client, request, tenant, decoder);
  if (!read.ok()) {
    if (read.code() == absl::StatusCode::kCancelled) return read;
    out.failure = std::string(read.message());
    return out;
  }
  // Each SE's statistic of one series, when it has samples of it.
  const auto statistic_of = [&](size_t se, usage_internal::Series series,
                                std::map<std::string, double>& into) {
    std::vector<std::pair<int64_t, double>> points;
    for (const auto& [at, sample] : decoder.SamplesOf(se)) {
      if (sample.Has(series)) points.push_back({at, sample.value[series]});
    }
    const ObservedPeak peak = usage_internal::StatisticOf(points, query.statistic);
    if (peak.value.has_value()) into[observed[se].uuid] = *peak.value;
  };
  for (size_t i = 0; i < observed.size(); ++i) {
    statistic_of(i, usage_internal::kCpu, out.cpu_pct);
    statistic_of(i, usage_internal::kMem, out.mem_pct);
    statistic_of(i, usage_internal::kSeBandwidth, out.bandwidth_bps);
  }
  return out;
}

lifecycle::CurrentLoad CurrentLoadOf(const SesLoadNow& all,
                                     const std::vector<lifecycle::RunningSe>& group) {
  lifecycle::CurrentLoad load;
  load.source = all.source;
  for (const lifecycle::RunningSe& se : group) {
    if (auto it = all.cpu_pct.find(se.uuid); it != all.cpu_pct.end()) {
      load.cpu_pct[se.uuid] = it->second;
    }
    if (auto it = all.mem_pct.find(se.uuid); it != all.mem_pct.end()) {
      load.mem_pct[se.uuid] = it->second;
    }
    if (auto it = all.bandwidth_bps.find(se.uuid); it != all.bandwidth_bps.end()) {
      load.bandwidth_bps[se.uuid] = it->second;
    }
  }
  if (load.mem_pct.empty() && !load.cpu_pct.empty()) {
    load.memory_missing_reason = NoSampleOf("se_stats.avg_mem_usage", all.window, group.size());
  }
  if (load.bandwidth_bps.empty() && !load.cpu_pct.empty()) {
    load.bandwidth_missing_reason = NoSampleOf("se_if.avg_bandwidth", all.window, group.size());
  }
  if (load.cpu_pct.empty()) {
    load.missing_reason = all.failure.empty()
                              ? NoSampleOf("se_stats.avg_cpu_usage", all.window, group.size())
                              : absl::StrCat("the metrics request failed: ", all.failure);
  }
  return load;
}

std::string SharedCurrentLoad::Key(std::string_view tenant, const UsageQuery& query) {
  return absl::StrCat(absl::string_view(tenant.data(), tenant.size()), "|",
                      absl::ToInt64Seconds(query.window), "|", UsageStatisticName(query.statistic));
}

absl::StatusOr<std::shared_ptr<const SesLoadNow>> SharedCurrentLoad::Get(
    controller::Client& client, std::string_view tenant,
    const std::vector<controller::ServiceEngine>& ses, const UsageQuery& query, absl::Time now) {
  return cache_.Get(Key(tenant, query), [&]() -> absl::StatusOr<SesLoadNow> {
    return ReadSesLoadNow(client, tenant, ses, query, now);
  });
}

uint64_t SharedCurrentLoad::Fetches(std::string_view tenant, const UsageQuery& query) {
  return cache_.Fetches(Key(tenant, query));
}

}  // namespace nsxalb::segroup
