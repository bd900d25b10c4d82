#include "plugin/controller/request_loop.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "plugin/common/log.h"
#include "plugin/common/status_macros.h"
#include "plugin/controller/errors.h"
#include "plugin/controller/refs.h"

namespace nsxalb::controller::internal {
namespace {

constexpr absl::Duration kLogoutTimeout = absl::Seconds(2);

absl::Status Cancelled(absl::string_view what) {
  return absl::CancelledError(absl::StrCat("controller: ", what, ": cancelled"));
}

absl::Status CopyPayloads(const absl::Status& from, absl::StatusCode code) {
  absl::Status out(code, from.message());
  from.ForEachPayload(
      [&out](absl::string_view url, const absl::Cord& payload) { out.SetPayload(url, payload); });
  return out;
}

}  // namespace

RequestLoop::RequestLoop(ClientConfig config, Endpoint endpoint,
                         std::optional<ApiVersion> configured, Clock* clock, JitterSource jitter,
                         TransportFactory make_transport)
    : config_(std::move(config)),
      endpoint_(std::move(endpoint)),
      clock_(clock),
      jitter_(std::move(jitter)),
      make_transport_(std::move(make_transport)),
      sessions_(config_, endpoint_, std::move(configured), cancelled_) {
  sessions_.SetSender(
      [this](const Call& call, absl::Time deadline) { return Send(call, deadline); });
}

RequestLoop::~RequestLoop() { Logout(); }

void RequestLoop::Cancel() {
  if (cancelled_.exchange(true)) return;
  cancel_note_.Notify();
  sessions_.WakeWaiters();
}

absl::StatusOr<Transport*> RequestLoop::GetTransport() {
  absl::MutexLock lock(&transport_mu_);
  if (transport_ == nullptr && transport_error_.ok()) {
    TlsOptions tls{config_.ca_file, config_.ca_pem, config_.insecure};
    auto t = make_transport_(std::move(tls), &cancelled_);
    if (t.ok()) {
      transport_ = *std::move(t);
    } else {
      transport_error_ = t.status();
    }
  }
  if (transport_ == nullptr) return transport_error_;
  return transport_.get();
}

absl::StatusOr<std::string> RequestLoop::TenantHeader(std::string_view tenant) const {
  std::string_view t = tenant.empty() ? std::string_view(config_.tenant) : tenant;
  NSXALB_ASSIGN_OR_RETURN(auto ref, ParseRef(t, "tenant", "tenant"));
  if (!ref.name.empty()) return absl::StrCat("X-Avi-Tenant: ", ref.name);
  return absl::StrCat("X-Avi-Tenant-UUID: ", ref.uuid);
}

std::string RequestLoop::Referer() const {
  return absl::StrCat("Referer: ", endpoint_.base_url, "/");
}

// Removes the password and token from `text`, should a Controller ever echo them.
std::string RequestLoop::Redact(std::string text) const {
  for (const std::string* secret : {&config_.password, &config_.auth_token}) {
    if (secret->size() >= 3) absl::StrReplaceAll({{*secret, "<redacted>"}}, &text);
  }
  return text;
}

absl::StatusOr<HttpResponse> RequestLoop::Send(const Call& call, absl::Time deadline) {
  auto result = SendLoop(call, deadline);
  if (result.ok()) return result;
  absl::Status status = WithAdvice(result.status());
  std::string message(status.message());
  std::string redacted = Redact(message);
  if (redacted == message) return status;
  return WithMessage(status, redacted);
}

// `status` with what to do about it, when it is a set-up problem.
absl::Status RequestLoop::WithAdvice(const absl::Status& status) const {
  const SetupProblem problem = SetupProblemOf(status);
  if (problem == SetupProblem::kNone) return status;
  return WithRemedy(status, SetupRemedy(problem, endpoint_, config_.username));
}

absl::StatusOr<HttpResponse> RequestLoop::SendLoop(const Call& call, absl::Time deadline) {
  bool relogged = false;
  int retry = 0;
  while (true) {
    if (cancelled_.load()) return Cancelled(call.what);
    std::shared_ptr<const Session> session;
    if (call.with_session) {
      NSXALB_ASSIGN_OR_RETURN(auto s, sessions_.Ensure(deadline));
      session = std::move(s);
    }
    absl::Duration left = deadline - clock_->Now();
    if (left <= absl::ZeroDuration()) {
      return absl::DeadlineExceededError(
          absl::StrCat("controller: ", call.what, ": total_timeout (",
                       absl::FormatDuration(config_.total_timeout), ") ran out"));
    }
    HttpRequest request;
    request.method = call.method;
    request.url = endpoint_.base_url + call.path;
    request.timeout = std::min(config_.request_timeout, left);
    request.idempotent = call.idempotent;
    request.body_sink = call.body_sink;
    request.headers.push_back("Accept: application/json");
    request.headers.push_back(Referer());
    if (call.has_body) {
      request.headers.push_back("Content-Type: application/json");
      request.body = call.body;
    }
    if (session != nullptr) {
      NSXALB_ASSIGN_OR_RETURN(auto tenant, TenantHeader(call.tenant));
      request.headers.push_back(std::move(tenant));
      request.headers.push_back(absl::StrCat("X-Avi-Version: ", session->api_version.ToString()));
      if (!session->csrf_token.empty()) {
        request.headers.push_back(absl::StrCat("X-CSRFToken: ", session->csrf_token));
      }
      if (!session->cookie_header.empty()) request.headers.push_back(session->cookie_header);
    }
    NSXALB_ASSIGN_OR_RETURN(Transport * transport, GetTransport());
    TransportResult r = transport->Perform(request);

    absl::Status failure;
    std::optional<absl::Duration> retry_after;
    bool ambiguous = false;
    bool retryable = true;
    if (!r.status.ok()) {
      if (r.status.code() == absl::StatusCode::kCancelled) {
        absl::Status cancelled = Cancelled(call.what);
        return !call.idempotent && r.maybe_sent ? MarkMayHaveTakenEffect(cancelled) : cancelled;
      }
      failure = r.status;
      ambiguous = r.maybe_sent;
      retryable = r.retryable;
      // A failure that retrying cannot cure (such as an answer over the size cap) still
      // leaves a sent create's outcome unknown: look for it below, then give up.
      if (!retryable && (!ambiguous || call.idempotent)) return failure;
    } else {
      int code = r.response.status;
      log::Debug(absl::StrCat("controller: ", call.what, " -> HTTP ", code));
      if (code >= 200 && code < 300) return std::move(r.response);
      if ((code == 401 || code == 419) && session != nullptr && !relogged) {
        relogged = true;
        log::Info(absl::StrCat("controller: ", call.what, ": HTTP ", code,
                               " (session expired or rejected); logging in again"));
        sessions_.Drop(session->generation);
        continue;
      }
      failure = HttpError(code, call.what, r.response.body);
      if (code == 429 || code == 502 || code == 503 || code == 504) {
        ambiguous = code != 429;
        retry_after = ParseRetryAfter(r.response.Header("retry-after"), clock_->Now());
      } else {
        return failure;
      }
    }
    if (ambiguous && !call.idempotent) {
      if (!call.find_outcome) {
        return MarkMayHaveTakenEffect(WithMessage(
            failure, absl::StrCat(failure.message(), " (the request may have taken effect)")));
      }
      auto found = call.find_outcome();
      if (!found.ok()) {
        if (found.status().code() == absl::StatusCode::kCancelled) {
          return MarkMayHaveTakenEffect(found.status());
        }
        return MarkMayHaveTakenEffect(
            WithMessage(found.status(),
                        absl::StrCat(found.status().message(), " (while checking whether ",
                                     call.what, " took effect after: ", failure.message(), ")")));
      }
      if (found->has_value()) {
        HttpResponse synthesized;
        synthesized.status = 200;
        synthesized.body = Dump(**found);
        return synthesized;
      }
    }
    if (!retryable) return failure;
    if (retry >= config_.max_retries) {
      absl::Status out =
          WithMessage(failure, absl::StrCat(failure.message(), " (gave up after ", retry + 1,
                                            retry == 0 ? " attempt)" : " attempts)"));
      return CopyPayloads(out, absl::StatusCode::kUnavailable);
    }
    absl::Duration delay =
        retry_after.has_value()
            ? *retry_after
            : BackoffDelay(config_.backoff_initial, config_.backoff_max, retry, jitter_());
    if (clock_->Now() + delay > deadline) {
      return CopyPayloads(
          WithMessage(failure, absl::StrCat(failure.message(),
                                            " (no time left to retry within "
                                            "total_timeout ",
                                            absl::FormatDuration(config_.total_timeout), ")")),
          absl::StatusCode::kDeadlineExceeded);
    }
    log::Warn(absl::StrCat(Redact(std::string(failure.message())), "; retry ", retry + 1, " of ",
                           config_.max_retries, " in ", absl::FormatDuration(delay)));
    if (!clock_->SleepFor(delay, cancel_note_)) return Cancelled(call.what);
    ++retry;
  }
}

// Ends the session on the Controller, best effort, so it does not linger until its idle
// timeout.
void RequestLoop::Logout() {
  std::shared_ptr<const Session> session = sessions_.Take();
  Transport* transport = nullptr;
  {
    absl::MutexLock lock(&transport_mu_);
    transport = transport_.get();
  }
  if (session == nullptr || cancelled_.load() || transport == nullptr) return;
  HttpRequest request;
  request.method = "POST";
  request.url = endpoint_.base_url + "/logout";
  request.timeout = kLogoutTimeout;
  request.headers = {"Accept: application/json", Referer(),
                     absl::StrCat("X-Avi-Version: ", session->api_version.ToString()),
                     absl::StrCat("X-CSRFToken: ", session->csrf_token), session->cookie_header};
  TransportResult r = transport->Perform(request);
  if (!r.status.ok()) log::Debug(absl::StrCat("controller: logout: ", r.status.message()));
}

}  // namespace nsxalb::controller::internal
