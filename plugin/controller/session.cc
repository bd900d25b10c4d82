#include "plugin/controller/session.h"

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "plugin/common/log.h"
#include "plugin/common/status_macros.h"
#include "plugin/controller/errors.h"
#include "plugin/controller/response.h"

namespace nsxalb::controller::internal {

using Json = nlohmann::json;

SessionKeeper::SessionKeeper(const ClientConfig& config, const Endpoint& endpoint,
                             std::optional<ApiVersion> configured,
                             const std::atomic<bool>& cancelled)
    : config_(config),
      endpoint_(endpoint),
      configured_version_(std::move(configured)),
      cancelled_(cancelled) {}

bool SessionKeeper::FlightDone(FlightWait* w) {
  return w->self->flights_done_ >= w->flight || w->self->cancelled_.load();
}

absl::StatusOr<std::shared_ptr<const Session>> SessionKeeper::Ensure(absl::Time deadline) {
  mu_.Lock();
  while (true) {
    if (session_ != nullptr) {
      std::shared_ptr<const Session> s = session_;
      mu_.Unlock();
      return s;
    }
    if (cancelled_.load()) {
      mu_.Unlock();
      return absl::CancelledError("controller: login: cancelled");
    }
    if (!login_in_flight_) break;
    FlightWait wait{this, flights_started_};
    mu_.Await(absl::Condition(&SessionKeeper::FlightDone, &wait));
    if (session_ == nullptr && flights_done_ >= wait.flight && !cancelled_.load() &&
        !last_login_error_.ok()) {
      absl::Status error = last_login_error_;
      mu_.Unlock();
      return error;
    }
  }
  login_in_flight_ = true;
  uint64_t flight = ++flights_started_;
  mu_.Unlock();
  auto result = Login(deadline);
  mu_.Lock();
  login_in_flight_ = false;
  flights_done_ = flight;
  std::shared_ptr<const Session> out;
  if (result.ok()) {
    (*result)->generation = ++generation_;
    session_ = *result;
    last_login_error_ = absl::OkStatus();
    out = session_;
  } else {
    last_login_error_ = result.status();
  }
  mu_.Unlock();
  if (!result.ok()) return result.status();
  return out;
}

void SessionKeeper::Drop(uint64_t generation) {
  absl::MutexLock lock(&mu_);
  if (session_ != nullptr && session_->generation == generation) session_.reset();
}

std::shared_ptr<const Session> SessionKeeper::Take() {
  absl::MutexLock lock(&mu_);
  std::shared_ptr<const Session> session = std::move(session_);
  session_.reset();
  return session;
}

void SessionKeeper::WakeWaiters() {
  absl::MutexLock lock(&mu_);  // conditions are re-checked on unlock
}

absl::StatusOr<std::shared_ptr<Session>> SessionKeeper::Login(absl::Time deadline) {
  Json body = {{"username", config_.username}};
  if (!config_.password.empty()) {
    body["password"] = config_.password;
  } else {
    body["token"] = config_.auth_token;
  }
  Call call;
  call.method = "POST";
  call.path = "/login";
  call.what = absl::StrCat("login to ", endpoint_.base_url, " as ", config_.username);
  call.body = Dump(body);
  call.has_body = true;
  call.with_session = false;
  auto response = send_(call, deadline);
  if (!response.ok()) {
    if (HttpStatusOf(response.status()) == 401) {
      const absl::Status rejected =
          WithSetupProblem(response.status(), SetupProblem::kLoginRejected);
      return WithRemedy(rejected,
                        SetupRemedy(SetupProblem::kLoginRejected, endpoint_, config_.username));
    }
    return response.status();
  }
  NSXALB_ASSIGN_OR_RETURN(auto answer, ParseLoginResponse(*response, call.what));
  auto session = std::make_shared<Session>();
  session->cookie_header = std::move(answer.cookie_header);
  session->csrf_token = std::move(answer.csrf_token);
  const std::string& version_text = answer.version_text;
  if (version_text.empty()) {
    if (!configured_version_.has_value()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "controller: ", call.what,
          ": the login response does not say the Controller's version; set api_version"));
    }
    session->controller_version = *configured_version_;
  } else {
    auto parsed = ApiVersion::Parse(version_text);
    if (!parsed.ok()) {
      return absl::InternalError(absl::StrCat("controller: ", call.what,
                                              ": Controller version: ", parsed.status().message()));
    }
    session->controller_version = *parsed;
  }
  if (configured_version_.has_value()) {
    if (*configured_version_ > session->controller_version) {
      return absl::FailedPreconditionError(absl::StrCat(
          "controller: api_version ", configured_version_->ToString(),
          " is newer than the Controller's version ", session->controller_version.ToString(),
          "; set api_version to ", session->controller_version.ToString(),
          " or lower, or leave it empty to use the Controller's version"));
    }
    session->api_version = *configured_version_;
  } else {
    session->api_version = session->controller_version;
  }
  log::Info(absl::StrCat("controller: logged in to ", endpoint_.base_url, " as ", config_.username,
                         "; Controller version ", session->controller_version.ToString(),
                         ", API version ", session->api_version.ToString()));
  return session;
}

}  // namespace nsxalb::controller::internal
