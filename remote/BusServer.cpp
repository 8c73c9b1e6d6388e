// BusServer: listening socket, allow-list check at accept, bounded session threads, stop().
#include "remote/BusServer.h"

#include <arpa/inet.h>
#include <malloc.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <optional>
#include <utility>

#include "remote/ConnectionBusChannel.h"

namespace openflint {
namespace {

// How often the accept loop looks at the stop flag.
constexpr int kAcceptPollMs = 100;
constexpr int kListenBacklog = 64;
std::string errno_text() { return std::strerror(errno); }

// A listen address as a socket address: an IPv4 or an IPv6 literal.
struct ListenAddress {
  sockaddr_storage storage{};
  socklen_t length = 0;
  bool loopback = false;  // 127.0.0.0/8 or ::1
};

std::optional<ListenAddress> listen_address(const std::string& text, std::uint16_t port) {
  ListenAddress out;
  if (in_addr v4{}; ::inet_pton(AF_INET, text.c_str(), &v4) == 1) {
    auto* sa = reinterpret_cast<sockaddr_in*>(&out.storage);
    sa->sin_family = AF_INET;
    sa->sin_port = htons(port);
    sa->sin_addr = v4;
    out.length = sizeof(sockaddr_in);
    out.loopback = (ntohl(v4.s_addr) >> 24) == 127;
    return out;
  }
  if (in6_addr v6{}; ::inet_pton(AF_INET6, text.c_str(), &v6) == 1) {
    auto* sa = reinterpret_cast<sockaddr_in6*>(&out.storage);
    sa->sin6_family = AF_INET6;
    sa->sin6_port = htons(port);
    sa->sin6_addr = v6;
    out.length = sizeof(sockaddr_in6);
    out.loopback = IN6_IS_ADDR_LOOPBACK(&v6);
    return out;
  }
  return std::nullopt;
}

// A refusal the client can read: the reply, then our side of the stream closed with FIN, and
// what the client already sent read away first. Closing with its request unread would send a
// reset, and a client's kernel may then drop the reply before the client reads it.
void refuse(BusConnection& connection, std::string_view reply) noexcept {
  try {
    (void)connection.send(format_error(reply));
  } catch (const std::exception&) {
    // No memory even for the reply: the client sees the connection close.
  }
  ::shutdown(connection.fd(), SHUT_WR);
  std::array<char, 4096> sink{};
  while (::recv(connection.fd(), sink.data(), sink.size(), MSG_DONTWAIT) > 0) {
  }
}

// A guard page below the stack: an overflow faults instead of writing over other memory.
constexpr std::size_t kGuardBytes = 4096;

// Maps a stack of `stack_bytes` (and its guard page) into stack/mapped; the error number on failure.
int map_stack(std::size_t stack_bytes, void*& stack, std::size_t& mapped) {
  const std::size_t bytes = stack_bytes + kGuardBytes;
  void* memory = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (memory == MAP_FAILED) return errno;
  if (::mprotect(memory, kGuardBytes, PROT_NONE) != 0) {
    const int err = errno;
    ::munmap(memory, bytes);
    return err;
  }
  stack = memory;
  mapped = bytes;
  return 0;
}

// Starts `main(arg)` on a thread running on the stack mapped at stack/mapped (guard page first);
// the error number on failure.
int start_thread(pthread_t& thread, void* (*main)(void*), void* arg, void* stack, std::size_t mapped) {
  pthread_attr_t attr;
  if (const int err = ::pthread_attr_init(&attr); err != 0) return err;
  int err = ::pthread_attr_setstack(&attr, static_cast<char*>(stack) + kGuardBytes, mapped - kGuardBytes);
  if (err == 0) err = ::pthread_create(&thread, &attr, main, arg);
  ::pthread_attr_destroy(&attr);
  return err;
}

// The peer's address (IPv4 as ::ffff:A.B.C.D) and "A.B.C.D:PORT" or "[V6]:PORT".
std::pair<PeerAddress, std::string> peer_of(const sockaddr_storage& peer) {
  char text[INET6_ADDRSTRLEN] = {};
  if (peer.ss_family == AF_INET6) {
    const auto* sa = reinterpret_cast<const sockaddr_in6*>(&peer);
    PeerAddress address{};
    std::memcpy(address.data(), sa->sin6_addr.s6_addr, address.size());
    ::inet_ntop(AF_INET6, &sa->sin6_addr, text, sizeof text);
    return {address, "[" + std::string(text) + "]:" + std::to_string(ntohs(sa->sin6_port))};
  }
  const auto* sa = reinterpret_cast<const sockaddr_in*>(&peer);
  ::inet_ntop(AF_INET, &sa->sin_addr, text, sizeof text);
  return {mapped_ipv4(ntohl(sa->sin_addr.s_addr)), std::string(text) + ":" + std::to_string(ntohs(sa->sin_port))};
}

}  // namespace

Result<std::unique_ptr<BusServer>> BusServer::listen(BusServerOptions options) {
  auto address = listen_address(options.listen_address, options.port);
  if (!address)
    return make_error(ErrorCode::InvalidArgument,
                      "not an IPv4 or IPv6 listen address: '" + options.listen_address + "'");
  if (!address->loopback && options.allow.empty())
    return make_error(ErrorCode::InvalidArgument,
                      "refusing to listen on " + options.listen_address +
                          " without an allow-list: the bus protocol has no authentication (give --allow CIDR)");
  if (options.max_sessions == 0) return make_error(ErrorCode::InvalidArgument, "max sessions must be at least 1");
  const int family = address->storage.ss_family;
  const int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return make_error(ErrorCode::Io, "socket: " + errno_text());
  const int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  // "::" means IPv6 only: an IPv4 listen is its own, explicit choice.
  if (family == AF_INET6) ::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
  const bool v6 = family == AF_INET6;
  const std::string where =
      (v6 ? "[" + options.listen_address + "]" : options.listen_address) + ":" + std::to_string(options.port);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address->storage), address->length) != 0 ||
      ::listen(fd, kListenBacklog) != 0) {
    const std::string why = errno_text();
    ::close(fd);
    return make_error(ErrorCode::Io, "cannot listen on " + where + ": " + why);
  }
  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len) != 0) {
    const std::string why = errno_text();
    ::close(fd);
    return make_error(ErrorCode::Io, "getsockname: " + why);
  }
  const std::uint16_t port = v6 ? ntohs(reinterpret_cast<const sockaddr_in6*>(&bound)->sin6_port)
                                : ntohs(reinterpret_cast<const sockaddr_in*>(&bound)->sin_port);
  return std::unique_ptr<BusServer>(new BusServer(std::move(options), fd, port));
}

BusServer::BusServer(BusServerOptions options, int listen_fd, std::uint16_t port)
    : options_(std::move(options)), listen_fd_(listen_fd), port_(port) {}

BusServer::~BusServer() {
  stop();
  join_all();
  if (listen_fd_ >= 0) ::close(listen_fd_);
}

void BusServer::audit(const std::string& line) noexcept {
  if (!options_.audit) return;
  try {
    std::lock_guard lock(audit_mutex_);
    options_.audit(line);
  } catch (const std::exception&) {
    // Out of memory while writing the line: lost, the server goes on.
  }
}

void BusServer::audit_failure(std::string_view peer, std::string_view what, const std::exception& e) noexcept {
  try {
    audit((peer.empty() ? std::string() : std::string(peer) + ": ") + std::string(what) + e.what());
  } catch (const std::exception&) {
    // No memory for the line either.
  }
}

void BusServer::stop() {
  stopping_ = true;
  std::lock_guard lock(mutex_);
  // Wakes every session blocked in receive(): it sees EOF and ends, releasing its device.
  for (Slot& slot : sessions_)
    if (slot.fd >= 0) ::shutdown(slot.fd, SHUT_RDWR);
}

Result<void> BusServer::serve() {
  while (!stopping_) {
    pollfd p{listen_fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, kAcceptPollMs);
    reap_finished();
    if (ready < 0 && errno != EINTR) return make_error(ErrorCode::Io, "waiting for connections: " + errno_text());
    if (ready <= 0) continue;
    sockaddr_storage peer{};
    socklen_t len = sizeof peer;
    const int fd = ::accept4(listen_fd_, reinterpret_cast<sockaddr*>(&peer), &len, SOCK_CLOEXEC);
    if (fd < 0) continue;  // the client went away already, or EMFILE: keep serving the others
    BusConnection connection(fd);
    try {
      const auto [address, text] = peer_of(peer);
      accept_one(connection, text, address);
    } catch (const std::exception& e) {
      // No memory for the session's bookkeeping: this client is refused, the others go on.
      audit_failure({}, "refused a connection: ", e);
      refuse(connection, kBusServerBusy);
    }
  }
  join_all();
  return {};
}

void BusServer::accept_one(BusConnection& connection, const std::string& peer, const PeerAddress& peer_address) {
  if (!options_.allow.empty()) {
    bool allowed = false;
    for (const ClientNetwork& n : options_.allow) allowed = allowed || n.contains(peer_address);
    if (!allowed) {
      audit(peer + ": refused: not in the allow-list");
      return;  // the connection closes
    }
  }
  const int one = 1;
  ::setsockopt(connection.fd(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // best effort: latency only
  std::lock_guard lock(mutex_);
  std::size_t active = 0;
  for (const Slot& slot : sessions_) active += slot.done ? 0 : 1;
  if (active >= options_.max_sessions) {
    audit(peer + ": refused: server busy (" + std::to_string(active) + " sessions, at most " +
          std::to_string(options_.max_sessions) + ")");
    refuse(connection, kBusServerBusy);
    return;
  }
  Slot& slot = sessions_.emplace_back(this, std::move(connection), peer);
  int err = map_stack(kSessionStackBytes, slot.stack, slot.stack_bytes);
  if (err == 0) err = start_thread(slot.thread, &BusServer::session_main, &slot, slot.stack, slot.stack_bytes);
  if (err != 0) {
    // No thread (a task or address-space limit): this client is refused, the others go on.
    connection = std::move(slot.connection);
    sessions_.pop_back();
    const std::string why = std::string("cannot start a session: ") + std::strerror(err);
    audit(peer + ": refused: " + why);
    refuse(connection, std::string(kBusServerBusy) + ": " + why);
  }
}

BusServer::Slot::~Slot() {
  if (stack != nullptr) ::munmap(stack, stack_bytes);  // the thread was joined (or never started)
}

void* BusServer::session_main(void* slot) {
  auto& s = *static_cast<Slot*>(slot);
  s.server->run_session(s);
  return nullptr;
}

void BusServer::run_session(Slot& slot) noexcept {
  {
    ConnectionBusChannel channel(std::move(slot.connection));
    try {
      BusSessionOptions options;
      options.devices = options_.devices;
      options.read_only = options_.read_only;
      options.allow_reset = options_.allow_reset;
      options.allow_unbind = options_.allow_unbind;
      options.idle_timeout = options_.idle_timeout;
      options.peer = slot.peer;
      options.open_options.sysfs_root = options_.sysfs_root;
      options.audit = [this](std::string_view line) { audit(std::string(line)); };
      BusSession session(channel, std::move(options));
      (void)session.run();  // ends on EOF, idle timeout or a failed send: all just end the session
    } catch (const std::exception& e) {
      // Out of memory (or any other escape) ends this session only; its device went with it.
      audit_failure(slot.peer, "session ended: ", e);
    }
    std::lock_guard guard(mutex_);
    slot.fd = -1;  // before the socket closes, so stop() never shuts down a reused descriptor
  }
  slot.done = true;
}

void BusServer::reap_finished() {
  std::list<Slot> finished;
  {
    std::lock_guard lock(mutex_);
    for (auto it = sessions_.begin(); it != sessions_.end();) {
      auto next = std::next(it);
      if (it->done) finished.splice(finished.end(), sessions_, it);
      it = next;
    }
  }
  for (Slot& slot : finished) ::pthread_join(slot.thread, nullptr);
  // The sessions' devices (a simulated flash is megabytes), buffers and thread stacks are freed
  // now: hand the memory back instead of keeping the peak for the server's lifetime.
  if (!finished.empty()) ::malloc_trim(0);
}

void BusServer::join_all() {
  std::list<Slot> all;
  {
    std::lock_guard lock(mutex_);
    for (Slot& slot : sessions_)  // stop() may have run before the accept loop noticed it
      if (slot.fd >= 0) ::shutdown(slot.fd, SHUT_RDWR);
    all.splice(all.end(), sessions_);
  }
  for (Slot& slot : all) ::pthread_join(slot.thread, nullptr);
}

}  // namespace openflint
