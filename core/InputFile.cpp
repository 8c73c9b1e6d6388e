// InputFile: open non-blocking, fstat, refuse what is not a regular file of bounded size, then read.
#include "core/InputFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
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

namespace {

// How many bytes from `offset` (at most `length`) lie in a hole of a sparse file, so read as
// zeros without asking the kernel to fill page cache with them (a sparse 1 GiB input costs
// seconds of system time otherwise). 0 when there is data at `offset` or the file system
// cannot tell (lseek fails): those bytes are read normally.
std::size_t hole_length(int fd, std::uint64_t offset, std::size_t length) {
  const off_t data = ::lseek(fd, static_cast<off_t>(offset), SEEK_DATA);
  if (data < 0 && errno != ENXIO) return 0;
  // ENXIO: no data from offset to the end of the file as it is now (it may have shrunk since
  // it was sized; the bytes past its end are then not zeros but missing, for pread to report).
  const off_t next = data >= 0 ? data : ::lseek(fd, 0, SEEK_END);
  if (next < 0) return 0;
  const auto next_data = static_cast<std::uint64_t>(next);
  return next_data <= offset ? 0 : static_cast<std::size_t>(std::min<std::uint64_t>(next_data - offset, length));
}

}  // namespace

Result<void> InputFile::read(std::uint64_t offset, std::span<std::uint8_t> out) const {
  if (offset > size_ || out.size() > size_ - offset) return out_of_range(offset, out.size());
  // hole_length's lseek moves the file offset, which nothing here uses: every read is a pread.
  std::size_t done = hole_length(fd_, offset, out.size());
  std::fill_n(out.begin(), done, std::uint8_t{0});
  while (done < out.size()) {
    const ssize_t n = ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error(ErrorCode::Io, "cannot read " + path_ + ": " + std::strerror(errno));
    if (n == 0)
      return make_error(ErrorCode::Io, path_ + " shrank to " + std::to_string(offset + done) +
                                           " bytes while being read (it was " + std::to_string(size_) + ")");
    done += static_cast<std::size_t>(n);
  }
  return {};
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
