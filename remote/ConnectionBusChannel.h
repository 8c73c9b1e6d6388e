// ConnectionBusChannel: a BusChannel over one connected socket (mtcr/remote/BusConnection), for the TCP server.
#pragma once

#include <utility>

#include "mtcr/remote/BusConnection.h"
#include "remote/BusChannel.h"

namespace openflint {

// Owns the connection: the socket closes with the channel.
class ConnectionBusChannel final : public BusChannel {
 public:
  explicit ConnectionBusChannel(BusConnection connection) : connection_(std::move(connection)) {}

  [[nodiscard]] Result<void> send(std::string_view message) override { return connection_.send(message); }
  [[nodiscard]] Result<void> send_all(std::span<const std::string> messages) override {
    return connection_.send_all(messages);
  }
  [[nodiscard]] Result<std::string> receive(std::size_t max_bytes, std::chrono::milliseconds timeout) override {
    return connection_.receive(max_bytes, timeout);
  }
  [[nodiscard]] int fd() const { return connection_.fd(); }

 private:
  BusConnection connection_;
};

}  // namespace openflint
