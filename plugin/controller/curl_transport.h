// The product's Transport (transport.h): HTTPS exchanges through libcurl, one request in, one
// response (or a classified failure) out.
//
// Thread-safe. Easy handles are pooled (last used, first reused) so kept-alive TLS connections
// are reused across calls and threads; DNS results and TLS sessions are shared through one CURLSH.
// Requests abort promptly (CURLE_ABORTED_BY_CALLBACK) when the cancel flag is set. Used only by
// the Controller client; it knows nothing of sessions or retries.
#ifndef NSXALB_PLUGIN_CONTROLLER_CURL_TRANSPORT_H_
#define NSXALB_PLUGIN_CONTROLLER_CURL_TRANSPORT_H_

#include <atomic>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "plugin/controller/transport.h"

namespace nsxalb::controller {

// The libcurl transport.
class CurlTransport : public Transport {
 public:
  // Sets up the share and TLS settings; `cancelled` (not owned, outlives the transport) aborts
  // in-flight transfers when it becomes true.
  static absl::StatusOr<std::unique_ptr<CurlTransport>> Create(TlsOptions tls,
                                                               const std::atomic<bool>* cancelled);
  ~CurlTransport() override;

  CurlTransport(const CurlTransport&) = delete;
  CurlTransport& operator=(const CurlTransport&) = delete;

  // Performs one exchange. Never throws; blocks at most about request.timeout.
  TransportResult Perform(const HttpRequest& request) override;

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

// The client's default TransportFactory (ClientHooks::transport): CurlTransport::Create.
TransportFactory CurlTransportFactory();

}  // namespace nsxalb::controller

#endif  // NSXALB_PLUGIN_CONTROLLER_CURL_TRANSPORT_H_
