// StdioBusChannel: a BusChannel reading one fd and writing another (stdin/stdout: `mst server --stdio`).
#pragma once

#include "mtcr/remote/BusConnection.h"
#include "remote/BusChannel.h"

namespace openflint {

// BusConnection reads any fd (read(2) + poll(2)) but sends with send(2), which fails on a pipe
// (ENOTSOCK); so receiving reuses BusConnection's framing on a dup of `read_fd`, and sending is a
// write(2) loop here. Neither given fd is closed (they are the process's stdin/stdout).
class StdioBusChannel final : public BusChannel {
 public:
  [[nodiscard]] static Result<StdioBusChannel> open(int read_fd, int write_fd);

  [[nodiscard]] Result<void> send(std::string_view message) override;
  [[nodiscard]] Result<void> send_all(std::span<const std::string> messages) override;
  [[nodiscard]] Result<std::string> receive(std::size_t max_bytes, std::chrono::milliseconds timeout) override {
    return input_.receive(max_bytes, timeout);
  }

 private:
  StdioBusChannel(BusConnection input, int write_fd) : input_(std::move(input)), write_fd_(write_fd) {}

  BusConnection input_;  // owns a dup of the read fd
  int write_fd_ = -1;    // not owned
};

}  // namespace openflint
