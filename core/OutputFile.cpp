// OutputFile: lstat decides — temp file + rename for regular files, write-through for devices and FIFOs.
#include "core/OutputFile.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "core/InputFile.h"

namespace openflint {
namespace {

ErrorCode code_for(int err) { return err == EACCES || err == EPERM ? ErrorCode::PermissionDenied : ErrorCode::Io; }

Result<void> write_all(int fd, Bytes bytes, const std::string& name) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      ::usleep(1000);  // a pipe reader is slower than us
      continue;
    }
    if (n <= 0) return make_error(code_for(errno), "cannot write " + name + ": " + std::strerror(errno));
    bytes = bytes.subspan(static_cast<std::size_t>(n));
  }
  return {};
}

// Opens an existing character device or FIFO for writing, without creating, truncating or
// following anything. O_NONBLOCK makes a FIFO without a reader fail (ENXIO) instead of hanging.
Result<int> open_through(const std::string& path, const std::string& what, mode_t kind) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    if (err == ENXIO && S_ISFIFO(kind))
      return make_error(ErrorCode::Io, what + " " + path + " is a FIFO that nobody reads");
    return make_error(code_for(err), "cannot open " + what + " " + path + ": " + std::strerror(err));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || (st.st_mode & S_IFMT) != kind) {  // swapped since lstat
    ::close(fd);
    return make_error(ErrorCode::Io, what + " " + path + " changed while being opened");
  }
  // Blocking writes from here on: the reader of a pipe sets the pace.
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

// The stop signals held back while alive: between creating a temp file and registering it for
// removal there must be no moment where the signal would leave it behind.
class SignalsHeld {
 public:
  SignalsHeld() {
    sigset_t set;
    ::sigemptyset(&set);
    ::sigaddset(&set, SIGINT);
    ::sigaddset(&set, SIGTERM);
    ::sigaddset(&set, SIGHUP);
    ::pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~SignalsHeld() { ::pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  sigset_t old_;
};

}  // namespace

Result<OutputFile> OutputFile::create(const std::string& path, const std::string& what, Role role) {
  if (path.empty()) return make_error(ErrorCode::InvalidArgument, "no " + what + " path given");
  struct stat st {};
  mode_t mode = 0644;
  if (::lstat(path.c_str(), &st) == 0) {
    const mode_t kind = st.st_mode & S_IFMT;
    if ((S_ISCHR(kind) || S_ISFIFO(kind)) && role == Role::Output) {
      OF_ASSIGN(const int fd, open_through(path, what, kind));
      return OutputFile(fd, path, std::string());
    }
    if (!S_ISREG(kind))
      return make_error(ErrorCode::Io, what + " " + path + " is a " + file_kind_name(st.st_mode) +
                                           ": not replacing it" +
                                           (S_ISLNK(kind) && role == Role::Output ? " (give the path it points to)" : ""));
    mode = st.st_mode & 07777;
  } else if (errno != ENOENT) {
    return make_error(code_for(errno), "cannot stat " + what + " " + path + ": " + std::strerror(errno));
  }
  std::string tmp = path + ".tmp-XXXXXX";
  const SignalsHeld held;  // a pending SIGINT/SIGTERM lands after the registration, which removes the file
  const int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0)
    return make_error(code_for(errno), "cannot create " + what + " next to " + path + ": " + std::strerror(errno));
  OutputFile file(fd, path, std::move(tmp));
  file.sync_ = role == Role::Output;
  if (::fchmod(fd, mode) != 0)
    return make_error(code_for(errno), "cannot set the mode of " + file.tmp_ + ": " + std::strerror(errno));
  return file;
}

OutputFile::OutputFile(int fd, std::string path, std::string tmp)
    : fd_(fd), path_(std::move(path)), tmp_(std::move(tmp)) {
  if (!tmp_.empty()) registration_ = TempPathRegistration(tmp_);
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      sync_(other.sync_),
      path_(std::move(other.path_)),
      tmp_(std::exchange(other.tmp_, std::string())),
      registration_(std::move(other.registration_)),
      committed_(std::exchange(other.committed_, true)),
      written_(other.written_) {}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !tmp_.empty()) ::unlink(tmp_.c_str());
}

Result<void> OutputFile::write(Bytes bytes) {
  if (fd_ < 0) return make_error(ErrorCode::Internal, "write to a closed output " + path_);
  OF_TRY(write_all(fd_, bytes, tmp_.empty() ? path_ : tmp_));
  written_ += bytes.size();
  return {};
}

Result<void> OutputFile::write_at(std::uint64_t offset, Bytes bytes) {
  if (fd_ < 0 || tmp_.empty() || offset > written_ || bytes.size() > written_ - offset)
    return make_error(ErrorCode::InvalidArgument, "cannot rewrite bytes of " + path_ + " (not a regular file?)");
  while (!bytes.empty()) {
    const ssize_t n = ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return make_error(code_for(errno), "cannot write " + tmp_ + ": " + std::strerror(errno));
    bytes = bytes.subspan(static_cast<std::size_t>(n));
    offset += static_cast<std::uint64_t>(n);
  }
  return {};
}

Result<void> OutputFile::read_at(std::uint64_t offset, std::span<std::uint8_t> out) const {
  if (fd_ < 0 || tmp_.empty() || offset > written_ || out.size() > written_ - offset)
    return make_error(ErrorCode::InvalidArgument, "cannot read back bytes of " + path_ + " (not a regular file?)");
  while (!out.empty()) {
    const ssize_t n = ::pread(fd_, out.data(), out.size(), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return make_error(ErrorCode::Io, "cannot read back " + tmp_ + ": " + std::strerror(errno));
    out = out.subspan(static_cast<std::size_t>(n));
    offset += static_cast<std::uint64_t>(n);
  }
  return {};
}

Result<void> OutputFile::commit() {
  if (fd_ < 0) return make_error(ErrorCode::Internal, "commit of a closed output " + path_);
  if (tmp_.empty()) {
    const int rc = ::close(std::exchange(fd_, -1));
    if (rc != 0 && errno != EINTR) return make_error(ErrorCode::Io, "cannot close " + path_ + ": " + std::strerror(errno));
    committed_ = true;
    return {};
  }
  if (sync_ && ::fsync(fd_) != 0) return make_error(code_for(errno), "cannot flush " + tmp_ + ": " + std::strerror(errno));
  if (::close(std::exchange(fd_, -1)) != 0)
    return make_error(ErrorCode::Io, "cannot close " + tmp_ + ": " + std::strerror(errno));
  if (::rename(tmp_.c_str(), path_.c_str()) != 0)
    return make_error(code_for(errno), "cannot rename " + tmp_ + " to " + path_ + ": " + std::strerror(errno));
  committed_ = true;
  registration_.release();
  return {};
}

Result<void> write_output_file(const std::string& path, Bytes bytes, const std::string& what) {
  OF_ASSIGN(OutputFile file, OutputFile::create(path, what));
  OF_TRY(file.write(bytes));
  return file.commit();
}

}  // namespace openflint
