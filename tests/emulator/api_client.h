// A minimal Controller API session for the emulator's own tests: logs in over verified HTTPS,
// keeps the session cookies and CSRF token, and sends requests with the Controller's headers.
// Deliberately independent of the provider's client library so each checks the other.
#ifndef NSXALB_TESTS_EMULATOR_API_CLIENT_H_
#define NSXALB_TESTS_EMULATOR_API_CLIENT_H_

#include <map>
#include <memory>
#include <string>

#include "httplib.h"
#include "nlohmann/json.hpp"
#include "tests/support/emulator_process.h"

namespace nsxalb::testing {

// One response, with the body parsed when it is JSON.
struct ApiResponse {
  int status = 0;  // 0: transport error (see error)
  std::string error;
  std::string body;
  nlohmann::json json;  // null unless the body parsed
  httplib::Headers headers;

  std::string Header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
  }
};

// A logged-in (or not yet logged-in) API session against one emulator.
class ApiClient {
 public:
  explicit ApiClient(const EmulatorProcess& emulator, std::string version = "22.1.3");

  // POST /login with a JSON body; remembers the cookies on 200.
  ApiResponse Login(const std::string& username = "admin", const std::string& password = "admin");

  // Sends a request with cookies, X-Avi-Version, and (for unsafe methods) X-CSRFToken and
  // Referer. `extra` headers replace the defaults of the same name; a header whose value is
  // "<omit>" is not sent.
  ApiResponse Send(const std::string& method, const std::string& path,
                   const nlohmann::json& body = nullptr,
                   const std::map<std::string, std::string>& extra = {});

  const std::string& csrf_token() const { return csrf_; }
  const std::string& session_id() const { return session_; }
  std::string base_url() const { return base_; }

 private:
  std::unique_ptr<httplib::SSLClient> client_;
  std::string base_;
  std::string version_;
  std::string csrf_;
  std::string session_;
};

}  // namespace nsxalb::testing

#endif  // NSXALB_TESTS_EMULATOR_API_CLIENT_H_
