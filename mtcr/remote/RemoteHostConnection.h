// RemoteHostConnection: a connected bus-protocol stream to a RemoteHost, over TCP or through ssh.
#pragma once

#include <chrono>
#include <span>
#include <string>

#include "core/Result.h"
#include "mtcr/remote/BusConnection.h"
#include "mtcr/remote/RemoteHost.h"

namespace openflint {

// Tcp: connects to host:port (BusConnection::connect_tcp), `devices` unused. Ssh: starts the
// host's `mst server --stdio DEVICES...` through the system's ssh (authentication, encryption and
// authorization are OpenSSH's); an empty `devices` serves the host's default list.
// `timeout` bounds connecting (Tcp) or the start of the remote server (Ssh).
[[nodiscard]] Result<BusConnection> connect_remote_host(const RemoteHost& host, std::span<const std::string> devices,
                                                        std::chrono::milliseconds timeout);

}  // namespace openflint
