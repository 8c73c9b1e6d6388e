// DeviceLockFile: RAII exclusive flock on a device's lock file, waited for up to a timeout.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <utility>

#include "core/Result.h"

namespace openflint {

// Move-only. acquire() creates the file if needed (never through a symbolic link, and only a
// regular file is used: anything else at the path is Io) and polls flock(LOCK_EX | LOCK_NB) about
// every 10 ms until `timeout`, then fails with ErrorCode::Busy ("device busy: ..."); a stop
// signal (core/Interrupt.h) ends the wait with ErrorCode::Interrupted. The lock
// goes away with the object (or with the process: the kernel drops flocks of dead processes,
// so a crashed tool never leaves a device locked).
class DeviceLockFile {
 public:
  [[nodiscard]] static Result<DeviceLockFile> acquire(const std::filesystem::path& path,
                                                      std::chrono::milliseconds timeout,
                                                      const std::string& device_name);

  DeviceLockFile(DeviceLockFile&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  DeviceLockFile& operator=(DeviceLockFile&& other) noexcept;
  DeviceLockFile(const DeviceLockFile&) = delete;
  DeviceLockFile& operator=(const DeviceLockFile&) = delete;
  ~DeviceLockFile();

  [[nodiscard]] bool held() const { return fd_ >= 0; }

 private:
  explicit DeviceLockFile(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace openflint
