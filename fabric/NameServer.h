// NameServer: the ibadm name server's TCP listener, answering name-protocol requests (mtcr/remote/NameProtocol.h) from a NameDirectory.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"
#include "fabric/NameDirectory.h"

namespace openflint {

struct NameServerOptions {
  static constexpr std::size_t kDefaultMaxSessions = 32;

  std::string listen_address = "127.0.0.1";  // IPv4 or IPv6 literal; loopback unless configured
  std::uint16_t port = kNameServerDefaultPort;  // 0: any free port (NameServer::port())
  std::size_t max_sessions = kDefaultMaxSessions;  // more clients get "E server busy" and are closed
  std::chrono::milliseconds idle_timeout{60000};   // a client silent this long is closed
  std::chrono::seconds refresh_interval{0};        // collect again this often; 0: only on R
  std::function<NameDirectory()> collect;          // the entries (at listen, on R, on the interval)
  std::function<void(const std::string&)> log;     // one line per refresh and refused client (may be empty)
};

// One thread: a poll loop over the listener and at most max_sessions clients, each request
// answered at once from the directory (a refresh holds the loop while it collects). Requests are
// bounded (kNameMaxRequestBytes); a bad one is answered "E bad name request: why" and the
// session goes on; one longer than the bound ends the session.
class NameServer {
 public:
  // Collects the first directory, then binds and listens. InvalidArgument for a bad address, Io
  // when the port cannot be bound.
  [[nodiscard]] static Result<std::unique_ptr<NameServer>> listen(NameServerOptions options);
  ~NameServer();
  NameServer(const NameServer&) = delete;
  NameServer& operator=(const NameServer&) = delete;

  [[nodiscard]] std::uint16_t port() const { return port_; }
  [[nodiscard]] std::size_t entries() const;
  // Serves until stop().
  [[nodiscard]] Result<void> serve();
  // Callable from any thread (not from a signal handler): serve() returns soon after.
  void stop();

  // The reply messages to one request (tests, and the loop): one, or L's count and its entries.
  [[nodiscard]] std::vector<std::string> answer(std::string_view request);

 private:
  NameServer(NameServerOptions options, int listen_fd, std::uint16_t port, NameDirectory directory);
  void refresh();

  NameServerOptions options_;
  int listen_fd_ = -1;
  int wake_fd_ = -1;  // eventfd: stop() wakes the loop
  std::uint16_t port_ = 0;
  mutable std::mutex mutex_;  // directory_
  NameDirectory directory_;
  std::atomic<bool> stopping_{false};
  std::chrono::steady_clock::time_point next_refresh_;
};

}  // namespace openflint
