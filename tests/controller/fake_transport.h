// A scripted Transport (plugin/controller/transport.h) for the Controller client's unit tests:
// the test queues the answers to each request ("METHOD path"), the client runs against them
// through ClientHooks::transport, and the test reads back every request the client sent
// (method, path, headers, body). No sockets, no TLS, no wall clock: with a FakeClock
// (fake_clock.h) the session, retry and paging logic run in microseconds. A request with a body
// sink (HttpRequest::body_sink) gets a 2xx body as the curl transport gives it: Begin(), then
// the body in chunks of stream_chunk_bytes; a sink error is the exchange's error. Thread-safe.
#ifndef NSXALB_TESTS_CONTROLLER_FAKE_TRANSPORT_H_
#define NSXALB_TESTS_CONTROLLER_FAKE_TRANSPORT_H_

#include <cstddef>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "plugin/controller/transport.h"

namespace nsxalb::controller {

// The script of answers, and the record of requests, of one fake Controller.
class FakeTransport {
 public:
  // One request as the client sent it.
  struct Request {
    std::string method;
    std::string path;  // the URL after the host: path and query ("/api/cloud?name=x")
    std::vector<std::string> headers;
    std::string body;
    bool idempotent = true;

    // The value of the first header called `name` (any case), or nullopt when there is none.
    std::optional<std::string> Header(std::string_view name) const;
  };

  // An HTTP answer of `status` with `body` and `headers` (names in lower case, as a transport
  // gives them).
  static TransportResult Http(int status, std::string body = "",
                              std::vector<std::pair<std::string, std::string>> headers = {});

  // The answer to a successful POST /login: the session cookies (csrftoken=`csrf`,
  // sessionid=`session`) and the Controller's `version`.
  static TransportResult LoginAnswer(const std::string& csrf = "c",
                                     const std::string& session = "s",
                                     const std::string& version = "22.1.3");

  // A transport failure: no HTTP answer, `status` (not OK) and its flags.
  static TransportResult Failure(absl::Status status, bool retryable, bool maybe_sent);

  // An answer that breaks off: an HTTP `status` answer whose body had come as far as
  // `partial_body` when the connection failed with `failure` (retryable, maybe sent). A body sink
  // sees the partial body first; without one it is lost, as with a real transport.
  static TransportResult BrokenOff(int status, std::string partial_body, absl::Status failure);

  // The size of the chunks a body sink is given (1024 until set; at least 1).
  void set_stream_chunk_bytes(size_t bytes);

  // Queues `result` as the answer to the next `method` request to `path` (exactly, with its
  // query). The answers queued for one request are given in order, each once.
  void Queue(const std::string& method, const std::string& path, TransportResult result);

  // Answers every `method` request to `path` with `result` once its queue is empty.
  void Always(const std::string& method, const std::string& path, TransportResult result);

  // Every request so far, in the order they were sent.
  std::vector<Request> requests() const;

  // The requests so far of `method` to `path`.
  std::vector<Request> requests(const std::string& method, const std::string& path) const;

  // "METHOD path" of every request that found no answer (it was answered Internal, "nothing
  // scripted").
  std::vector<std::string> unscripted() const;

  // The TLS settings of the last transport Factory() made.
  TlsOptions tls() const;

  // Transports made so far by Factory().
  int transports_made() const;

  // A TransportFactory (ClientHooks::transport) whose transports answer from this script; this
  // FakeTransport must outlive them (the client's logout at its end goes through it too). A
  // transport whose cancel flag is set answers Cancelled, as a real one does.
  TransportFactory Factory();

  // The answer to `request`, and records it; a 2xx body goes to request.body_sink when set.
  // What Factory()'s transports call.
  TransportResult Perform(const HttpRequest& request);

 private:
  // The scripted answer to `request`, and records it.
  TransportResult Answer(const HttpRequest& request);

  struct Script {
    std::deque<TransportResult> queued;
    std::optional<TransportResult> always;
  };

  mutable absl::Mutex mu_;
  std::map<std::string, Script> scripts_ ABSL_GUARDED_BY(mu_);  // by "METHOD path"
  std::vector<Request> requests_ ABSL_GUARDED_BY(mu_);
  std::vector<std::string> unscripted_ ABSL_GUARDED_BY(mu_);
  TlsOptions tls_ ABSL_GUARDED_BY(mu_);
  int transports_made_ ABSL_GUARDED_BY(mu_) = 0;
  size_t stream_chunk_bytes_ ABSL_GUARDED_BY(mu_) = 1024;
};

}  // namespace nsxalb::controller

#endif  // NSXALB_TESTS_CONTROLLER_FAKE_TRANSPORT_H_
