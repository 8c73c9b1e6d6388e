// BusChannel: where a BusSession reads requests and writes replies (a TCP connection, or stdin/stdout).
#pragma once

#include <chrono>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "core/Result.h"

namespace openflint {

// NUL-framed messages (mft-internals.md §1.2). The session does not care whether both directions
// share one socket (TCP) or are two pipes (stdio mode), so it talks to this interface.
class BusChannel {
 public:
  virtual ~BusChannel() = default;
  // Sends `message` and its NUL. Io when the peer is gone.
  [[nodiscard]] virtual Result<void> send(std::string_view message) = 0;
  // Sends the messages, each with its NUL, in one write: the replies to pipelined requests.
  [[nodiscard]] virtual Result<void> send_all(std::span<const std::string> messages) = 0;
  // The next message without its NUL: Timeout, Io at EOF, InvalidArgument past `max_bytes`.
  [[nodiscard]] virtual Result<std::string> receive(std::size_t max_bytes, std::chrono::milliseconds timeout) = 0;

 protected:
  BusChannel() = default;
  BusChannel(const BusChannel&) = default;
  BusChannel& operator=(const BusChannel&) = default;
};

}  // namespace openflint
