// SharedBarFile: mkostemp + ftruncate + MAP_SHARED, atomic big-endian dword accessors, unlink on exit.
#include "sim/SharedBarFile.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/HexString.h"

namespace openflint::sim {
namespace {

std::uint32_t swap_big_endian(std::uint32_t v) {
  if constexpr (std::endian::native == std::endian::little) return __builtin_bswap32(v);
  return v;
}

}  // namespace

Result<SharedBarFile> SharedBarFile::create(const std::filesystem::path& directory, std::uint64_t size) {
  if (size < 4 || size % 4096 != 0 || size > (std::uint64_t{1} << 32)) {
    return make_error(ErrorCode::InvalidArgument,
                      "BAR size " + hex_string(size) + " is not a multiple of 4 KiB up to 4 GiB");
  }
  std::string name = (directory / "openflint-bar-XXXXXX").string();
  std::vector<char> buffer(name.begin(), name.end());
  buffer.push_back('\0');
  const int fd = ::mkostemp(buffer.data(), O_CLOEXEC);
  if (fd < 0) {
    return make_error(ErrorCode::Io, "creating a BAR file in " + directory.string() + ": " + std::strerror(errno));
  }
  std::filesystem::path path(buffer.data());
  if (::ftruncate(fd, static_cast<off_t>(size)) != 0) {
    const int err = errno;
    ::close(fd);
    ::unlink(path.c_str());
    return make_error(ErrorCode::Io, "sizing " + path.string() + " to " + hex_string(size) + ": " + std::strerror(err));
  }
  void* map = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) {
    const int err = errno;
    ::close(fd);
    ::unlink(path.c_str());
    return make_error(ErrorCode::Io, "mapping " + path.string() + ": " + std::strerror(err));
  }
  return SharedBarFile(std::move(path), fd, static_cast<std::uint32_t*>(map), size);
}

SharedBarFile::SharedBarFile(SharedBarFile&& other) noexcept
    : path_(std::move(other.path_)),
      fd_(std::exchange(other.fd_, -1)),
      base_(std::exchange(other.base_, nullptr)),
      size_(std::exchange(other.size_, 0)) {
  other.path_.clear();
}

SharedBarFile& SharedBarFile::operator=(SharedBarFile&& other) noexcept {
  if (this != &other) {
    reset();
    path_ = std::exchange(other.path_, {});
    fd_ = std::exchange(other.fd_, -1);
    base_ = std::exchange(other.base_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

SharedBarFile::~SharedBarFile() { reset(); }

void SharedBarFile::reset() {
  if (base_ != nullptr) ::munmap(base_, size_);
  if (fd_ >= 0) ::close(fd_);
  if (!path_.empty()) ::unlink(path_.c_str());
  base_ = nullptr;
  fd_ = -1;
  size_ = 0;
  path_.clear();
}

std::uint32_t SharedBarFile::load_acquire(std::uint32_t address) const {
  return swap_big_endian(__atomic_load_n(base_ + address / 4, __ATOMIC_ACQUIRE));
}

std::uint32_t SharedBarFile::load_relaxed(std::uint32_t address) const {
  return swap_big_endian(__atomic_load_n(base_ + address / 4, __ATOMIC_RELAXED));
}

void SharedBarFile::store_relaxed(std::uint32_t address, std::uint32_t value) {
  __atomic_store_n(base_ + address / 4, swap_big_endian(value), __ATOMIC_RELAXED);
}

void SharedBarFile::store_release(std::uint32_t address, std::uint32_t value) {
  __atomic_store_n(base_ + address / 4, swap_big_endian(value), __ATOMIC_RELEASE);
}

bool SharedBarFile::replace_release(std::uint32_t address, std::uint32_t expected, std::uint32_t desired) {
  std::uint32_t want = swap_big_endian(expected);
  return __atomic_compare_exchange_n(base_ + address / 4, &want, swap_big_endian(desired), false,
                                     __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

}  // namespace openflint::sim
