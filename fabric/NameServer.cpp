// NameServer: binding, the poll loop, and the answers.
#include "fabric/NameServer.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <list>

#include "mtcr/remote/BusProtocol.h"

namespace openflint {
namespace {

constexpr int kNameListenBacklog = 16;
constexpr int kSendTimeoutSeconds = 5;

struct NameClientSlot {
  int fd = -1;
  std::string buffer;
  std::chrono::steady_clock::time_point last;
};

// "O <entry>" or "E <why>".
std::string entry_reply(const Result<NameEntry>& e) {
  return e ? format_ok(format_name_entry(*e)) : format_error(e.error().message());
}

// Sends every message with its NUL; false when the client is gone or too slow (SO_SNDTIMEO).
bool send_replies(int fd, const std::vector<std::string>& replies) {
  std::string bytes;
  for (const auto& r : replies) {
    bytes += r;
    bytes.push_back('\0');
  }
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

Result<int> bind_listener(const std::string& address, std::uint16_t port, std::uint16_t& bound_port) {
  sockaddr_storage storage{};
  socklen_t length = 0;
  if (in_addr v4{}; ::inet_pton(AF_INET, address.c_str(), &v4) == 1) {
    auto* sa = reinterpret_cast<sockaddr_in*>(&storage);
    sa->sin_family = AF_INET;
    sa->sin_port = htons(port);
    sa->sin_addr = v4;
    length = sizeof(sockaddr_in);
  } else if (in6_addr v6{}; ::inet_pton(AF_INET6, address.c_str(), &v6) == 1) {
    auto* sa = reinterpret_cast<sockaddr_in6*>(&storage);
    sa->sin6_family = AF_INET6;
    sa->sin6_port = htons(port);
    sa->sin6_addr = v6;
    length = sizeof(sockaddr_in6);
  } else {
    return make_error(ErrorCode::InvalidArgument, "not an IPv4 or IPv6 listen address: '" + address.substr(0, 64) + "'");
  }
  const int fd = ::socket(storage.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return make_error(ErrorCode::Io, std::string("socket: ") + std::strerror(errno));
  const int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (storage.ss_family == AF_INET6) ::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
  sockaddr_storage got{};
  socklen_t got_len = sizeof got;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&storage), length) != 0 || ::listen(fd, kNameListenBacklog) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&got), &got_len) != 0) {
    const std::string why = std::strerror(errno);
    ::close(fd);
    return make_error(ErrorCode::Io, "cannot listen on " + address + ":" + std::to_string(port) + ": " + why);
  }
  bound_port = got.ss_family == AF_INET6 ? ntohs(reinterpret_cast<const sockaddr_in6*>(&got)->sin6_port)
                                         : ntohs(reinterpret_cast<const sockaddr_in*>(&got)->sin_port);
  return fd;
}

}  // namespace

Result<std::unique_ptr<NameServer>> NameServer::listen(NameServerOptions options) {
  if (!options.collect) return make_error(ErrorCode::Internal, "name server without a collector");
  if (options.max_sessions == 0) return make_error(ErrorCode::InvalidArgument, "max sessions must be at least 1");
  std::uint16_t bound = 0;
  OF_ASSIGN(const int fd, bind_listener(options.listen_address, options.port, bound));
  NameDirectory first = options.collect();
  return std::unique_ptr<NameServer>(new NameServer(std::move(options), fd, bound, std::move(first)));
}

NameServer::NameServer(NameServerOptions options, int listen_fd, std::uint16_t port, NameDirectory directory)
    : options_(std::move(options)), listen_fd_(listen_fd), wake_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
      port_(port), directory_(std::move(directory)) {
  next_refresh_ = std::chrono::steady_clock::now() + options_.refresh_interval;
}

NameServer::~NameServer() {
  if (listen_fd_ >= 0) ::close(listen_fd_);
  if (wake_fd_ >= 0) ::close(wake_fd_);
}

std::size_t NameServer::entries() const {
  const std::lock_guard lock(mutex_);
  return directory_.entries().size();
}

void NameServer::stop() {
  stopping_ = true;
  const std::uint64_t one = 1;
  if (wake_fd_ >= 0) (void)!::write(wake_fd_, &one, sizeof one);
}

void NameServer::refresh() {
  NameDirectory fresh = options_.collect();
  if (options_.log) {
    std::string line = "refreshed: " + std::to_string(fresh.entries().size()) + " name(s)";
    for (const auto& p : fresh.problems()) line += "; " + p;
    options_.log(line);
  }
  const std::lock_guard lock(mutex_);
  directory_ = std::move(fresh);
}

std::vector<std::string> NameServer::answer(std::string_view request) {
  auto parsed = parse_name_request(request);
  if (!parsed) return {format_error(parsed.error().message())};
  switch (parsed->command) {
    case NameCommand::Version: return {format_ok(kNameProtocolVersion)};
    case NameCommand::Refresh: refresh(); return {format_ok(std::to_string(entries()))};
    default: break;
  }
  const std::lock_guard lock(mutex_);
  switch (parsed->command) {
    case NameCommand::Lookup: return {entry_reply(directory_.lookup(parsed->name))};
    case NameCommand::Query:
      return {entry_reply(parsed->by_guid ? directory_.by_guid(parsed->guid) : directory_.by_lid(parsed->lid))};
    case NameCommand::List: {
      std::vector<std::string> out{format_ok(std::to_string(directory_.entries().size()))};
      for (const auto& e : directory_.entries()) out.push_back(format_name_entry(e));
      return out;
    }
    default: return {format_error("internal: unhandled request")};
  }
}

Result<void> NameServer::serve() {
  std::list<NameClientSlot> clients;
  auto close_client = [](NameClientSlot& c) {
    if (c.fd >= 0) ::close(c.fd);
    c.fd = -1;
  };
  while (!stopping_) {
    std::vector<pollfd> fds{{listen_fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
    for (const auto& c : clients) fds.push_back({c.fd, POLLIN, 0});
    int wait_ms = 1000;
    const auto now = std::chrono::steady_clock::now();
    if (options_.refresh_interval.count() > 0 && next_refresh_ <= now) {
      refresh();
      next_refresh_ = std::chrono::steady_clock::now() + options_.refresh_interval;
      continue;
    }
    if (::poll(fds.data(), fds.size(), wait_ms) < 0 && errno != EINTR)
      return make_error(ErrorCode::Io, std::string("poll: ") + std::strerror(errno));
    if (stopping_) break;
    if ((fds[0].revents & POLLIN) != 0) {
      const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd >= 0) {
        const timeval tv{.tv_sec = kSendTimeoutSeconds, .tv_usec = 0};
        ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
        if (clients.size() >= options_.max_sessions) {
          (void)send_replies(fd, {format_error(kBusServerBusy)});
          ::close(fd);
          if (options_.log) options_.log("refused a client: " + std::to_string(clients.size()) + " sessions already");
        } else {
          clients.push_back(NameClientSlot{.fd = fd, .buffer = {}, .last = std::chrono::steady_clock::now()});
        }
      }
    }
    std::size_t i = 2;
    for (auto& c : clients) {
      if (i >= fds.size()) break;  // accepted in this pass: polled in the next
      const short revents = fds[i++].revents;
      if (revents == 0) continue;
      char chunk[1024];
      const ssize_t n = ::recv(c.fd, chunk, sizeof chunk, MSG_DONTWAIT);
      if (n <= 0) {
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        close_client(c);
        continue;
      }
      c.last = std::chrono::steady_clock::now();
      c.buffer.append(chunk, static_cast<std::size_t>(n));
      std::size_t nul = std::string::npos;
      while (c.fd >= 0 && (nul = c.buffer.find('\0')) != std::string::npos) {
        const std::string request = c.buffer.substr(0, nul);
        c.buffer.erase(0, nul + 1);
        if (request.size() >= kNameMaxRequestBytes) break;  // answered and closed below
        if (!send_replies(c.fd, answer(request))) close_client(c);
      }
      // A request past the bound (whole or not) ends the session: the client does not speak the protocol.
      if (c.fd >= 0 && (c.buffer.size() >= kNameMaxRequestBytes || nul != std::string::npos)) {
        (void)send_replies(c.fd, {format_error("bad name request: longer than " + std::to_string(kNameMaxRequestBytes - 1) + " bytes")});
        close_client(c);
      }
    }
    const auto idle_before = std::chrono::steady_clock::now() - options_.idle_timeout;
    for (auto& c : clients)
      if (c.fd >= 0 && c.last < idle_before) close_client(c);
    clients.remove_if([](const NameClientSlot& c) { return c.fd < 0; });
  }
  for (auto& c : clients) close_client(c);
  return {};
}

}  // namespace openflint
