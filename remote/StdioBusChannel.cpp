// StdioBusChannel: NUL-framed replies written with write(2), requests read through BusConnection.
#include "remote/StdioBusChannel.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace openflint {

Result<StdioBusChannel> StdioBusChannel::open(int read_fd, int write_fd) {
  const int input = ::fcntl(read_fd, F_DUPFD_CLOEXEC, 0);
  if (input < 0) return make_error(ErrorCode::Io, std::string("duplicating the input descriptor: ") + std::strerror(errno));
  return StdioBusChannel(BusConnection(input), write_fd);
}

Result<void> StdioBusChannel::send(std::string_view message) {
  const std::string one(message);
  return send_all(std::span<const std::string>(&one, 1));
}

Result<void> StdioBusChannel::send_all(std::span<const std::string> messages) {
  OF_ASSIGN(const std::string framed, BusConnection::frame(messages));
  std::size_t done = 0;
  while (done < framed.size()) {
    const ssize_t n = ::write(write_fd_, framed.data() + done, framed.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return make_error(ErrorCode::Io, std::string("writing a reply: ") + std::strerror(errno));
    }
    done += static_cast<std::size_t>(n);
  }
  return {};
}

}  // namespace openflint
