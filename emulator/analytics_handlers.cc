// Handlers of the emulated Controller's analytics API: the metrics GETs of Service Engines and
// virtual services and the collection POST, over metrics.h. Rules in docs/emulator.md.
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "emulator/server.h"
#include "httplib.h"

namespace nsxalb::emulator {
namespace {

using nlohmann::json;

int64_t NowSeconds() { return absl::ToUnixSeconds(absl::Now()); }

// A GET's query parameters (or a collection URL's) as a JSON object of strings; the last value of
// a repeated parameter wins.
json ParamsObject(const httplib::Request& req) {
  json out = json::object();
  for (const auto& [k, v] : req.params) out[k] = v;
  return out;
}

std::string MetricIds(const MetricsQuery& q) {
  std::vector<std::string> ids;
  for (const MetricInfo* m : q.metrics) ids.emplace_back(m->id);
  return absl::StrJoin(ids, ",");
}

}  // namespace

std::vector<std::string> Server::VisibleServiceEngines(const std::string& tenant_uuid) {
  ListFilter filter;
  filter.tenant_uuid = tenant_uuid;
  std::vector<std::string> out;
  for (const json& se : store_.List(kServiceEngine, filter)) out.push_back(se.value("uuid", ""));
  return out;
}

void Server::HandleMetricsGet(MetricEntity entity, const httplib::Request& req,
                              httplib::Response& res) {
  ApiContext ctx;
  if (!Authorize(req, res, &ctx)) return;
  json fields = ParamsObject(req);
  fields.erase("id");
  if (req.matches.size() > 1 && req.matches[1].length() > 0) {
    fields["entity_uuid"] = req.matches[1].str();
  }
  absl::StatusOr<MetricsQuery> q = ParseMetricsQuery(fields, entity, "");
  if (!q.ok()) return WriteError(res, HttpStatusFor(q.status()), std::string(q.status().message()));
  absl::StatusOr<MetricsAnswer> a =
      metrics_.Run(*q, NowSeconds(), VisibleServiceEngines(ctx.tenant_uuid), "");
  if (!a.ok()) return WriteError(res, HttpStatusFor(a.status()), std::string(a.status().message()));
  json series = json::array();
  for (auto& [key, s] : a->series) series.push_back(std::move(s));
  json out = {{"entity_uuid", q->entity_text},
              {"metric_entity", entity == MetricEntity::kServiceEngine ? "SE_METRICS_ENTITY"
                                                                       : "VSERVER_METRICS_ENTITY"},
              {"metric_id", MetricIds(*q)},
              {"step", q->step},
              {"limit", q->limit},
              {"start", FormatMetricTime(a->start)},
              {"stop", FormatMetricTime(a->stop)},
              {"series", series}};
  res.set_content(out.dump(), "application/json");
}

void Server::HandleMetricsCollection(const httplib::Request& req, httplib::Response& res) {
  ApiContext ctx;
  if (!Authorize(req, res, &ctx)) return;
  json body;
  if (!ParseBody(req, res, &body)) return;
  const json& requests = body.contains("metric_requests") ? body["metric_requests"] : json();
  if (!requests.is_array() || requests.empty()) {
    return WriteError(res, 400, "metric_requests: required, a non-empty list of metrics queries");
  }
  // Parameters on the URL (?pad_missing_data=false) apply to every request that does not set
  // them.
  const json defaults = ParamsObject(req);
  const std::vector<std::string> visible = VisibleServiceEngines(ctx.tenant_uuid);
  const int64_t now = NowSeconds();
  // Each request's series are written out as soon as they are made, so that only one request's
  // are held as JSON at a time: a whole estate's answer runs to tens of MiB of text, and several
  // times that as a JSON tree.
  std::set<std::string> ids;
  std::string out = R"({"series":{)";
  for (size_t i = 0; i < requests.size(); ++i) {
    json fields = requests[i];
    std::string where = absl::StrCat("metric_requests[", i, "].");
    if (!fields.is_object()) return WriteError(res, 400, absl::StrCat(where, ": not an object"));
    if (!fields.contains("id") || !fields["id"].is_string() ||
        fields["id"].get<std::string>().empty()) {
      return WriteError(res, 400, absl::StrCat(where, "id: required, a non-empty string"));
    }
    const std::string id = fields["id"].get<std::string>();
    where = absl::StrCat("metric_requests[id=", id, "].");
    if (!ids.insert(id).second) return WriteError(res, 400, absl::StrCat(where, "id: repeated"));
    for (auto it = defaults.begin(); it != defaults.end(); ++it) {
      if (!fields.contains(it.key())) fields[it.key()] = it.value();
    }
    absl::StatusOr<MetricsQuery> q = ParseMetricsQuery(fields, std::nullopt, where);
    if (!q.ok()) {
      return WriteError(res, HttpStatusFor(q.status()), std::string(q.status().message()));
    }
    absl::StatusOr<MetricsAnswer> a = metrics_.Run(*q, now, visible, where);
    if (!a.ok()) {
      return WriteError(res, HttpStatusFor(a.status()), std::string(a.status().message()));
    }
    json by_entity = json::object();
    for (auto& [key, s] : a->series) {
      if (!by_entity.contains(key)) by_entity[key] = json::array();
      by_entity[key].push_back(std::move(s));
    }
    absl::StrAppend(&out, ids.size() == 1 ? "" : ",", json(id).dump(), ":", by_entity.dump());
  }
  out += "}}";
  res.set_content(out, "application/json");
}

}  // namespace nsxalb::emulator
