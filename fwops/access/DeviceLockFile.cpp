// DeviceLockFile: flock-based exclusive ownership of a device between processes.
#include "fwops/access/DeviceLockFile.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/InputFile.h"
#include "core/Interrupt.h"

namespace openflint {
namespace {

// The process holding an flock on the file behind `fd`, from /proc/locks ("N: FLOCK ADVISORY
// WRITE PID MAJ:MIN:INODE 0 EOF"; waiters are listed with "->"): "flint, pid 1234", or empty
// when it cannot be told (no /proc, another PID namespace).
std::string flock_holder(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return {};
  char id[64];
  std::snprintf(id, sizeof id, "%02x:%02x:%llu", ::major(st.st_dev), ::minor(st.st_dev),
                static_cast<unsigned long long>(st.st_ino));
  std::ifstream locks("/proc/locks");
  std::string line;
  while (std::getline(locks, line)) {
    std::istringstream fields(line);
    std::string number, kind, mode, access, pid, file;
    fields >> number >> kind;
    if (kind != "FLOCK") continue;  // "->" marks a waiter, not the holder
    fields >> mode >> access >> pid >> file;
    if (file != id) continue;
    std::ifstream comm("/proc/" + pid + "/comm");
    std::string name;
    std::getline(comm, name);
    return (name.empty() ? std::string("process") : name) + ", pid " + pid;
  }
  return {};
}

}  // namespace

Result<DeviceLockFile> DeviceLockFile::acquire(const std::filesystem::path& path,
                                               std::chrono::milliseconds timeout,
                                               const std::string& device_name) {
  // The lock directory (a run directory, a simulator's directory) may be writable by others:
  // a link planted at the lock path is refused, not followed (root would create or truncate
  // its target), and so is anything but a regular file (a FIFO or device node must not be
  // opened for writing). O_CREAT without O_EXCL: the file is made once and then shared.
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    if (err == ELOOP)
      return make_error(ErrorCode::Io, "lock file " + path.string() + " is a symbolic link: not following it");
    return make_error(err == EACCES || err == EPERM ? ErrorCode::PermissionDenied : ErrorCode::Io,
                      "cannot open lock file " + path.string() + ": " + std::strerror(err));
  }
  DeviceLockFile lock(fd);  // closes the descriptor on every early return below
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    return make_error(ErrorCode::Io, "cannot stat lock file " + path.string() + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    return make_error(ErrorCode::Io, "lock file " + path.string() + " is a " + file_kind_name(st.st_mode) +
                                         ", not a regular file: not using it");
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return lock;
    if (errno != EWOULDBLOCK && errno != EINTR) {
      return make_error(ErrorCode::Io, "cannot lock " + path.string() + ": " + std::strerror(errno));
    }
    OF_TRY_CTX(check_interrupted(), "waiting for " + device_name + " (" + path.string() + ")");
    if (std::chrono::steady_clock::now() >= deadline) {
      const std::string holder = flock_holder(fd);
      return make_error(ErrorCode::Busy, "device busy: " + device_name + " is in use by another process" +
                                             (holder.empty() ? "" : " (" + holder + ")") + ": waited " +
                                             std::to_string(timeout.count()) + " ms for " + path.string() +
                                             "; wait for it to finish");
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
