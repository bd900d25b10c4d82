// Private socket directory creation (see socket_dir.h).
#include "plugin/host/socket_dir.h"

#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace nsxalb::host {
namespace {

static_assert(kMaxUnixSocketPathLength == sizeof(sockaddr_un{}.sun_path) - 1,
              "sun_path size differs from the documented limit");

constexpr char kDirTemplate[] = "nsxalb-XXXXXX";
constexpr char kSocketName[] = "plugin.sock";
// Pending connections the kernel holds before they are accepted (Terraform opens one or two).
constexpr int kListenBacklog = 64;

}  // namespace

absl::StatusOr<SocketDir> CreateSocketDir(const std::string& parent) {
  std::string base = parent;
  if (base.empty() || base[0] != '/') {
    char cwd[4096];
    if (getcwd(cwd, sizeof(cwd)) == nullptr) {
      return absl::UnavailableError(
          absl::StrCat("socket directory: cannot resolve relative directory \"", parent,
                       "\": ", std::strerror(errno)));
    }
    base = base.empty() ? std::string(cwd) : absl::StrCat(cwd, "/", base);
  }
  while (base.size() > 1 && base.back() == '/') base.pop_back();

  const std::string dir_template = absl::StrCat(base == "/" ? "" : base, "/", kDirTemplate);
  const std::string predicted = absl::StrCat(dir_template, "/", kSocketName);
  if (predicted.size() > kMaxUnixSocketPathLength) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unix socket path \"", predicted, "\" would be ", predicted.size(),
        " bytes, over Linux's limit of ", kMaxUnixSocketPathLength,
        " bytes (sockaddr_un.sun_path); set PLUGIN_UNIX_SOCKET_DIR or TMPDIR to a shorter "
        "directory (the socket directory was \"",
        parent, "\")"));
  }

  std::vector<char> buffer(dir_template.begin(), dir_template.end());
  buffer.push_back('\0');
  if (mkdtemp(buffer.data()) == nullptr) {
    return absl::UnavailableError(absl::StrCat("socket directory: cannot create \"", dir_template,
                                               "\": ", std::strerror(errno)));
  }
  SocketDir out;
  out.dir = buffer.data();
  out.socket_path = absl::StrCat(out.dir, "/", kSocketName);
  return out;
}

absl::StatusOr<int> ListenOnSocket(const SocketDir& dir) {
  sockaddr_un address = {};
  address.sun_family = AF_UNIX;
  if (dir.socket_path.size() > kMaxUnixSocketPathLength) {
    return absl::InvalidArgumentError(
        absl::StrCat("unix socket path \"", dir.socket_path, "\" is too long"));
  }
  std::memcpy(address.sun_path, dir.socket_path.data(), dir.socket_path.size());
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0 ||
      listen(fd, kListenBacklog) != 0) {
    const int error = errno;
    if (fd >= 0) close(fd);
    return absl::UnavailableError(absl::StrCat("cannot listen on unix socket \"", dir.socket_path,
                                               "\": ", std::strerror(error)));
  }
  return fd;
}

void RemoveSocketDir(const SocketDir& dir) {
  if (dir.dir.empty()) return;
  unlink(dir.socket_path.c_str());
  rmdir(dir.dir.c_str());
}

}  // namespace nsxalb::host
