// The private directory that holds the plugin's unix socket.
//
// Like go-plugin, the socket lives under PLUGIN_UNIX_SOCKET_DIR or $TMPDIR; here it sits in a
// fresh mkdtemp directory (mode 0700) so no other user can connect to it or replace it. A unix
// socket path must fit sockaddr_un::sun_path (107 bytes plus the terminating NUL on Linux), which
// a long $TMPDIR can exceed; that is reported up front rather than as an obscure bind error.
#ifndef NSXALB_PLUGIN_HOST_SOCKET_DIR_H_
#define NSXALB_PLUGIN_HOST_SOCKET_DIR_H_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"

namespace nsxalb::host {

// The longest unix socket path Linux accepts (sizeof(sun_path) - 1).
inline constexpr size_t kMaxUnixSocketPathLength = 107;

// A created private socket directory and the socket path inside it.
struct SocketDir {
  std::string dir;          // absolute, mode 0700
  std::string socket_path;  // dir + "/plugin.sock"
};

// Creates `parent`/nsxalb-XXXXXX (mode 0700) and returns it with the socket path inside it.
// A relative `parent` is made absolute against the current directory. Returns
// kInvalidArgument, before creating anything, when the socket path would exceed
// kMaxUnixSocketPathLength (the message names the path, its length and the variables to
// change), and kUnavailable when the directory cannot be created.
absl::StatusOr<SocketDir> CreateSocketDir(const std::string& parent);

// Creates the socket at dir.socket_path and listens on it (blocking accept, close-on-exec).
// Returns the listening descriptor, which the caller closes; kUnavailable naming the path and
// the system error otherwise. Connections made from then on wait in the kernel's backlog until
// they are accepted, so a client may connect as soon as this returns.
absl::StatusOr<int> ListenOnSocket(const SocketDir& dir);

// Removes the socket (if still present) and the directory. Best effort; never fails.
void RemoveSocketDir(const SocketDir& dir);

}  // namespace nsxalb::host

#endif  // NSXALB_PLUGIN_HOST_SOCKET_DIR_H_
