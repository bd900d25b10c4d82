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

UsageQuery RollLoadQuery(const UsageQuery* observed) {
  if (observed != nullptr) return *observed;
  UsageQuery query;
  query.window = kRollLoadWindow;
  query.statistic = UsageStatistic::kMax;
  return query;
}

absl::StatusOr<SesCpuNow> ReadSesCpuNow(controller::Client& client, std::string_view tenant,
                                        const std::vector<controller::ServiceEngine>& ses,
                                        const UsageQuery& query, absl::Time now) {
  SesCpuNow out;
  out.window = query.window;
  const std::string statistic =
      query.statistic == UsageStatistic::kMax
          ? "the highest sample"
          : absl::StrCat("the ", UsageStatisticName(query.statistic), " of the samples");
  out.source = absl::StrCat("the Controller's se_stats.avg_cpu_usage of each SE, ", statistic,
                            " of the last ", UsageWindowProse(query.window), " (",
                            UsageStepSeconds(query.window), " s samples)");
  if (ses.empty()) return out;
  const std::vector<ObservedSe> observed = ObservedSes(ses);
  // The usage request's SE part only: the roll reads no virtual-service series.
  nlohmann::json request = UsageCollectionRequest(observed, query, now);
  nlohmann::json& requests = request["metric_requests"];
  for (auto it = requests.begin(); it != requests.end();) {
    it = it->value("id", "") == kSeStatsRequestId ? std::next(it) : requests.erase(it);
  }
  usage_internal::CollectionDecoder decoder(observed, absl::ToUnixSeconds(now - query.window),
                                            absl::ToUnixSeconds(now));
  const absl::Status read = usage_internal::StreamCollection(client, request, tenant, decoder);
  if (!read.ok()) {
    if (read.code() == absl::StatusCode::kCancelled) return read;
    out.failure = std::string(read.message());
    return out;
  }
  for (size_t i = 0; i < observed.size(); ++i) {
    std::vector<std::pair<int64_t, double>> points;
    for (const auto& [at, sample] : decoder.SamplesOf(i)) {
      if (sample.Has(usage_internal::kCpu))
        points.push_back({at, sample.value[usage_internal::kCpu]});
    }
    const ObservedPeak peak = usage_internal::StatisticOf(points, query.statistic);
    if (peak.value.has_value()) out.cpu_pct[observed[i].uuid] = *peak.value;
  }
  return out;
}

lifecycle::CurrentLoad CurrentLoadOf(const SesCpuNow& all,
                                     const std::vector<lifecycle::RunningSe>& group) {
  lifecycle::CurrentLoad load;
  load.source = all.source;
  for (const lifecycle::RunningSe& se : group) {
    auto it = all.cpu_pct.find(se.uuid);
    if (it != all.cpu_pct.end()) load.cpu_pct[se.uuid] = it->second;
  }
  if (load.cpu_pct.empty()) {
    load.missing_reason =
        all.failure.empty()
            ? absl::StrCat("no sample of se_stats.avg_cpu_usage in the last ",
                           UsageWindowProse(all.window), " for the group's ", group.size(), " SEs")
            : absl::StrCat("the metrics request failed: ", all.failure);
  }
  return load;
}

std::string SharedCurrentLoad::Key(std::string_view tenant, const UsageQuery& query) {
  return absl::StrCat(absl::string_view(tenant.data(), tenant.size()), "|",
                      absl::ToInt64Seconds(query.window), "|", UsageStatisticName(query.statistic));
}

absl::StatusOr<std::shared_ptr<const SesCpuNow>> SharedCurrentLoad::Get(
    controller::Client& client, std::string_view tenant,
    const std::vector<controller::ServiceEngine>& ses, const UsageQuery& query, absl::Time now) {
  return cache_.Get(Key(tenant, query), [&]() -> absl::StatusOr<SesCpuNow> {
    return ReadSesCpuNow(client, tenant, ses, query, now);
  });
}

uint64_t SharedCurrentLoad::Fetches(std::string_view tenant, const UsageQuery& query) {
  return cache_.Fetches(Key(tenant, query));
}

}  // namespace nsxalb::segroup
