// RemoteHostConnection: TCP through BusConnection::connect_tcp; ssh through a child ssh on a socketpair.
#include "mtcr/remote/RemoteHostConnection.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "mtcr/remote/PeerProcess.h"
#include "mtcr/remote/SshCommand.h"

namespace openflint {
namespace {

// ssh's stdin and stdout are one end of a socketpair, BusConnection the other: the NUL-framed
// stream is the same as over TCP. ssh's stderr goes to a pipe the PeerProcess keeps the end of.
Result<BusConnection> connect_ssh(const RemoteHost& host, std::span<const std::string> devices,
                                  std::chrono::milliseconds timeout) {
  OF_ASSIGN(const std::vector<std::string> argv,
            ssh_command_line(host, devices, timeout, SshCommandSettings::from_environment()));
  int fds[2] = {-1, -1};
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    return make_error(ErrorCode::Io, to_string(host) + ": socketpair: " + std::strerror(errno));
  auto peer = PeerProcess::spawn(argv, fds[1]);
  ::close(fds[1]);  // the child has its copy (or none)
  if (!peer) {
    ::close(fds[0]);
    return make_error(std::move(peer).error().with_context(to_string(host)));
  }
  return BusConnection(fds[0], std::move(*peer));
}

}  // namespace

Result<BusConnection> connect_remote_host(const RemoteHost& host, std::span<const std::string> devices,
                                          std::chrono::milliseconds timeout) {
  if (host.transport == RemoteTransport::Ssh) return connect_ssh(host, devices, timeout);
  return BusConnection::connect_tcp(host.host, host.port, timeout);
}

}  // namespace openflint
