// InputFile: open non-blocking, fstat, refuse what is not a regular file of bounded size, then read.
#include "core/InputFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace openflint {

std::string file_kind_name(unsigned mode) {
  switch (mode & S_IFMT) {
    case S_IFREG: return "regular file";
    case S_IFDIR: return "directory";
    case S_IFIFO: return "FIFO";
    case S_IFCHR: return "character device";
    case S_IFBLK: return "block device";
    case S_IFSOCK: return "socket";
    case S_IFLNK: return "symbolic link";
  }
  return "special file";
}

namespace {

Unexpected not_regular(const std::string& what, const std::string& path, unsigned mode) {
  return make_error(ErrorCode::Io, what + " " + path + " is a " + file_kind_name(mode) + ", not a regular file");
}

}  // namespace

Result<InputFile> InputFile::open(const std::string& path, std::uint64_t max_size, const std::string& what) {
  // Special files are refused before they are opened (a socket cannot be, a tape or tty
  // might react); the fstat below catches a file swapped in between.
  struct stat named {};
  if (::stat(path.c_str(), &named) == 0 && !S_ISREG(named.st_mode)) return not_regular(what, path, named.st_mode);
  // O_NONBLOCK: opening a FIFO with no writer would otherwise block forever. O_NOCTTY: a tty
  // given as input must not become our controlling terminal.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    const ErrorCode code = err == EACCES ? ErrorCode::PermissionDenied
                           : err == ENOENT ? ErrorCode::NotFound
                                           : ErrorCode::Io;
    return make_error(code, "cannot open " + what + " " + path + ": " + std::strerror(err));
  }
  InputFile file(fd, 0, path);
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    return make_error(ErrorCode::Io, "cannot stat " + what + " " + path + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return not_regular(what, path, st.st_mode);
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_size)
    return make_error(ErrorCode::InvalidArgument, what + " " + path + " is " + std::to_string(size) +
                                                      " bytes, more than the " + std::to_string(max_size) +
                                                      "-byte limit");
  file.size_ = size;
  return file;
}

Result<std::vector<std::uint8_t>> InputFile::read_all() const {
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size_));
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::pread(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error(ErrorCode::Io, "cannot read " + path_ + ": " + std::strerror(errno));
    if (n == 0) break;  // the file shrank since open: return what is there
    done += static_cast<std::size_t>(n);
  }
  bytes.resize(done);
  return bytes;
}

InputFile::InputFile(InputFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), size_(other.size_), path_(std::move(other.path_)) {}

InputFile& InputFile::operator=(InputFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    size_ = other.size_;
    path_ = std::move(other.path_);
  }
  return *this;
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

Result<std::vector<std::uint8_t>> read_input_file(const std::string& path, std::uint64_t max_size,
                                                  const std::string& what) {
  OF_ASSIGN(const InputFile file, InputFile::open(path, max_size, what));
  return file.read_all();
}

}  // namespace openflint
