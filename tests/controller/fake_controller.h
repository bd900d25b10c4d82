// A minimal HTTPS Controller for the client's limit and transport tests: it logs anyone in, serves
// a collection of `objects` tiny SE groups in pages (with `next` links), and a body of any size
// and status. Unlike the
// emulator it does no per-object work, so a listing of ten thousand objects or a thousand pages
// takes well under a second. Runs on a free loopback port with a fresh self-signed certificate
// for "localhost".
#ifndef NSXALB_TESTS_CONTROLLER_FAKE_CONTROLLER_H_
#define NSXALB_TESTS_CONTROLLER_FAKE_CONTROLLER_H_

#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "absl/status/statusor.h"

namespace httplib {
class SSLServer;
}  // namespace httplib

namespace nsxalb::controller {

// Byte `offset` of a body GET /big serves: the alphabet over and over, so that a test can tell a
// chunk out of place.
inline char BigBodyByte(size_t offset) { return static_cast<char>('a' + offset % 26); }

// The fake Controller: POST /login, POST /logout, GET /api/serviceenginegroup (paged), and
// GET /big?bytes=N[&status=S], a body of N bytes (BigBodyByte) with HTTP status S (200).
class FakeController {
 public:
  // Starts serving; fails when the certificate or the listener cannot be set up.
  static absl::StatusOr<std::unique_ptr<FakeController>> Start();
  ~FakeController();

  // "https://localhost:PORT".
  const std::string& url() const { return url_; }
  // PEM file of the certificate, to use as ca_file.
  const std::string& ca_file() const { return ca_file_; }

  // GET /api/serviceenginegroup lists this many objects (default 0).
  void set_objects(int n) { objects_ = n; }
  // Pages served so far.
  int pages_served() const { return pages_served_; }
  // The User-Agent header of the last login ("" before one).
  std::string login_user_agent() const {
    std::lock_guard<std::mutex> lock(mu_);
    return login_user_agent_;
  }

 private:
  FakeController() = default;

  std::string dir_;
  std::string url_;
  std::string ca_file_;
  std::unique_ptr<httplib::SSLServer> server_;
  std::thread thread_;
  std::atomic<int> objects_{0};
  std::atomic<int> pages_served_{0};
  mutable std::mutex mu_;
  std::string login_user_agent_;
};

}  // namespace nsxalb::controller

#endif  // NSXALB_TESTS_CONTROLLER_FAKE_CONTROLLER_H_
