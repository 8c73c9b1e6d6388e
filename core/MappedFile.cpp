// MappedFile: mmap of a regular file; empty files map to an empty span.
#include "core/MappedFile.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace openflint {

Result<MappedFile> MappedFile::open(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const ErrorCode code = errno == EACCES ? ErrorCode::PermissionDenied
                           : errno == ENOENT ? ErrorCode::NotFound
                                             : ErrorCode::Io;
    return make_error(code, "cannot open " + path + ": " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return make_error(ErrorCode::Io, path + " is not a regular file");
  }
  if (st.st_size == 0) {
    ::close(fd);
    return MappedFile(nullptr, 0);
  }
  void* p = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  const int saved = errno;
  ::close(fd);
  if (p == MAP_FAILED) return make_error(ErrorCode::Io, "cannot map " + path + ": " + std::strerror(saved));
  ::madvise(p, static_cast<std::size_t>(st.st_size), MADV_SEQUENTIAL);
  return MappedFile(static_cast<const std::uint8_t*>(p), static_cast<std::size_t>(st.st_size));
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    reset();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

MappedFile::~MappedFile() { reset(); }

void MappedFile::reset() {
  if (data_ != nullptr) ::munmap(const_cast<std::uint8_t*>(data_), size_);
  data_ = nullptr;
  size_ = 0;
}

}  // namespace openflint
