// Implementation of curl_transport.h.
#include "plugin/controller/curl_transport.h"

#include <curl/curl.h>

#include <algorithm>
#include <array>
#include <mutex>
#include <string>
#include <string_view>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "plugin/common/build_info.h"
#include "plugin/common/limits.h"
#include "plugin/common/status_macros.h"
#include "plugin/controller/curl_library.h"
#include "plugin/controller/errors.h"

namespace nsxalb::controller {
namespace {

constexpr size_t kMaxIdleHandles = 32;
constexpr absl::Duration kMaxConnectTimeout = absl::Seconds(15);

struct Transfer {
  HttpResponse* response = nullptr;
  const std::atomic<bool>* cancelled = nullptr;
  // For a streamed body (HttpRequest::body_sink): the sink, the handle whose response code says
  // whether the body is a 2xx one, whether the sink saw Begin(), the bytes it was given, and its
  // error when it refused a chunk.
  BodySink* sink = nullptr;
  const CurlLibrary* lib = nullptr;
  CURL* curl = nullptr;
  bool sink_begun = false;
  size_t streamed = 0;
  absl::Status sink_status;
  // The body went over its cap (limits::kMaxControllerResponseBytes, or
  // limits::kMaxStreamedResponseBytes when streamed).
  bool too_large = false;
  // Requests started on a connection (OnPrerequest calls), and whether a second was refused.
  int sends = 0;
  bool resend_refused = false;

  // Whether the response being received is a 2xx one going to the sink. Headers have arrived by
  // the time libcurl hands over body bytes, so its response code is the final one (no
  // redirects are followed and "Expect: 100-continue" is never sent).
  bool Streams() const {
    if (sink == nullptr) return false;
    long code = 0;
    lib->easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
    return code >= 200 && code < 300;
  }

  // Begin() once per transfer, before the sink's first chunk. False (and the error kept) when
  // the sink refuses.
  bool BeginOnce() {
    if (sink_begun) return true;
    sink_begun = true;
    sink_status = sink->Begin();
    return sink_status.ok();
  }
};

// A 2xx body with a sink goes to the sink, chunk by chunk; any other body is collected in the
// response. Returning anything but `bytes` makes libcurl abort with CURLE_WRITE_ERROR.
size_t OnBody(char* data, size_t size, size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  size_t bytes = size * n;
  if (t->Streams()) {
    if (!t->BeginOnce()) return 0;
    if (t->streamed + bytes > limits::kMaxStreamedResponseBytes) {
      t->too_large = true;
      return 0;
    }
    t->sink_status = t->sink->Write(std::string_view(data, bytes));
    if (!t->sink_status.ok()) return 0;
    t->streamed += bytes;
    return bytes;
  }
  if (t->response->body.size() + bytes > limits::kMaxControllerResponseBytes) {
    t->too_large = true;
    return 0;
  }
  t->response->body.append(data, bytes);
  return bytes;
}

size_t OnHeader(char* data, size_t size, size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  size_t bytes = size * n;
  std::string line(data, bytes);
  if (absl::StartsWith(line, "HTTP/")) {
    t->response->headers.clear();  // a new response (e.g. after 100 Continue)
    return bytes;
  }
  size_t colon = line.find(':');
  if (colon == std::string::npos) return bytes;
  std::string name = absl::AsciiStrToLower(line.substr(0, colon));
  std::string value(absl::StripAsciiWhitespace(line.substr(colon + 1)));
  t->response->headers.emplace_back(std::move(name), std::move(value));
  return bytes;
}

// Called by libcurl with a connection ready, before it sends the request: once, unless libcurl
// retries on a new connection after a kept-alive one died. For a non-idempotent request that
// retry is refused (see HttpRequest::idempotent).
int OnPrerequest(void* user, char*, char*, int, int) {
  auto* t = static_cast<Transfer*>(user);
  if (t->sends++ == 0) return CURL_PREREQFUNC_OK;
  t->resend_refused = true;
  return CURL_PREREQFUNC_ABORT;
}

int OnProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* t = static_cast<Transfer*>(user);
  return t->cancelled != nullptr && t->cancelled->load() ? 1 : 0;
}

bool IsTlsVerificationError(CURLcode code) {
  switch (code) {
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
      return true;
    default:
      return false;
  }
}

bool IsRetryable(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return true;
    default:
      return false;
  }
}

}  // namespace

// libcurl (loaded on first use, see curl_library.h), the CURLSH and one mutex per shared data kind.
struct CurlTransport::Share {
  const CurlLibrary* curl = nullptr;
  CURLSH* handle = nullptr;
  std::array<std::mutex, CURL_LOCK_DATA_LAST + 1> locks;

  static void Lock(CURL*, curl_lock_data data, curl_lock_access, void* user) {
    static_cast<Share*>(user)->locks[std::min<int>(data, CURL_LOCK_DATA_LAST)].lock();
  }
  static void Unlock(CURL*, curl_lock_data data, void* user) {
    static_cast<Share*>(user)->locks[std::min<int>(data, CURL_LOCK_DATA_LAST)].unlock();
  }
};

CurlTransport::CurlTransport(TlsOptions tls, const std::atomic<bool>* cancelled)
    : tls_(std::move(tls)), cancelled_(cancelled), share_(std::make_unique<Share>()) {}

absl::StatusOr<std::unique_ptr<CurlTransport>> CurlTransport::Create(
    TlsOptions tls, const std::atomic<bool>* cancelled) {
  NSXALB_ASSIGN_OR_RETURN(const CurlLibrary* curl, LoadCurl());
  std::unique_ptr<CurlTransport> t(new CurlTransport(std::move(tls), cancelled));
  t->share_->curl = curl;
  CURLSH* sh = curl->share_init();
  if (sh == nullptr) return absl::InternalError("controller: curl_share_init failed");
  t->share_->handle = sh;
  curl->share_setopt(sh, CURLSHOPT_LOCKFUNC, &Share::Lock);
  curl->share_setopt(sh, CURLSHOPT_UNLOCKFUNC, &Share::Unlock);
  curl->share_setopt(sh, CURLSHOPT_USERDATA, t->share_.get());
  curl->share_setopt(sh, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
  curl->share_setopt(sh, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
  return t;
}

TransportFactory CurlTransportFactory() {
  return [](TlsOptions tls,
            const std::atomic<bool>* cancelled) -> absl::StatusOr<std::unique_ptr<Transport>> {
    return CurlTransport::Create(std::move(tls), cancelled);
  };
}

CurlTransport::~CurlTransport() {
  {
    absl::MutexLock lock(&pool_mu_);
    for (void* h : idle_) share_->curl->easy_cleanup(static_cast<CURL*>(h));
    idle_.clear();
  }
  if (share_->handle != nullptr) share_->curl->share_cleanup(share_->handle);
}

void* CurlTransport::Acquire() {
  {
    absl::MutexLock lock(&pool_mu_);
    if (!idle_.empty()) {
      void* h = idle_.back();
      idle_.pop_back();
      return h;
    }
  }
  return share_->curl->easy_init();
}

void CurlTransport::Release(void* handle) {
  absl::MutexLock lock(&pool_mu_);
  if (idle_.size() < kMaxIdleHandles) {
    idle_.push_back(handle);
  } else {
    share_->curl->easy_cleanup(static_cast<CURL*>(handle));
  }
}

TransportResult CurlTransport::Perform(const HttpRequest& request) {
  TransportResult result;
  if (cancelled_ != nullptr && cancelled_->load()) {
    result.status = absl::CancelledError("controller: operation cancelled");
    return result;
  }
  const CurlLibrary& lib = *share_->curl;
  CURL* curl = static_cast<CURL*>(Acquire());
  if (curl == nullptr) {
    result.status = absl::InternalError("controller: curl_easy_init failed");
    return result;
  }
  lib.easy_reset(curl);
  Transfer transfer;
  transfer.response = &result.response;
  transfer.cancelled = cancelled_;
  transfer.sink = request.body_sink;
  transfer.lib = &lib;
  transfer.curl = curl;
  char errbuf[CURL_ERROR_SIZE] = {0};
  curl_slist* headers = nullptr;
  for (const std::string& h : request.headers) headers = lib.slist_append(headers, h.c_str());
  headers = lib.slist_append(headers, "Expect:");

  long timeout_ms =
      static_cast<long>(std::max<int64_t>(1, absl::ToInt64Milliseconds(request.timeout)));
  long connect_ms = static_cast<long>(
      std::min<int64_t>(timeout_ms, absl::ToInt64Milliseconds(kMaxConnectTimeout)));

  lib.easy_setopt(curl, CURLOPT_SHARE, share_->handle);
  lib.easy_setopt(curl, CURLOPT_URL, request.url.c_str());
  lib.easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "https");
  lib.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  lib.easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout_ms);
  lib.easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, connect_ms);
  lib.easy_setopt(curl, CURLOPT_TCP_KEEPALIVE, 1L);
  lib.easy_setopt(curl, CURLOPT_USERAGENT, build_info::kUserAgent);
  if (!request.idempotent &&
      (lib.easy_setopt(curl, CURLOPT_PREREQFUNCTION, &OnPrerequest) != CURLE_OK ||
       lib.easy_setopt(curl, CURLOPT_PREREQDATA, &transfer) != CURLE_OK)) {
    lib.easy_setopt(curl, CURLOPT_FRESH_CONNECT, 1L);  // libcurl < 7.80
  }
  lib.easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  lib.easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
  lib.easy_setopt(curl, CURLOPT_WRITEFUNCTION, &OnBody);
  lib.easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
  lib.easy_setopt(curl, CURLOPT_HEADERFUNCTION, &OnHeader);
  lib.easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
  lib.easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  lib.easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, &OnProgress);
  lib.easy_setopt(curl, CURLOPT_XFERINFODATA, &transfer);
  // gzip only: every Controller's web server speaks it, and it is cheap on both ends (brotli at
  // its default level costs a server milliseconds per SE group object).
  lib.easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "gzip");
  if (tls_.insecure) {
    lib.easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
    lib.easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
  } else {
    lib.easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 1L);
    lib.easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 2L);
    if (!tls_.ca_file.empty()) lib.easy_setopt(curl, CURLOPT_CAINFO, tls_.ca_file.c_str());
    if (!tls_.ca_pem.empty()) {
      curl_blob blob{const_cast<char*>(tls_.ca_pem.data()), tls_.ca_pem.size(), CURL_BLOB_COPY};
      lib.easy_setopt(curl, CURLOPT_CAINFO_BLOB, &blob);
    }
  }
  if (request.method == "GET") {
    lib.easy_setopt(curl, CURLOPT_HTTPGET, 1L);
  } else if (request.method == "POST") {
    lib.easy_setopt(curl, CURLOPT_POST, 1L);
  } else {
    lib.easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  }
  if (request.method == "POST" || request.method == "PUT" || !request.body.empty()) {
    lib.easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
    lib.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                    static_cast<curl_off_t>(request.body.size()));
  }

  CURLcode code = lib.easy_perform(curl);
  long http_status = 0;
  lib.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &http_status);
  long request_size = 0;
  lib.easy_getinfo(curl, CURLINFO_REQUEST_SIZE, &request_size);
  lib.easy_setopt(curl, CURLOPT_HTTPHEADER, nullptr);
  lib.easy_setopt(curl, CURLOPT_ERRORBUFFER, nullptr);
  lib.slist_free_all(headers);

  if (code == CURLE_OK) {
    result.response.status = static_cast<int>(http_status);
    // A 2xx answer without a body: the sink still sees it start.
    if (transfer.Streams() && !transfer.BeginOnce()) {
      result.status = transfer.sink_status;
      result.maybe_sent = true;
    }
    Release(curl);
    return result;
  }
  // A failed handle may hold a broken connection; don't pool it.
  lib.easy_cleanup(curl);
  result.response = HttpResponse();
  std::string detail = errbuf[0] != '\0' ? std::string(errbuf) : lib.easy_strerror(code);
  std::string where = absl::StrCat(request.method, " ", request.url);
  // Whatever failed, the server may have acted on a request that left (for an answer over the
  // size cap, it surely did).
  result.maybe_sent = request_size > 0;
  if (code == CURLE_ABORTED_BY_CALLBACK && cancelled_ != nullptr && cancelled_->load()) {
    result.status = absl::CancelledError(absl::StrCat("controller: ", where, ": cancelled"));
    result.maybe_sent = request_size > 0;
    return result;
  }
  if (code == CURLE_ABORTED_BY_CALLBACK && transfer.resend_refused) {
    result.status = absl::UnavailableError(
        absl::StrCat("controller: ", where,
                     ": the kept-alive connection closed without an answer (not resent)"));
    result.retryable = true;
    result.maybe_sent = true;
    return result;
  }
  if (code == CURLE_WRITE_ERROR && !transfer.sink_status.ok()) {
    // The sink refused the body: its error, as it gave it. Not retried.
    result.status = transfer.sink_status;
    return result;
  }
  if (code == CURLE_WRITE_ERROR && transfer.too_large) {
    // Not retried: the same request would bring the same body. (A sink sees Begin() before the
    // cap is checked, so sink_begun tells a streamed body from a collected one.)
    const bool streamed = transfer.sink_begun;
    result.status = absl::ResourceExhaustedError(absl::StrCat(
        "controller: ", where, ": HTTP ", http_status, ": the response is larger than ",
        (streamed ? limits::kMaxStreamedResponseBytes : limits::kMaxControllerResponseBytes) >> 20,
        streamed ? " MiB, the most the provider streams" : " MiB, the most the provider reads"));
    return result;
  }
  if (IsTlsVerificationError(code)) {
    result.status = WithSetupProblem(
        absl::FailedPreconditionError(absl::StrCat(
            "controller: ", where, ": TLS verification of the Controller's certificate failed (",
            detail, ")")),
        SetupProblem::kUntrustedCertificate);
    return result;
  }
  result.maybe_sent = request_size > 0;
  result.retryable = IsRetryable(code);
  if (code == CURLE_OPERATION_TIMEDOUT) {
    result.status =
        absl::DeadlineExceededError(absl::StrCat("controller: ", where, ": timed out: ", detail));
  } else if (result.retryable) {
    result.status = absl::UnavailableError(absl::StrCat("controller: ", where, ": ", detail));
    // Nothing answered: a wrong address or port, a name that does not resolve, or a Controller
    // that is down.
    if (code == CURLE_COULDNT_RESOLVE_HOST || code == CURLE_COULDNT_CONNECT) {
      result.status = WithSetupProblem(result.status, SetupProblem::kUnreachable);
    }
  } else {
    result.status = absl::InternalError(absl::StrCat("controller: ", where, ": ", detail));
  }
  return result;
}

}  // namespace nsxalb::controller
