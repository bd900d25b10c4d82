// HTTPS exchanges through libcurl: one request in, one response (or a classified failure) out.
//
// Thread-safe. Easy handles are pooled (last used, first reused) so kept-alive TLS connections
// are reused across calls and threads; DNS results and TLS sessions are shared through one CURLSH.
// Requests abort promptly (CURLE_ABORTED_BY_CALLBACK) when the cancel flag is set. Used only by
// the Controller client; it knows nothing of sessions or retries.
#ifndef NSXALB_PLUGIN_CONTROLLER_CURL_TRANSPORT_H_
#define NSXALB_PLUGIN_CONTROLLER_CURL_TRANSPORT_H_

#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace nsxalb::controller {

// TLS settings (see ClientConfig).
struct TlsOptions {
  std::string ca_file;
  std::string ca_pem;
  bool insecure = false;
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
  // Internal (anything else).
  absl::Status status;
  // The failure may clear by itself (connection refused/reset, timeout, TLS handshake error).
  bool retryable = false;
  // Some of the request left this process, so the server may have acted on it.
  bool maybe_sent = false;
  HttpResponse response;
};

// The libcurl transport.
class CurlTransport {
 public:
  // Sets up the share and TLS settings; `cancelled` (not owned, outlives the transport) aborts
  // in-flight transfers when it becomes true.
  static absl::StatusOr<std::unique_ptr<CurlTransport>> Create(TlsOptions tls,
                                                               const std::atomic<bool>* cancelled);
  ~CurlTransport();

  CurlTransport(const CurlTransport&) = delete;
  CurlTransport& operator=(const CurlTransport&) = delete;

  // Performs one exchange. Never throws; blocks at most about request.timeout.
  TransportResult Perform(const HttpRequest& request);

 private:
  struct Share;
  CurlTransport(TlsOptions tls, const std::atomic<bool>* cancelled);
  void* Acquire();
  void Release(void* handle);

  TlsOptions tls_;
  const std::atomic<bool>* cancelled_;
  std::unique_ptr<Share> share_;
  absl::Mutex pool_mu_;
  std::vector<void*> idle_ ABSL_GUARDED_BY(pool_mu_);
};

}  // namespace nsxalb::controller

#endif  // NSXALB_PLUGIN_CONTROLLER_CURL_TRANSPORT_H_
