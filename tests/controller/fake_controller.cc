// Implementation of fake_controller.h.
#include "tests/controller/fake_controller.h"

#include <httplib.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "plugin/common/status_macros.h"
#include "plugin/host/cert.h"

namespace nsxalb::controller {
namespace {

int IntParam(const httplib::Request& req, const char* name, int fallback) {
  int value = fallback;
  if (req.has_param(name) && !absl::SimpleAtoi(req.get_param_value(name), &value)) return fallback;
  return value;
}

}  // namespace

absl::StatusOr<std::unique_ptr<FakeController>> FakeController::Start() {
  std::unique_ptr<FakeController> c(new FakeController());
  std::string dir = (std::filesystem::temp_directory_path() / "nsxalb-fake-ctrl-XXXXXX").string();
  if (mkdtemp(dir.data()) == nullptr) return absl::InternalError("mkdtemp failed");
  c->dir_ = dir;
  NSXALB_ASSIGN_OR_RETURN(host::Certificate cert, host::GenerateSelfSignedCertificate({}));
  c->ca_file_ = dir + "/cert.pem";
  const std::string key_file = dir + "/key.pem";
  std::ofstream(c->ca_file_) << cert.cert_pem;
  std::ofstream(key_file) << cert.key_pem;

  c->server_ = std::make_unique<httplib::SSLServer>(c->ca_file_.c_str(), key_file.c_str());
  if (!c->server_->is_valid()) return absl::InternalError("the fake Controller's TLS failed");
  httplib::SSLServer& s = *c->server_;
  s.set_tcp_nodelay(true);  // no 40 ms delayed-ACK stall per response
  FakeController* self = c.get();
  s.Post("/login", [self](const httplib::Request& req, httplib::Response& res) {
    {
      std::lock_guard<std::mutex> lock(self->mu_);
      self->login_user_agent_ = req.get_header_value("User-Agent");
    }
    res.set_header("Set-Cookie", "sessionid=fake; Path=/");
    res.set_content(R"({"version":{"Version":"22.1.3"}})", "application/json");
  });
  s.Post("/logout", [](const httplib::Request&, httplib::Response& res) { res.status = 200; });
  s.Get("/api/serviceenginegroup", [self](const httplib::Request& req, httplib::Response& res) {
    const int total = self->objects_.load();
    const int page_size = std::clamp(IntParam(req, "page_size", 25), 1, 200);
    const int page = std::max(1, IntParam(req, "page", 1));
    std::string results;
    for (int i = (page - 1) * page_size; i < std::min(total, page * page_size); ++i) {
      absl::StrAppend(&results, results.empty() ? "" : ",",
                      absl::StrFormat(R"({"uuid":"serviceenginegroup-%d","name":"g-%d"})", i, i));
    }
    std::string body = absl::StrCat(R"({"count":)", total, R"(,"results":[)", results, "]");
    if (page * page_size < total) {
      absl::StrAppend(&body, R"(,"next":"https://localhost/api/serviceenginegroup?page_size=)",
                      page_size, "&page=", page + 1, "\"");
    }
    res.set_content(body + "}", "application/json");
    ++self->pages_served_;
  });
  // A body of exactly `bytes` bytes of BigBodyByte, with HTTP `status` (200 by default), made
  // as it is sent so that even a body of gigabytes is never held.
  s.Get("/big", [](const httplib::Request& req, httplib::Response& res) {
    int64_t bytes = 0;
    if (req.has_param("bytes") && !absl::SimpleAtoi(req.get_param_value("bytes"), &bytes)) {
      bytes = 0;
    }
    res.status = IntParam(req, "status", 200);
    // httplib takes a provider of length 0 for one without a length, which never ends.
    if (bytes <= 0) return res.set_content("", "text/plain");
    res.set_content_provider(static_cast<size_t>(bytes), "text/plain",
                             [](size_t offset, size_t length, httplib::DataSink& sink) {
                               constexpr size_t kPiece = 1 << 20;
                               std::string piece(std::min(length, kPiece), '\0');
                               for (size_t i = 0; i < piece.size(); ++i)
                                 piece[i] = BigBodyByte(offset + i);
                               return sink.write(piece.data(), piece.size());
                             });
  });
  const int port = s.bind_to_any_port("127.0.0.1");
  if (port <= 0) return absl::InternalError("the fake Controller cannot listen");
  c->url_ = absl::StrCat("https://localhost:", port);
  c->thread_ = std::thread([self] { self->server_->listen_after_bind(); });
  return c;
}

FakeController::~FakeController() {
  if (server_ != nullptr) server_->stop();
  if (thread_.joinable()) thread_.join();
  if (!dir_.empty()) std::filesystem::remove_all(dir_);
}

}  // namespace nsxalb::controller
