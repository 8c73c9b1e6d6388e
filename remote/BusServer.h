// BusServer: a TCP listener that runs one BusSession per accepted connection, each in its own thread.
#pragma once

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/Result.h"
#include "mtcr/remote/BusConnection.h"
#include "mtcr/remote/BusProtocol.h"
#include "remote/BusSession.h"
#include "remote/ClientNetwork.h"

namespace openflint {

struct BusServerOptions {
  // Sessions at once; the next client gets "E server busy" (kBusServerBusy) and is closed.
  static constexpr std::size_t kDefaultMaxSessions = 64;

  std::string listen_address = "127.0.0.1";  // an IPv4 or IPv6 literal (IPv6: IPv6 only)
  std::uint16_t port = kBusDefaultPort;      // 0: any free port (see BusServer::port())
  // Clients allowed to connect; empty = any (only accepted on a loopback listen address).
  std::vector<ClientNetwork> allow;
  bool read_only = false;
  bool allow_reset = false;   // BusSessionOptions::allow_reset
  bool allow_unbind = false;  // BusSessionOptions::allow_unbind
  std::chrono::milliseconds idle_timeout = BusSessionOptions::kDefaultIdleTimeout;
  std::size_t max_sessions = kDefaultMaxSessions;
  std::vector<std::string> devices;  // what L lists and O may open
  std::filesystem::path sysfs_root;  // PCI names are opened under it (empty: default_sysfs_root())
  AuditLog audit;                    // called from several threads, one line at a time
};

// Move-less; the destructor stops and joins everything. The protocol has no authentication
// (mft-internals.md §1.2), so listen() refuses a non-loopback address without an allow-list.
// Resources are bounded per session: a thread with a kSessionStackBytes stack, requests of at
// most kBusMaxRegisterRequestBytes, at most 64 replies buffered per round trip, and the device
// it opens (a simulated one holds its flash in memory). A session that cannot start (no thread,
// no memory) is refused with "E server busy: <why>"; one that runs out of memory on a request
// answers "E out of memory on the server"; an exception ends only its own session. Each case is
// one audit line; nothing of it ends the process. Freed memory is handed back to the system
// (malloc_trim) once sessions have ended.
class BusServer {
 public:
#if defined(__SANITIZE_ADDRESS__)
  static constexpr std::size_t kSessionStackBytes = 4 << 20;  // ASan's redzones grow every frame
#else
  static constexpr std::size_t kSessionStackBytes = 1 << 20;
#endif

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
    BusServer* server = nullptr;
    BusConnection connection;  // handed to the session's thread, which owns it from then on
    std::string peer;
    pthread_t thread{};
    // The thread's stack, mapped here and unmapped with the slot (after the join): glibc would
    // keep the stacks of ended threads cached (up to 40 MiB of address space) for new threads.
    void* stack = nullptr;
    std::size_t stack_bytes = 0;
    int fd = -1;  // the session's socket, for stop(); -1 once the session ended
    std::atomic<bool> done{false};

    Slot(BusServer* owner, BusConnection&& c, std::string who)
        : server(owner), connection(std::move(c)), peer(std::move(who)), fd(connection.fd()) {}
    ~Slot();
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
  };

  BusServer(BusServerOptions options, int listen_fd, std::uint16_t port);
  // Starts a session for `connection` (taken from it) or refuses it. Throws only bad_alloc, with
  // `connection` still the caller's.
  void accept_one(BusConnection& connection, const std::string& peer, const PeerAddress& peer_address);
  static void* session_main(void* slot);
  void run_session(Slot& slot) noexcept;
  void reap_finished();
  void join_all();
  // Never throws: a line that cannot be built (no memory) is lost, the server goes on.
  void audit(const std::string& line) noexcept;
  // "<peer>: <what><the exception's text>", and nothing when even that cannot be built.
  void audit_failure(std::string_view peer, std::string_view what, const std::exception& e) noexcept;

  BusServerOptions options_;
  int listen_fd_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;  // sessions_, audit calls
  std::list<Slot> sessions_;
  std::mutex audit_mutex_;
};

}  // namespace openflint
