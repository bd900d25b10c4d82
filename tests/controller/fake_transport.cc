// Implementation of fake_transport.h.
#include "tests/controller/fake_transport.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace nsxalb::controller {
namespace {

// "https://host:port/api/x?y=1" -> "/api/x?y=1".
std::string PathOf(const std::string& url) {
  size_t scheme = url.find("://");
  size_t start = scheme == std::string::npos ? 0 : scheme + 3;
  size_t slash = url.find('/', start);
  return slash == std::string::npos ? "/" : url.substr(slash);
}

std::string Key(const std::string& method, const std::string& path) {
  return absl::StrCat(method, " ", path);
}

// One transport of the client's, answering from the fake's script.
class ScriptedTransport : public Transport {
 public:
  ScriptedTransport(FakeTransport* fake, const std::atomic<bool>* cancelled)
      : fake_(fake), cancelled_(cancelled) {}

  TransportResult Perform(const HttpRequest& request) override {
    if (cancelled_ != nullptr && cancelled_->load()) {
      return FakeTransport::Failure(absl::CancelledError("fake transport: cancelled"), false,
                                    false);
    }
    return fake_->Perform(request);
  }

 private:
  FakeTransport* const fake_;
  const std::atomic<bool>* const cancelled_;
};

}  // namespace

std::optional<std::string> FakeTransport::Request::Header(std::string_view name) const {
  for (const std::string& line : headers) {
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    if (absl::EqualsIgnoreCase(absl::string_view(line.data(), colon),
                               absl::string_view(name.data(), name.size()))) {
      return std::string(absl::StripAsciiWhitespace(absl::string_view(line).substr(colon + 1)));
    }
  }
  return std::nullopt;
}

TransportResult FakeTransport::Http(int status, std::string body,
                                    std::vector<std::pair<std::string, std::string>> headers) {
  TransportResult result;
  result.response.status = status;
  result.response.body = std::move(body);
  result.response.headers = std::move(headers);
  return result;
}

TransportResult FakeTransport::LoginAnswer(const std::string& csrf, const std::string& session,
                                           const std::string& version) {
  return Http(200, nlohmann::json{{"version", {{"Version", version}}}}.dump(),
              {{"set-cookie", absl::StrCat("csrftoken=", csrf, "; Path=/")},
               {"set-cookie", absl::StrCat("sessionid=", session, "; HttpOnly")}});
}

TransportResult FakeTransport::Failure(absl::Status status, bool retryable, bool maybe_sent) {
  TransportResult result;
  result.status = std::move(status);
  result.retryable = retryable;
  result.maybe_sent = maybe_sent;
  return result;
}

TransportResult FakeTransport::BrokenOff(int status, std::string partial_body,
                                         absl::Status failure) {
  TransportResult result = Failure(std::move(failure), true, true);
  result.response.status = status;
  result.response.body = std::move(partial_body);
  return result;
}

void FakeTransport::set_stream_chunk_bytes(size_t bytes) {
  absl::MutexLock lock(&mu_);
  stream_chunk_bytes_ = std::max<size_t>(1, bytes);
}

void FakeTransport::Queue(const std::string& method, const std::string& path,
                          TransportResult result) {
  absl::MutexLock lock(&mu_);
  scripts_[Key(method, path)].queued.push_back(std::move(result));
}

void FakeTransport::Always(const std::string& method, const std::string& path,
                           TransportResult result) {
  absl::MutexLock lock(&mu_);
  scripts_[Key(method, path)].always = std::move(result);
}

std::vector<FakeTransport::Request> FakeTransport::requests() const {
  absl::MutexLock lock(&mu_);
  return requests_;
}

std::vector<FakeTransport::Request> FakeTransport::requests(const std::string& method,
                                                            const std::string& path) const {
  absl::MutexLock lock(&mu_);
  std::vector<Request> out;
  for (const Request& r : requests_) {
    if (r.method == method && r.path == path) out.push_back(r);
  }
  return out;
}

std::vector<std::string> FakeTransport::unscripted() const {
  absl::MutexLock lock(&mu_);
  return unscripted_;
}

TlsOptions FakeTransport::tls() const {
  absl::MutexLock lock(&mu_);
  return tls_;
}

int FakeTransport::transports_made() const {
  absl::MutexLock lock(&mu_);
  return transports_made_;
}

TransportFactory FakeTransport::Factory() {
  return [this](TlsOptions tls,
                const std::atomic<bool>* cancelled) -> absl::StatusOr<std::unique_ptr<Transport>> {
    {
      absl::MutexLock lock(&mu_);
      tls_ = std::move(tls);
      ++transports_made_;
    }
    return std::make_unique<ScriptedTransport>(this, cancelled);
  };
}

TransportResult FakeTransport::Perform(const HttpRequest& request) {
  TransportResult result = Answer(request);
  const int code = result.response.status;
  if (request.body_sink != nullptr && code >= 200 && code < 300) {
    size_t chunk_bytes = 0;
    {
      absl::MutexLock lock(&mu_);
      chunk_bytes = stream_chunk_bytes_;
    }
    const std::string body = std::exchange(result.response.body, "");
    BodySink& sink = *request.body_sink;
    absl::Status sunk = sink.Begin();
    for (size_t at = 0; sunk.ok() && at < body.size(); at += chunk_bytes) {
      sunk = sink.Write(std::string_view(body).substr(at, chunk_bytes));
    }
    if (!sunk.ok()) return Failure(std::move(sunk), false, true);
  }
  // A broken-off answer: what had arrived is lost with the connection.
  if (!result.status.ok()) result.response = HttpResponse();
  return result;
}

TransportResult FakeTransport::Answer(const HttpRequest& request) {
  Request recorded{request.method, PathOf(request.url), request.headers, request.body,
                   request.idempotent};
  const std::string key = Key(recorded.method, recorded.path);
  absl::MutexLock lock(&mu_);
  requests_.push_back(std::move(recorded));
  auto it = scripts_.find(key);
  if (it != scripts_.end() && !it->second.queued.empty()) {
    TransportResult result = std::move(it->second.queued.front());
    it->second.queued.pop_front();
    return result;
  }
  if (it != scripts_.end() && it->second.always.has_value()) return *it->second.always;
  unscripted_.push_back(key);
  return Failure(absl::InternalError(absl::StrCat("fake transport: nothing scripted for ", key)),
                 false, false);
}

}  // namespace nsxalb::controller
