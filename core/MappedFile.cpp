// MappedFile: mmap of a regular file; empty files map to an empty span.
#include "core/MappedFile.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace openflint {

Result<MappedFile> MappedFile::open(const std::string& path, std::uint64_t max_size, const std::string& what) {
  OF_ASSIGN(const InputFile file, InputFile::open(path, max_size, what));
  if (file.size() == 0) return MappedFile(nullptr, 0);
  const auto size = static_cast<std::size_t>(file.size());
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, file.fd(), 0);
  if (p == MAP_FAILED) return make_error(ErrorCode::Io, "cannot map " + path + ": " + std::strerror(errno));
  ::madvise(p, size, MADV_SEQUENTIAL);
  return MappedFile(static_cast<const std::uint8_t*>(p), size);
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
