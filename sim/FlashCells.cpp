// FlashCells: owned or copy-on-write mapped flash bytes.
#include "sim/FlashCells.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

namespace openflint::sim {

FlashCells::~FlashCells() { unmap(); }

FlashCells::FlashCells(const FlashCells& other) : owned_(other.bytes_.begin(), other.bytes_.end()), bytes_(owned_) {}

FlashCells& FlashCells::operator=(const FlashCells& other) {
  if (this == &other) return *this;
  if (other.size() == size()) {
    std::copy(other.begin(), other.end(), begin());  // a mapping stays one: its pages are copied on write
    return *this;
  }
  unmap();
  owned_.assign(other.begin(), other.end());
  bytes_ = owned_;
  return *this;
}

void FlashCells::unmap() {
  if (!mapped_) return;
  ::munmap(bytes_.data(), bytes_.size());
  mapped_ = false;
  bytes_ = owned_;
}

Result<void> FlashCells::map_private(const std::filesystem::path& base) {
  const int fd = ::open(base.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return make_error(ErrorCode::NotFound, "flash base " + base.string() + ": cannot open");
  struct stat st {};
  if (::fstat(fd, &st) != 0 || static_cast<std::size_t>(st.st_size) != size()) {
    ::close(fd);
    return make_error(ErrorCode::InvalidArgument, "flash base " + base.string() + " is not " +
                                                      std::to_string(size()) + " bytes (the chip's size)");
  }
  void* at = ::mmap(nullptr, size(), PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  ::close(fd);  // the mapping keeps the file
  if (at == MAP_FAILED) return make_error(ErrorCode::Io, "flash base " + base.string() + ": mmap failed");
  const std::size_t n = size();
  unmap();
  owned_.clear();
  owned_.shrink_to_fit();
  bytes_ = std::span<std::uint8_t>(static_cast<std::uint8_t*>(at), n);
  mapped_ = true;
  return {};
}

}  // namespace openflint::sim
