// The emulated Controller's analytics: metric catalog, loaded series and metrics queries.
#include "emulator/metrics.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "plugin/common/status_macros.h"

namespace nsxalb::emulator {
namespace {

using nlohmann::json;

// Values one loaded series may hold (30 days of 5 s points is 518,400).
constexpr size_t kMaxLoadedValues = 1000000;

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
int64_t FloorTo(int64_t t, int64_t step) { return FloorDiv(t, step) * step; }
int64_t CeilTo(int64_t t, int64_t step) { return -FloorDiv(-t, step) * step; }

const char* EntityName(MetricEntity e) {
  return e == MetricEntity::kServiceEngine ? "serviceengine" : "virtualservice";
}

absl::Status Invalid(absl::string_view where, absl::string_view field, absl::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat(where, field, ": ", message));
}

// Query members: JSON values (collection POST) or strings (a GET's query string).
absl::StatusOr<std::optional<std::string>> StringField(const json& f, const char* name,
                                                       absl::string_view where) {
  auto it = f.find(name);
  if (it == f.end() || it->is_null()) return std::optional<std::string>();
  if (!it->is_string()) return Invalid(where, name, "must be a string");
  return std::optional<std::string>(it->get<std::string>());
}

absl::StatusOr<std::optional<int64_t>> IntField(const json& f, const char* name,
                                                absl::string_view where) {
  auto it = f.find(name);
  if (it == f.end() || it->is_null()) return std::optional<int64_t>();
  int64_t v = 0;
  if (it->is_number_integer()) return std::optional<int64_t>(it->get<int64_t>());
  if (it->is_string() && absl::SimpleAtoi(it->get<std::string>(), &v)) {
    return std::optional<int64_t>(v);
  }
  return Invalid(where, name, absl::StrCat("must be an integer, not ", it->dump()));
}

absl::StatusOr<std::optional<bool>> BoolField(const json& f, const char* name,
                                              absl::string_view where) {
  auto it = f.find(name);
  if (it == f.end() || it->is_null()) return std::optional<bool>();
  if (it->is_boolean()) return std::optional<bool>(it->get<bool>());
  if (it->is_string()) {
    const std::string v = absl::AsciiStrToLower(it->get<std::string>());
    if (v == "true" || v == "1") return std::optional<bool>(true);
    if (v == "false" || v == "0") return std::optional<bool>(false);
  }
  return Invalid(where, name, absl::StrCat("must be true or false, not ", it->dump()));
}

absl::StatusOr<std::optional<int64_t>> TimeField(const json& f, const char* name,
                                                 absl::string_view where) {
  NSXALB_ASSIGN_OR_RETURN(auto text, StringField(f, name, where));
  if (!text.has_value()) return std::optional<int64_t>();
  auto t = ParseMetricTime(*text);
  if (!t.ok()) return Invalid(where, name, t.status().message());
  return std::optional<int64_t>(*t);
}

std::vector<std::string> SplitList(absl::string_view text) {
  std::vector<std::string> out;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    part = absl::StripAsciiWhitespace(part);
    if (!part.empty()) out.emplace_back(part);
  }
  return out;
}

// The statistics of the non-null points of `data` (MetricStatistics).
json Statistics(const json& data) {
  json stats = {{"num_samples", 0}};
  double sum = 0;
  int n = 0;
  for (const json& point : data) {
    if (point.value("is_null", false)) continue;
    const double v = point["value"].get<double>();
    if (n == 0 || v > stats["max"].get<double>()) {
      stats["max"] = v;
      stats["max_ts"] = point["timestamp"];
    }
    if (n == 0 || v < stats["min"].get<double>()) {
      stats["min"] = v;
      stats["min_ts"] = point["timestamp"];
    }
    stats["last_sample"] = v;
    sum += v;
    ++n;
  }
  stats["num_samples"] = n;
  if (n > 0) stats["mean"] = sum / n;
  return stats;
}

}  // namespace

const std::vector<MetricInfo>& MetricCatalog() {
  static const std::vector<MetricInfo> catalog = {
      {"se_stats.avg_cpu_usage", "PERCENT", MetricEntity::kServiceEngine, false},
      {"se_stats.avg_mem_usage", "PERCENT", MetricEntity::kServiceEngine, false},
      {"se_if.avg_bandwidth", "BITS_PER_SECOND", MetricEntity::kServiceEngine, false},
      {"l7_client.avg_complete_responses", "PER_SECOND", MetricEntity::kVirtualService, false},
      {"l7_client.avg_ssl_handshakes_new", "PER_SECOND", MetricEntity::kVirtualService, false},
      {"l4_client.avg_new_established_conns", "PER_SECOND", MetricEntity::kVirtualService, false},
      {"l4_client.max_open_conns", "METRIC_COUNT", MetricEntity::kVirtualService, true},
      {"l4_client.avg_bandwidth", "BITS_PER_SECOND", MetricEntity::kVirtualService, false},
  };
  return catalog;
}

const MetricInfo* FindMetric(absl::string_view id) {
  for (const MetricInfo& m : MetricCatalog()) {
    if (m.id == id) return &m;
  }
  return nullptr;
}

bool IsMetricStep(int64_t step) {
  return step == 5 || step == 300 || step == 3600 || step == 86400;
}

std::string FormatMetricTime(int64_t unix_seconds) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%S+00:00", absl::FromUnixSeconds(unix_seconds),
                          absl::UTCTimeZone());
}

absl::StatusOr<int64_t> ParseMetricTime(absl::string_view text) {
  const std::string s(absl::StripAsciiWhitespace(text));
  absl::Time t;
  std::string err;
  for (const char* format : {"%Y-%m-%d%ET%H:%M:%E*S%Ez", "%Y-%m-%d%ET%H:%M:%E*S"}) {
    if (absl::ParseTime(format, s, absl::UTCTimeZone(), &t, &err)) {
      return absl::ToUnixSeconds(t);
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat("'", s, "' is not an ISO 8601 time such as 2026-12-01T14:05:00Z"));
}

absl::StatusOr<MetricsQuery> ParseMetricsQuery(const json& f, std::optional<MetricEntity> entity,
                                               absl::string_view where) {
  if (!f.is_object()) return Invalid(where, "query", "must be a JSON object");
  MetricsQuery q;
  NSXALB_ASSIGN_OR_RETURN(auto id, StringField(f, "id", where));
  q.id = id.value_or("");

  NSXALB_ASSIGN_OR_RETURN(auto metric_ids, StringField(f, "metric_id", where));
  if (!metric_ids.has_value() || SplitList(*metric_ids).empty()) {
    return Invalid(where, "metric_id", "is required (a comma-separated list of metric ids)");
  }
  for (const std::string& m : SplitList(*metric_ids)) {
    const MetricInfo* info = FindMetric(m);
    if (info == nullptr)
      return Invalid(where, "metric_id", absl::StrCat("unknown metric '", m, "'"));
    q.metrics.push_back(info);
  }
  NSXALB_ASSIGN_OR_RETURN(auto metric_entity, StringField(f, "metric_entity", where));
  if (!entity.has_value() && metric_entity.has_value()) {
    if (*metric_entity == "SE_METRICS_ENTITY") {
      entity = MetricEntity::kServiceEngine;
    } else if (*metric_entity == "VSERVER_METRICS_ENTITY") {
      entity = MetricEntity::kVirtualService;
    } else {
      return Invalid(where, "metric_entity",
                     absl::StrCat("'", *metric_entity,
                                  "' is not served (SE_METRICS_ENTITY or VSERVER_METRICS_ENTITY)"));
    }
  }
  q.entity = entity.value_or(q.metrics.front()->entity);
  for (const MetricInfo* m : q.metrics) {
    if (m->entity != q.entity) {
      return Invalid(where, "metric_id",
                     absl::StrCat("'", m->id, "' is not a ", EntityName(q.entity), " metric"));
    }
  }

  NSXALB_ASSIGN_OR_RETURN(auto step, IntField(f, "step", where));
  q.step = step.value_or(5);
  if (!IsMetricStep(q.step)) {
    return Invalid(where, "step",
                   absl::StrCat(q.step, " is not a metrics step (5, 300, 3600 or 86400)"));
  }
  NSXALB_ASSIGN_OR_RETURN(auto limit, IntField(f, "limit", where));
  q.limit = limit.value_or(60);
  if (q.limit < 1 || q.limit > kMaxMetricsLimit) {
    return Invalid(where, "limit", absl::StrCat(q.limit, " is outside 1-", kMaxMetricsLimit));
  }
  NSXALB_ASSIGN_OR_RETURN(auto start, TimeField(f, "start", where));
  q.start = start;
  NSXALB_ASSIGN_OR_RETURN(auto stop, TimeField(f, "stop", where));
  q.stop = stop;
  if (q.start.has_value() && q.stop.has_value() && *q.start > *q.stop) {
    return Invalid(where, "start", "is after stop");
  }

  NSXALB_ASSIGN_OR_RETURN(auto entity_uuid, StringField(f, "entity_uuid", where));
  q.entity_text = entity_uuid.value_or("*");
  if (absl::StripAsciiWhitespace(q.entity_text) == "*") {
    q.all_entities = true;
    q.entity_text = "*";
  } else {
    q.entity_uuids = SplitList(q.entity_text);
    if (q.entity_uuids.empty()) return Invalid(where, "entity_uuid", "is empty");
  }
  NSXALB_ASSIGN_OR_RETURN(auto se, StringField(f, "serviceengine_uuid", where));
  q.serviceengine_uuid = std::string(absl::StripAsciiWhitespace(se.value_or("")));
  NSXALB_ASSIGN_OR_RETURN(auto aggregate, BoolField(f, "aggregate_entity", where));
  q.aggregate_entity = aggregate.value_or(false);
  if (q.entity == MetricEntity::kServiceEngine) {
    if (!q.serviceengine_uuid.empty()) {
      return Invalid(where, "serviceengine_uuid",
                     "applies to virtualservice metrics (for an SE's own metrics use entity_uuid)");
    }
    if (q.aggregate_entity) {
      return Invalid(where, "aggregate_entity",
                     "is served for virtualservice metrics only (sum SE metrics on the client)");
    }
  }
  NSXALB_ASSIGN_OR_RETURN(auto pad, BoolField(f, "pad_missing_data", where));
  q.pad_missing_data = pad.value_or(true);
  NSXALB_ASSIGN_OR_RETURN(auto stats, BoolField(f, "include_statistics", where));
  q.include_statistics = stats.value_or(true);
  return q;
}

absl::StatusOr<json> MetricsStore::Load(const json& body, int64_t now,
                                        const std::function<bool(const std::string&)>& se_exists) {
  if (!body.is_object() || !body.contains("series") || !body["series"].is_array()) {
    return absl::InvalidArgumentError("series: required, a list of series");
  }
  struct Loaded {
    Key key;
    int64_t step;
    Series series;
  };
  std::vector<Loaded> loaded;
  const json& list = body["series"];
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string at = absl::StrCat("series[", i, "].");
    const json& s = list[i];
    if (!s.is_object()) return Invalid(at, "series", "must be an object");
    NSXALB_ASSIGN_OR_RETURN(auto entity, StringField(s, "entity_uuid", at));
    if (!entity.has_value() || entity->empty()) {
      return Invalid(at, "entity_uuid", "is required");
    }
    NSXALB_ASSIGN_OR_RETURN(auto metric_id, StringField(s, "metric_id", at));
    const MetricInfo* metric = metric_id.has_value() ? FindMetric(*metric_id) : nullptr;
    if (metric == nullptr) {
      return Invalid(at, "metric_id",
                     metric_id.has_value() ? absl::StrCat("unknown metric '", *metric_id, "'")
                                           : std::string("is required"));
    }
    NSXALB_ASSIGN_OR_RETURN(auto step, IntField(s, "step", at));
    if (!step.has_value() || !IsMetricStep(*step)) {
      return Invalid(at, "step", "must be 5, 300, 3600 or 86400");
    }
    NSXALB_ASSIGN_OR_RETURN(auto stop, TimeField(s, "stop", at));
    NSXALB_ASSIGN_OR_RETURN(auto se, StringField(s, "serviceengine_uuid", at));
    if (metric->entity == MetricEntity::kServiceEngine) {
      if (se.has_value()) {
        return Invalid(at, "serviceengine_uuid",
                       "applies to virtualservice series only (an SE series names the SE in "
                       "entity_uuid)");
      }
      if (!se_exists(*entity)) {
        return absl::NotFoundError(
            absl::StrCat(at, "entity_uuid: no Service Engine '", *entity, "'"));
      }
    } else if (se.has_value() && !se_exists(*se)) {
      return absl::NotFoundError(
          absl::StrCat(at, "serviceengine_uuid: no Service Engine '", *se, "'"));
    }
    auto values = s.find("values");
    if (values == s.end() || !values->is_array()) {
      return Invalid(at, "values", "is required, a list of numbers and nulls");
    }
    if (values->size() > kMaxLoadedValues) {
      return Invalid(at, "values", absl::StrCat("holds more than ", kMaxLoadedValues, " values"));
    }
    Series series;
    series.last = FloorTo(stop.value_or(now), *step);
    series.values.reserve(values->size());
    for (size_t j = 0; j < values->size(); ++j) {
      const json& v = (*values)[j];
      if (v.is_null()) {
        series.values.emplace_back();
        continue;
      }
      const std::string field = absl::StrCat("values[", j, "]");
      if (!v.is_number()) return Invalid(at, field, absl::StrCat(v.dump(), " is not a number"));
      const double d = v.get<double>();
      if (!std::isfinite(d)) return Invalid(at, field, "is not a finite number");
      if (d < 0) return Invalid(at, field, absl::StrCat(v.dump(), " is negative"));
      series.values.emplace_back(d);
    }
    loaded.push_back(
        {Key{*entity, se.value_or(""), std::string(metric->id)}, *step, std::move(series)});
  }
  json out = json::array();
  absl::MutexLock lock(&mu_);
  for (Loaded& l : loaded) {
    const int64_t n = static_cast<int64_t>(l.series.values.size());
    json entry = {{"entity_uuid", std::get<0>(l.key)},
                  {"metric_id", std::get<2>(l.key)},
                  {"step", l.step},
                  {"values", n}};
    if (!std::get<1>(l.key).empty()) entry["serviceengine_uuid"] = std::get<1>(l.key);
    if (n > 0) {
      entry["start"] = FormatMetricTime(l.series.last - (n - 1) * l.step);
      entry["stop"] = FormatMetricTime(l.series.last);
    }
    out.push_back(std::move(entry));
    series_[l.key][l.step] = std::move(l.series);
  }
  return json{{"series", out}};
}

void MetricsStore::ForgetServiceEngines(const std::vector<std::string>& se_uuids) {
  const std::set<std::string> gone(se_uuids.begin(), se_uuids.end());
  absl::MutexLock lock(&mu_);
  for (auto it = series_.begin(); it != series_.end();) {
    const bool drop = gone.count(std::get<0>(it->first)) > 0 || gone.count(std::get<1>(it->first));
    it = drop ? series_.erase(it) : std::next(it);
  }
}

std::vector<std::optional<double>> MetricsStore::ValuesLocked(
    const Key& key, const MetricInfo& metric, int64_t step,
    const std::vector<int64_t>& timestamps) {
  std::vector<std::optional<double>> out(timestamps.size());
  auto found = series_.find(key);
  if (found == series_.end()) return out;
  const std::map<int64_t, Series>& by_step = found->second;
  // The value stored at `t` in `s` (one `s_step` apart), if any.
  auto at = [](const Series& s, int64_t s_step, int64_t t) -> std::optional<double> {
    if (s.values.empty() || t > s.last || (s.last - t) % s_step != 0) return std::nullopt;
    const int64_t back = (s.last - t) / s_step;
    if (back >= static_cast<int64_t>(s.values.size())) return std::nullopt;
    return s.values[s.values.size() - 1 - static_cast<size_t>(back)];
  };
  if (auto exact = by_step.find(step); exact != by_step.end()) {
    for (size_t i = 0; i < timestamps.size(); ++i) out[i] = at(exact->second, step, timestamps[i]);
    return out;
  }
  if (step == 5) return out;  // realtime comes only from realtime series
  const Series* fine = nullptr;
  int64_t fine_step = 0;
  for (const auto& [s, series] : by_step) {  // ascending: the first fit is the finest
    if (s != 5 && s < step && step % s == 0) {
      fine = &series;
      fine_step = s;
      break;
    }
  }
  if (fine == nullptr) return out;
  for (size_t i = 0; i < timestamps.size(); ++i) {
    // The bucket labelled T holds the finer points in (T - step, T].
    double acc = 0;
    int n = 0;
    for (int64_t t = timestamps[i] - step + fine_step; t <= timestamps[i]; t += fine_step) {
      std::optional<double> v = at(*fine, fine_step, t);
      if (!v.has_value()) continue;
      acc = metric.rolls_up_by_max ? (n == 0 ? *v : std::max(acc, *v)) : acc + *v;
      ++n;
    }
    if (n > 0) out[i] = metric.rolls_up_by_max ? acc : acc / n;
  }
  return out;
}

absl::StatusOr<MetricsAnswer> MetricsStore::Run(const MetricsQuery& q, int64_t now,
                                                const std::vector<std::string>& visible_ses,
                                                absl::string_view where) {
  MetricsAnswer answer;
  answer.stop = q.stop.value_or(now);
  answer.start = q.start.value_or(answer.stop - q.limit * q.step);
  if (answer.start > answer.stop) return Invalid(where, "start", "is after stop");
  // The points: multiples of step in [start, stop], the newest `limit` of them.
  std::vector<int64_t> timestamps;
  const int64_t last = FloorTo(answer.stop, q.step);
  const int64_t first = std::max(CeilTo(answer.start, q.step), last - (q.limit - 1) * q.step);
  for (int64_t t = first; t <= last; t += q.step) timestamps.push_back(t);

  const std::set<std::string> ses(visible_ses.begin(), visible_ses.end());
  // One output series: where the collection files it, its header's entity and SE, and the
  // stored (entity, SE) series summed into it.
  struct Output {
    std::string key;
    std::string entity;
    std::string se;
    std::vector<std::pair<std::string, std::string>> members;
  };
  std::vector<Output> outputs;

  absl::MutexLock lock(&mu_);
  if (q.entity == MetricEntity::kServiceEngine) {
    std::vector<std::string> entities = q.all_entities ? visible_ses : q.entity_uuids;
    for (const std::string& e : entities) {
      if (ses.count(e) == 0) {
        return absl::NotFoundError(absl::StrCat(where, "entity_uuid: no Service Engine '", e, "'"));
      }
      outputs.push_back({e, e, "", {{e, ""}}});
    }
  } else {
    const std::string& se = q.serviceengine_uuid;
    if (!se.empty() && se != "*" && ses.count(se) == 0) {
      return absl::NotFoundError(
          absl::StrCat(where, "serviceengine_uuid: no Service Engine '", se, "'"));
    }
    // The SEs ("" for none) each virtual service has series on, for every VS with series.
    std::map<std::string, std::set<std::string>> carried;
    for (const auto& [key, by_step] : series_) {
      const MetricInfo* m = FindMetric(std::get<2>(key));
      if (m != nullptr && m->entity == MetricEntity::kVirtualService) {
        carried[std::get<0>(key)].insert(std::get<1>(key));
      }
    }
    std::vector<std::string> vses;
    if (q.all_entities) {
      for (const auto& [vs, on] : carried) vses.push_back(vs);
    } else {
      for (const std::string& vs : q.entity_uuids) {
        if (carried.count(vs) == 0) {
          return absl::NotFoundError(
              absl::StrCat(where, "entity_uuid: no virtual service '", vs, "' with metrics"));
        }
        vses.push_back(vs);
      }
    }
    auto on = [&](const std::string& vs, const std::string& s) { return carried[vs].count(s) > 0; };
    if (q.aggregate_entity) {
      if (se == "*") {
        std::set<std::string> all_ses;
        for (const std::string& vs : vses) {
          for (const std::string& s : carried[vs]) {
            if (!s.empty()) all_ses.insert(s);
          }
        }
        for (const std::string& s : all_ses) {
          Output o{s, q.entity_text, s, {}};
          for (const std::string& vs : vses) o.members.emplace_back(vs, s);
          outputs.push_back(std::move(o));
        }
      } else {
        Output o{se.empty() ? q.entity_text : se, q.entity_text, se, {}};
        for (const std::string& vs : vses) {
          if (!se.empty()) {
            o.members.emplace_back(vs, se);
            continue;
          }
          for (const std::string& s : carried[vs]) o.members.emplace_back(vs, s);
        }
        outputs.push_back(std::move(o));
      }
    } else {
      for (const std::string& vs : vses) {
        if (se == "*") {
          for (const std::string& s : carried[vs]) outputs.push_back({vs, vs, s, {{vs, s}}});
        } else if (!se.empty()) {
          // Under "*" only the services the SE carries; a named service always.
          if (q.all_entities && !on(vs, se)) continue;
          outputs.push_back({vs, vs, se, {{vs, se}}});
        } else {
          Output o{vs, vs, "", {}};
          for (const std::string& s : carried[vs]) o.members.emplace_back(vs, s);
          outputs.push_back(std::move(o));
        }
      }
    }
  }

  for (const Output& o : outputs) {
    for (const MetricInfo* metric : q.metrics) {
      std::vector<std::optional<double>> sum(timestamps.size());
      for (const auto& [entity, se] : o.members) {
        std::vector<std::optional<double>> v =
            ValuesLocked(Key{entity, se, std::string(metric->id)}, *metric, q.step, timestamps);
        for (size_t i = 0; i < v.size(); ++i) {
          if (v[i].has_value()) sum[i] = sum[i].value_or(0) + *v[i];
        }
      }
      json data = json::array();
      for (size_t i = 0; i < timestamps.size(); ++i) {
        if (sum[i].has_value()) {
          data.push_back({{"timestamp", FormatMetricTime(timestamps[i])}, {"value", *sum[i]}});
        } else if (q.pad_missing_data) {
          data.push_back(
              {{"timestamp", FormatMetricTime(timestamps[i])}, {"value", 0.0}, {"is_null", true}});
        }
      }
      json header = {{"name", metric->id}, {"units", metric->units}, {"entity_uuid", o.entity}};
      if (!o.se.empty()) header["serviceengine_uuid"] = o.se;
      if (q.include_statistics) header["statistics"] = Statistics(data);
      answer.series.emplace_back(o.key, json{{"header", header}, {"data", data}});
    }
  }
  return answer;
}

}  // namespace nsxalb::emulator
