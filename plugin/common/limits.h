// The provider's limits, in one place: how much outside input it accepts, how deep it follows
// nesting, how long and how often it retries, and how far it pages. Each limit is enforced where
// the input arrives (the file named beside it) and tested at the limit: the value itself is
// accepted and one more is refused with an error that names the limit (README, "Reliability").
// Header only, so that every layer may include it without linking anything.
#ifndef NSXALB_PLUGIN_COMMON_LIMITS_H_
#define NSXALB_PLUGIN_COMMON_LIMITS_H_

#include <cstddef>

namespace nsxalb::limits {

// Largest gRPC message the plugin accepts from Terraform or sends back, in bytes (plugin/host/
// serve.cc). terraform-plugin-go uses the same figure; gRPC's 4 MiB default is too small for a
// large state. A bigger request fails with RESOURCE_EXHAUSTED before any handler runs.
inline constexpr int kMaxGrpcMessageBytes = 256 << 20;

// Largest Controller response body the client reads, in bytes (plugin/controller/
// curl_transport.cc). A 100-object page of SE groups is about 0.5 MiB; a larger body is cut off
// and the call fails with ResourceExhausted naming the limit, instead of filling memory.
inline constexpr size_t kMaxControllerResponseBytes = 64 << 20;

// Largest Controller response body the client streams to a sink (HttpRequest::body_sink;
// plugin/controller/curl_transport.cc), in bytes. Nothing is held, so memory does not bound it;
// the cap is there so that a runaway answer still ends. A metrics collection answer of 65 SEs,
// 8 series of 2016 points each (7 days at 300 s), is about 55 MiB; a longer body than the cap
// fails with ResourceExhausted naming the limit, not retried.
inline constexpr size_t kMaxStreamedResponseBytes = size_t{1} << 30;

// Deepest array/object nesting accepted by every decoder of outside input: cty msgpack and JSON
// from Terraform (plugin/cty), the Controller's JSON (plugin/controller/response.cc) and
// `extra_fields` (plugin/provider/se_group_state.cc). Deeper input is an error, so that no
// recursive walk over a parsed value (printing, comparing, converting) can exhaust the stack.
// Terraform values and SE group objects nest fewer than 10 levels.
inline constexpr int kMaxNestingDepth = 64;

// Retries of one Controller request after its first attempt, by default and at most
// (ClientConfig::max_retries; plugin/controller/client.cc). Retried: connection failures, 429,
// 502, 503 and 504.
inline constexpr int kDefaultMaxRetries = 5;
inline constexpr int kMaxRetries = 100;

// Time one Controller operation may take in all, retries, backoff sleeps and re-login included,
// by default and at most, in seconds (ClientConfig::total_timeout; the provider's
// `timeout_seconds`).
inline constexpr int kDefaultTotalTimeoutSeconds = 300;
inline constexpr int kMaxTotalTimeoutSeconds = 3600;

// Objects one listing reads across all its pages (SE groups, clouds; plugin/controller/
// client.cc). More fails with ResourceExhausted naming the limit; at about 20 KiB an SE group
// in memory, this bounds one listing to about 200 MiB.
inline constexpr int kMaxListedObjects = 10000;

// Pages one listing follows. Guards against a Controller whose `next` links never end, even
// with empty pages; at the client's page size (100) the object limit binds first.
inline constexpr int kMaxListPages = 1000;

// Points one analytics series contributes to a usage report (plugin/segroup/usage.cc): a 7-day
// window at the 300 s step, the most a usage request asks for. A series with more keeps its most
// recent points, and the report says so in a finding (rule usage-points-capped). For a 10-SE
// group this bounds a report to about 160,000 points.
inline constexpr int kMaxUsagePointsPerSeries = 2016;

}  // namespace nsxalb::limits

#endif  // NSXALB_PLUGIN_COMMON_LIMITS_H_
