// FakeBusServer: a tiny bus server in a thread (socketpair or loopback TCP) over a map of dwords, with switchable faults and an optional G.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "mtcr/remote/BusConnection.h"
#include "mtcr/remote/BusProtocol.h"

namespace openflint::test {

struct FakeBusOptions {
  bool block_commands = true;                // B and U; false answers "E Invalid command" (mstflint's MST_UL build)
  std::optional<std::uint32_t> failing_read;  // R at this offset answers "E Invalid offset"
  std::optional<char> silent_on;             // this command gets no answer at all
  std::optional<char> close_on;              // the server hangs up on this command
  std::string version = "1.4";
  std::optional<std::string> open_error;     // O answers "E <this>"
  std::optional<std::string> read_reply;     // R answers this text verbatim
  bool tcp = false;                          // listen on 127.0.0.1:<port()> instead of a socketpair
  std::optional<std::uint32_t> failing_write;  // W at this offset answers "E Invalid offset"
  // G (openflint's register channel): the probe answers this many bytes; nullopt answers
  // "E Invalid command" like mstmtserver. A query answers the stored register (zeros at first)
  // with status 0, a write stores the payload and echoes it.
  std::optional<std::uint32_t> register_bytes;
};

class FakeBusServer {
 public:
  static constexpr std::chrono::milliseconds kIdleTimeout{30000};  // the thread gives up then

  explicit FakeBusServer(FakeBusOptions options = {}) : options_(std::move(options)) {
    if (options_.tcp) {
      listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      sockaddr_in a{};
      a.sin_family = AF_INET;
      a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      socklen_t len = sizeof a;
      if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listener_, 1) != 0 ||
          ::getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len) != 0)
        return;
      port_ = ntohs(a.sin_port);
      thread_ = std::thread([this] {
        const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd >= 0) serve(BusConnection(fd));
      });
      return;
    }
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return;
    client_fd_ = fds[0];
    thread_ = std::thread([this, fd = fds[1]] { serve(BusConnection(fd)); });
  }
  ~FakeBusServer() {
    if (client_fd_ >= 0) ::close(client_fd_);  // never handed out: end the thread by EOF
    if (listener_ >= 0) ::shutdown(listener_, SHUT_RDWR);
    join();
    if (listener_ >= 0) ::close(listener_);
  }
  FakeBusServer(const FakeBusServer&) = delete;
  FakeBusServer& operator=(const FakeBusServer&) = delete;

  // The client end of the socketpair (once).
  BusConnection client() {
    const int fd = client_fd_;
    client_fd_ = -1;
    return BusConnection(fd);
  }
  [[nodiscard]] std::uint16_t port() const { return port_; }
  // Waits for the thread (it ends when the client hangs up); then memory and requests are stable.
  void join() {
    if (thread_.joinable()) thread_.join();
  }

  std::map<std::uint32_t, std::uint32_t> memory;
  std::map<std::uint16_t, std::vector<std::uint32_t>> registers;  // G writes by register id
  std::vector<std::string> requests;  // as received
  // Times the server had to wait for the client: requests sent together (pipelined) arrive
  // together and cost one; a client that waits for each reply costs one per request.
  std::atomic<std::size_t> round_trips{0};

 private:
  // Like our server, replies wait until no further request is buffered and then go out together:
  // a client waiting for each reply costs one round trip per request, a pipelined batch one.
  void serve(BusConnection connection) {
    std::vector<std::string> pending;
    while (true) {
      auto text = connection.receive(kBusMaxRegisterRequestBytes - 1, std::chrono::milliseconds{0});
      if (!text && text.error().code() == ErrorCode::Timeout) {
        ++round_trips;  // counted before the replies go out: a client that has them sees the count
        if (!pending.empty() && !connection.send_all(pending)) return;
        pending.clear();
        text = connection.receive(kBusMaxRegisterRequestBytes - 1, kIdleTimeout);
      }
      if (!text) return;
      requests.push_back(*text);
      const char letter = text->empty() ? '?' : (*text)[0];
      if (options_.close_on == letter) {
        (void)connection.send_all(pending);
        return;
      }
      if (options_.silent_on == letter) continue;
      pending.push_back(answer(*text));
    }
  }

  std::string answer(const std::string& text) {
    auto r = parse_bus_request(text);
    if (!r) return format_error(r.error().message());
    switch (r->command) {
      case BusCommand::Version: return format_ok(options_.version);
      case BusCommand::Open: return options_.open_error ? format_error(*options_.open_error) : format_ok("0");
      case BusCommand::Read:
        if (options_.failing_read == r->offset) return format_error("Invalid offset");
        if (options_.read_reply) return *options_.read_reply;
        return format_read_reply(memory[r->offset]);
      case BusCommand::Write:
        if (options_.failing_write == r->offset) return format_error("Invalid offset");
        memory[r->offset] = r->value;
        return format_ok();
      case BusCommand::Register: {
        if (!options_.register_bytes) return format_error(kBusInvalidCommand);
        if (r->size == 0) return format_ok(std::to_string(*options_.register_bytes));
        auto& stored = registers[r->register_id];
        if (r->method == kBusRegisterWrite) stored = r->data;
        BusRegisterReply reply;
        reply.data = stored;
        reply.data.resize(r->data.size());
        return format_register_reply(reply);
      }
      case BusCommand::ReadBlock: {
        if (!options_.block_commands) return format_error(kBusInvalidCommand);
        std::vector<std::uint32_t> dwords;
        for (std::uint32_t i = 0; i < (r->size + 3) / 4; ++i) dwords.push_back(memory[r->offset + 4 * i]);
        return format_block_reply(dwords, r->size);
      }
      case BusCommand::WriteBlock:
        if (!options_.block_commands) return format_error(kBusInvalidCommand);
        for (std::size_t i = 0; i < r->data.size(); ++i) memory[r->offset + static_cast<std::uint32_t>(4 * i)] = r->data[i];
        return format_ok();
      // openflint's reset: a legacy server (mstmtserver) does not know the letter.
      case BusCommand::Reset: return format_error(kBusInvalidCommand);
      default: return format_ok();
    }
  }

  FakeBusOptions options_;
  int client_fd_ = -1;
  int listener_ = -1;
  std::uint16_t port_ = 0;
  std::thread thread_;
};

}  // namespace openflint::test
