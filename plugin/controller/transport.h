// The HTTP exchange the Controller client sends its requests through: one request in, one
// response (or a classified transport failure) out. The client's retry loop (request_loop.h)
// owns one Transport and knows nothing of how it talks; the product's is libcurl's
// (curl_transport.h), and tests can put a scripted fake in its place (ClientHooks::transport in
// client.h), so session, retry and paging logic run without sockets. A transport knows nothing
// of sessions or retries.
#ifndef NSXALB_PLUGIN_CONTROLLER_TRANSPORT_H_
#define NSXALB_PLUGIN_CONTROLLER_TRANSPORT_H_

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace nsxalb::controller {

// TLS settings (see ClientConfig).
struct TlsOptions {
  std::string ca_file;
  std::string ca_pem;
  bool insecure = false;
};

// Where a streamed response's body goes (HttpRequest::body_sink): the transport calls Begin()
// when a 2xx response's body starts (again on each attempt the client's retry loop makes, so a
// sink starts over), Write() for each chunk in order, and nothing else; the caller finishes.
// A non-OK status from Begin or Write aborts the exchange: the transport returns that status
// (not retryable). Bodies of other statuses are collected in HttpResponse::body as before.
class BodySink {
 public:
  virtual ~BodySink() = default;

  // A 2xx body starts (possibly empty): drop whatever an earlier attempt wrote.
  virtual absl::Status Begin() = 0;

  // The next chunk of the body, decoded (gzip undone); never called before Begin().
  virtual absl::Status Write(std::string_view chunk) = 0;
};

// One HTTP request.
struct HttpRequest {
  std::string method;                // "GET", "POST", "PUT", "DELETE"
  std::string url;                   // absolute https URL
  std::vector<std::string> headers;  // "Name: value" lines
  std::string body;                  // sent when non-empty or method is POST/PUT
  absl::Duration timeout = absl::Seconds(60);
  // False for a request that must reach the Controller at most once (POST create). libcurl
  // silently resends a request whose kept-alive connection died before any response; if the
  // Controller had acted on it, that resend could duplicate the object. A non-idempotent
  // request still reuses a kept-alive connection, but the resend is refused: the transfer
  // fails as Unavailable, `retryable` and `maybe_sent`, and the caller decides (the client
  // checks whether the create took effect). With a libcurl older than 7.80, which cannot
  // refuse it, such a request goes on a fresh connection instead.
  bool idempotent = true;
  // Not owned; when set, a 2xx body is streamed to it instead of HttpResponse::body, and the
  // response-size cap limits::kMaxControllerResponseBytes does not apply to it, since nothing is
  // held; a streamed body is limited to limits::kMaxStreamedResponseBytes instead.
  BodySink* body_sink = nullptr;
};

// One HTTP response. Header names are lower-cased; repeated headers appear repeatedly.
struct HttpResponse {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  // The first header named `name` (lower case), or "" when absent.
  std::string Header(const std::string& name) const;
};

// Outcome of one exchange.
struct TransportResult {
  // OK when an HTTP response arrived (whatever its status). Otherwise: Cancelled, or
  // Unavailable (connection-level failure; `retryable`), FailedPrecondition (TLS verification
  // failed: fix the CA settings, not retryable), DeadlineExceeded (timed out; `retryable`),
  // ResourceExhausted (the answer is over the size cap, not retryable), Internal (anything
  // else). With HttpRequest::body_sink, also the sink's own error, as it returned it (not
  // retryable).
  absl::Status status;
  // The failure may clear by itself (connection refused/reset, timeout, TLS handshake error).
  bool retryable = false;
  // Some of the request left this process, so the server may have acted on it.
  bool maybe_sent = false;
  HttpResponse response;
};

// Performs HTTP exchanges. Implementations are thread-safe: the client calls Perform from any
// number of threads at once.
class Transport {
 public:
  virtual ~Transport() = default;

  // Performs one exchange. Never throws; blocks at most about request.timeout, and returns
  // Cancelled promptly once the transport's cancel flag is set.
  virtual TransportResult Perform(const HttpRequest& request) = 0;
};

// Makes the client's transport, on its first request: with `tls` (the client's CA settings) and
// `cancelled` (not owned, outlives the transport; true aborts in-flight exchanges). An error is
// the error of every request of that client.
using TransportFactory = std::function<absl::StatusOr<std::unique_ptr<Transport>>(
    TlsOptions tls, const std::atomic<bool>* cancelled)>;

}  // namespace nsxalb::controller

#endif  // NSXALB_PLUGIN_CONTROLLER_TRANSPORT_H_
