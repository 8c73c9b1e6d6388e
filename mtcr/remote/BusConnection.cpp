// BusConnection: NUL-framed send/receive with poll(2) deadlines, and a TCP connect with a timeout.
#include "mtcr/remote/BusConnection.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <utility>

namespace openflint {
namespace {

constexpr std::size_t kReadChunk = 4096;
// How long a failed send/receive waits for the peer process to exit and say why.
constexpr std::chrono::milliseconds kPeerReportWait{3000};

using Clock = std::chrono::steady_clock;

// Milliseconds left until `deadline`, for poll(2) (0 once it has passed).
int remaining_ms(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 1 << 30));
}

// Connects `fd` (non-blocking) to `ai`, waiting up to `timeout`; the socket is blocking again after.
Result<void> connect_with_timeout(int fd, const addrinfo& ai, std::chrono::milliseconds timeout) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) return make_error(ErrorCode::Io, errno_text(errno));
  if (::connect(fd, ai.ai_addr, ai.ai_addrlen) != 0) {
    if (errno != EINPROGRESS) return make_error(ErrorCode::Io, errno_text(errno));
    const auto deadline = Clock::now() + timeout;
    pollfd p{fd, POLLOUT, 0};
    int n = 0;
    while ((n = ::poll(&p, 1, remaining_ms(deadline))) < 0 && errno == EINTR) {
    }
    if (n < 0) return make_error(ErrorCode::Io, errno_text(errno));
    if (n == 0) return make_error(ErrorCode::Timeout, "no answer within " + std::to_string(timeout.count()) + " ms");
    int err = 0;
    socklen_t len = sizeof err;
    if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) err = errno;
    if (err != 0) return make_error(ErrorCode::Io, errno_text(err));
  }
  if (::fcntl(fd, F_SETFL, flags) < 0) return make_error(ErrorCode::Io, errno_text(errno));
  const int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // best effort: latency only
  return {};
}

}  // namespace

BusConnection::BusConnection(int fd) : fd_(fd) {}

BusConnection::BusConnection(int fd, std::unique_ptr<PeerProcess> peer) : fd_(fd), peer_(std::move(peer)) {}

BusConnection::~BusConnection() { close_fd(); }

BusConnection::BusConnection(BusConnection&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), buffer_(std::move(other.buffer_)), peer_(std::move(other.peer_)) {}

BusConnection& BusConnection::operator=(BusConnection&& other) noexcept {
  if (this != &other) {
    close_fd();
    peer_.reset();  // after its stdin closed
    fd_ = std::exchange(other.fd_, -1);
    buffer_ = std::move(other.buffer_);
    peer_ = std::move(other.peer_);
  }
  return *this;
}

Error BusConnection::with_peer_report(Error error, std::chrono::milliseconds wait) {
  if (!peer_) return error;
  return Error(error.code(), error.message() + " (" + peer_->exit_report(wait) + ")");
}

void BusConnection::close_fd() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

Result<BusConnection> BusConnection::connect_tcp(const std::string& host, std::uint16_t port,
                                                 std::chrono::milliseconds timeout) {
  const std::string where = host + ":" + std::to_string(port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV | AI_ADDRCONFIG;
  addrinfo* list = nullptr;
  const int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &list);
  if (rc != 0) return make_error(ErrorCode::Io, "cannot resolve " + where + ": " + ::gai_strerror(rc));
  Error last(ErrorCode::Io, "cannot connect to " + where + ": no address");
  for (const addrinfo* ai = list; ai != nullptr; ai = ai->ai_next) {
    BusConnection connection(::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol));
    if (connection.fd_ < 0) {
      last = Error(ErrorCode::Io, "cannot connect to " + where + ": " + errno_text(errno));
      continue;
    }
    auto connected = connect_with_timeout(connection.fd_, *ai, timeout);
    if (connected) {
      ::freeaddrinfo(list);
      return connection;
    }
    last = std::move(connected).error().with_context("cannot connect to " + where);
  }
  ::freeaddrinfo(list);
  return make_error(std::move(last));
}

Result<void> BusConnection::send(std::string_view message) {
  const std::string one(message);
  return send_all(std::span<const std::string>(&one, 1));
}

Result<std::string> BusConnection::frame(std::span<const std::string> messages) {
  std::string framed;
  for (const std::string& message : messages) {
    if (message.find('\0') != std::string::npos)
      return make_error(ErrorCode::InvalidArgument, "a message cannot contain a NUL byte");
    framed += message;
    framed.push_back('\0');
  }
  return framed;
}

Result<void> BusConnection::send_all(std::span<const std::string> messages) {
  OF_ASSIGN(const std::string framed, frame(messages));
  if (fd_ < 0) return make_error(ErrorCode::Io, "the connection is closed");
  std::size_t done = 0;
  while (done < framed.size()) {
    const ssize_t n = ::send(fd_, framed.data() + done, framed.size() - done, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return make_error(with_peer_report(Error(ErrorCode::Io, "sending to the server: " + errno_text(errno)), kPeerReportWait));
    }
    done += static_cast<std::size_t>(n);
  }
  return {};
}

Result<std::string> BusConnection::receive(std::size_t max_bytes, std::chrono::milliseconds timeout) {
  if (fd_ < 0) return make_error(ErrorCode::Io, "the connection is closed");
  const auto deadline = Clock::now() + timeout;
  std::array<char, kReadChunk> chunk{};
  while (true) {
    const std::size_t nul = buffer_.find('\0');
    if (nul != std::string::npos && nul <= max_bytes) {
      std::string message = buffer_.substr(0, nul);
      buffer_.erase(0, nul + 1);
      return message;
    }
    if (buffer_.size() > max_bytes)
      return make_error(ErrorCode::InvalidArgument,
                        "a message from the server is longer than " + std::to_string(max_bytes) + " bytes");
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, remaining_ms(deadline));
    if (ready < 0) {
      if (errno == EINTR) continue;
      return make_error(ErrorCode::Io, "waiting for the server: " + errno_text(errno));
    }
    if (ready == 0)  // the peer may still be running (e.g. waiting on the network): do not wait for it
      return make_error(with_peer_report(
          Error(ErrorCode::Timeout, "no answer from the server within " + std::to_string(timeout.count()) + " ms"),
          std::chrono::milliseconds{0}));
    const ssize_t n = ::read(fd_, chunk.data(), chunk.size());
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      // ECONNRESET when the peer exited with our request unread (ssh refused by the server).
      return make_error(with_peer_report(Error(ErrorCode::Io, "reading from the server: " + errno_text(errno)), kPeerReportWait));
    }
    if (n == 0)
      return make_error(with_peer_report(Error(ErrorCode::Io, "the server closed the connection"), kPeerReportWait));
    buffer_.append(chunk.data(), static_cast<std::size_t>(n));
  }
}

Result<std::string> BusConnection::receive_reply(std::size_t max_bytes, std::chrono::milliseconds timeout) {
  auto reply = receive(max_bytes, timeout);
  if (!reply && reply.error().code() == ErrorCode::InvalidArgument)
    return make_error(ErrorCode::Io, "malformed reply: " + reply.error().message());
  return reply;
}

}  // namespace openflint
