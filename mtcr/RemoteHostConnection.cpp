// RemoteHostConnection: TCP through BusConnection::connect_tcp; ssh through a child ssh process.
#include "mtcr/RemoteHostConnection.h"

namespace openflint {

Result<BusConnection> connect_remote_host(const RemoteHost& host, std::span<const std::string> /*devices*/,
                                          std::chrono::milliseconds timeout) {
  if (host.transport == RemoteTransport::Ssh) {
    return make_error(ErrorCode::NotSupported, to_string(host) + ": ssh transport not implemented yet");
  }
  return BusConnection::connect_tcp(host.host, host.port, timeout);
}

}  // namespace openflint
