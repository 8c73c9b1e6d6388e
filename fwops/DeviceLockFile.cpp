// DeviceLockFile: flock-based exclusive ownership of a device between processes.
#include "fwops/DeviceLockFile.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "core/Interrupt.h"

namespace openflint {

Result<DeviceLockFile> DeviceLockFile::acquire(const std::filesystem::path& path,
                                               std::chrono::milliseconds timeout,
                                               const std::string& device_name) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    return make_error(ErrorCode::Io, "cannot open lock file " + path.string() + ": " + std::strerror(errno));
  }
  DeviceLockFile lock(fd);  // closes the descriptor on every early return below
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return lock;
    if (errno != EWOULDBLOCK && errno != EINTR) {
      return make_error(ErrorCode::Io, "cannot lock " + path.string() + ": " + std::strerror(errno));
    }
    if (auto stop = check_interrupted(); !stop)
      return make_error(std::move(stop).error().with_context("waiting for " + device_name + " (" + path.string() + ")"));
    if (std::chrono::steady_clock::now() >= deadline) {
      return make_error(ErrorCode::Busy,
                        "device busy: " + device_name + " is in use by another process (waited " +
                            std::to_string(timeout.count()) + " ms for " + path.string() + ")");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

DeviceLockFile& DeviceLockFile::operator=(DeviceLockFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

DeviceLockFile::~DeviceLockFile() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor drops the flock
}

}  // namespace openflint
