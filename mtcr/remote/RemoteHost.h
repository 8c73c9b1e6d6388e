// RemoteHost: a host that serves its devices — an mst server or mstmtserver over TCP, or `mst server --stdio` run through ssh.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/Result.h"

namespace openflint {

// MFT's default bus-server port (mstmtserver, `mst server`).
inline constexpr std::uint16_t kDefaultBusPort = 23108;
// The prefix of a host reached through ssh, and the most digits a port number has.
inline constexpr std::string_view kSshHostPrefix = "ssh:";
inline constexpr std::size_t kMaxPortDigits = 5;

enum class RemoteTransport {
  Tcp,  // the legacy bus-server protocol on a TCP port: no authentication (mft-internals.md §1.2)
  Ssh,  // the same protocol over the stdio of `mst server --stdio` started by the system's ssh
};

struct RemoteHost {
  RemoteTransport transport = RemoteTransport::Tcp;
  std::string user;        // ssh only: the login, empty for ssh's own default
  std::string host;        // a name, an IPv4 or an IPv6 literal (without brackets)
  std::uint16_t port = 0;  // Tcp: the server's port (kDefaultBusPort when not given); Ssh: 0 = ssh's default

  friend bool operator==(const RemoteHost&, const RemoteHost&) = default;
};

// "HOST", "HOST:PORT", "[V6]" or "[V6]:PORT" (TCP, port 23108 unless given), or
// "ssh:[USER@]HOST[:PORT]" / "ssh:[USER@][V6][:PORT]". InvalidArgument saying why otherwise: an
// empty host or user, a port outside 1..65535, an unbracketed IPv6 literal with a port.
[[nodiscard]] Result<RemoteHost> parse_remote_host(std::string_view text);

// What parse_remote_host reads back as the same host (the TCP port always written).
[[nodiscard]] std::string to_string(const RemoteHost& host);

}  // namespace openflint
