// BusConnection: NUL-framed messages over a connected stream socket (the mstmtserver transport), owning the fd.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/Result.h"
#include "mtcr/remote/PeerProcess.h"

namespace openflint {

// Move-only; the destructor closes the descriptor (and then stops the peer process, if any).
// Reads are buffered: bytes that arrive after a message's NUL are kept for the next receive().
class BusConnection {
 public:
  // Takes ownership of a connected stream socket (TCP, or one end of a socketpair in tests).
  explicit BusConnection(int fd);
  // The stream is the stdin/stdout of `peer` (the ssh client, mtcr/remote/RemoteHostConnection.h): the
  // connection owns it; a failed send or receive says why it went away (its last stderr line).
  BusConnection(int fd, std::unique_ptr<PeerProcess> peer);
  ~BusConnection();
  BusConnection(BusConnection&& other) noexcept;
  BusConnection& operator=(BusConnection&& other) noexcept;
  BusConnection(const BusConnection&) = delete;
  BusConnection& operator=(const BusConnection&) = delete;

  // Resolves `host` (a name, IPv4 or IPv6 literal) with getaddrinfo and connects to the first
  // address that answers within `timeout` each. Io (refused, unreachable, unknown host) or
  // Timeout. TCP_NODELAY is set: every request waits for its reply.
  [[nodiscard]] static Result<BusConnection> connect_tcp(const std::string& host, std::uint16_t port,
                                                         std::chrono::milliseconds timeout);

  // Sends `message` and its terminating NUL. InvalidArgument when it contains a NUL; Io when
  // the peer is gone (no SIGPIPE).
  [[nodiscard]] Result<void> send(std::string_view message);
  // Sends each message with its NUL in one send(2) (pipelined requests, or a server's replies to
  // them): the peer sees them at once instead of one segment per message.
  [[nodiscard]] Result<void> send_all(std::span<const std::string> messages);
  // The bytes send_all() writes: each message and its NUL. InvalidArgument when one contains a
  // NUL. (Also for a channel that writes a pipe, where send(2) does not work.)
  [[nodiscard]] static Result<std::string> frame(std::span<const std::string> messages);
  // The next message without its NUL. Timeout when none is complete within `timeout`; Io "the
  // server closed the connection" at EOF; InvalidArgument when it runs past `max_bytes`.
  [[nodiscard]] Result<std::string> receive(std::size_t max_bytes, std::chrono::milliseconds timeout);
  // receive() on the client side: a reply past `max_bytes` is an Io error like any other reply
  // that makes no sense (the server misbehaved; the user's input was fine), not InvalidArgument.
  [[nodiscard]] Result<std::string> receive_reply(std::size_t max_bytes, std::chrono::milliseconds timeout);

  [[nodiscard]] int fd() const { return fd_; }

 private:
  void close_fd();

  // `error` with what the peer process reports, when there is one.
  [[nodiscard]] Error with_peer_report(Error error, std::chrono::milliseconds wait);

  int fd_ = -1;
  std::string buffer_;  // received bytes not yet returned
  std::unique_ptr<PeerProcess> peer_;  // destroyed after fd_ is closed: it sees EOF first
};

}  // namespace openflint
