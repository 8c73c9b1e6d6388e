// BusServer: a TCP listener that runs one BusSession per accepted connection, each in its own thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "core/Result.h"
#include "mtcr/BusProtocol.h"
#include "remote/BusSession.h"
#include "remote/ClientNetwork.h"

namespace openflint {

struct BusServerOptions {
  static constexpr std::size_t kDefaultMaxSessions = 64;

  std::string listen_address = "127.0.0.1";  // an IPv4 or IPv6 literal (IPv6: IPv6 only)
  std::uint16_t port = kBusDefaultPort;      // 0: any free port (see BusServer::port())
  // Clients allowed to connect; empty = any (only accepted on a loopback listen address).
  std::vector<ClientNetwork> allow;
  bool read_only = false;
  std::chrono::milliseconds idle_timeout = BusSessionOptions::kDefaultIdleTimeout;
  std::size_t max_sessions = kDefaultMaxSessions;
  std::vector<std::string> devices;  // what L lists and O may open
  std::filesystem::path sysfs_root;  // PCI names are opened under it (empty: default_sysfs_root())
  AuditLog audit;                    // called from several threads, one line at a time
};

// Move-less; the destructor stops and joins everything. The protocol has no authentication
// (mft-internals.md §1.2), so listen() refuses a non-loopback address without an allow-list.
class BusServer {
 public:
  // Binds and listens; accepting starts with serve(). InvalidArgument for an unsafe or bad
  // address, Io when the port cannot be bound.
  [[nodiscard]] static Result<std::unique_ptr<BusServer>> listen(BusServerOptions options);
  ~BusServer();
  BusServer(const BusServer&) = delete;
  BusServer& operator=(const BusServer&) = delete;

  // The bound port (the real one when options.port was 0).
  [[nodiscard]] std::uint16_t port() const { return port_; }
  // Accepts connections until stop(); returns after every session thread has ended.
  [[nodiscard]] Result<void> serve();
  // Callable from any thread (not from a signal handler): closes the listener and shuts down
  // every session's socket, so serve() returns.
  void stop();

 private:
  struct Slot {
    std::thread thread;
    int fd = -1;  // the session's socket, for stop(); -1 once the session ended
    std::atomic<bool> done{false};
  };

  BusServer(BusServerOptions options, int listen_fd, std::uint16_t port);
  void accept_one(int fd, const std::string& peer, const PeerAddress& peer_address);
  void reap_finished();
  void join_all();
  void audit(const std::string& line);

  BusServerOptions options_;
  int listen_fd_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;  // sessions_, audit calls
  std::list<Slot> sessions_;
  std::mutex audit_mutex_;
};

}  // namespace openflint
