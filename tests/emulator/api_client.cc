// The emulator tests' minimal API session.
#include "tests/emulator/api_client.h"

#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace nsxalb::testing {
namespace {

// "name=value" at the start of a Set-Cookie header, split.
std::pair<std::string, std::string> CookiePair(const std::string& set_cookie) {
  std::string first = set_cookie.substr(0, set_cookie.find(';'));
  const size_t eq = first.find('=');
  if (eq == std::string::npos) return {first, ""};
  return {first.substr(0, eq), first.substr(eq + 1)};
}

}  // namespace

ApiClient::ApiClient(const EmulatorProcess& emulator, std::string version)
    : client_(std::make_unique<httplib::SSLClient>(emulator.host(), emulator.port())),
      base_(emulator.url()),
      version_(std::move(version)) {
  client_->set_ca_cert_path(emulator.ca_file().c_str());
  client_->enable_server_certificate_verification(true);
  client_->set_connection_timeout(5, 0);
  client_->set_read_timeout(15, 0);
  client_->set_write_timeout(15, 0);
  client_->set_keep_alive(true);
}

ApiResponse ApiClient::Login(const std::string& username, const std::string& password) {
  ApiResponse r = Send("POST", "/login", {{"username", username}, {"password", password}},
                       {{"X-CSRFToken", "<omit>"}, {"Referer", "<omit>"}});
  if (r.status == 200) {
    for (auto [it, end] = r.headers.equal_range("Set-Cookie"); it != end; ++it) {
      auto [name, value] = CookiePair(it->second);
      if (name == "csrftoken") csrf_ = value;
      if (name == "avi-sessionid") session_ = value;
    }
  }
  return r;
}

ApiResponse ApiClient::Send(const std::string& method, const std::string& path,
                            const nlohmann::json& body,
                            const std::map<std::string, std::string>& extra) {
  std::map<std::string, std::string> headers = {{"X-Avi-Version", version_}};
  if (!session_.empty()) {
    headers["Cookie"] =
        absl::StrCat("csrftoken=", csrf_, "; avi-sessionid=", session_, "; sessionid=", session_);
  }
  if (method != "GET") {
    headers["X-CSRFToken"] = csrf_;
    headers["Referer"] = absl::StrCat(base_, "/");
  }
  for (const auto& [k, v] : extra) headers[k] = v;
  httplib::Headers h;
  for (const auto& [k, v] : headers) {
    if (v != "<omit>") h.emplace(k, v);
  }
  const std::string payload = body.is_null() ? "" : body.dump();
  httplib::Result res = [&]() -> httplib::Result {
    if (method == "GET") return client_->Get(path.c_str(), h);
    if (method == "POST") return client_->Post(path.c_str(), h, payload, "application/json");
    if (method == "PUT") return client_->Put(path.c_str(), h, payload, "application/json");
    if (method == "PATCH") return client_->Patch(path.c_str(), h, payload, "application/json");
    return client_->Delete(path.c_str(), h);
  }();
  ApiResponse out;
  if (!res) {
    out.error = httplib::to_string(res.error());
    return out;
  }
  out.status = res->status;
  out.body = res->body;
  out.headers = res->headers;
  out.json = nlohmann::json::parse(res->body, nullptr, /*allow_exceptions=*/false);
  if (out.json.is_discarded()) out.json = nullptr;
  return out;
}

}  // namespace nsxalb::testing
