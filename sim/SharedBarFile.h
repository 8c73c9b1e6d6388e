// SharedBarFile: a uniquely named, shared-mapped file standing in for a device's BAR0 (RAII).
#pragma once

#include <cstdint>
#include <filesystem>

#include "core/Result.h"

namespace openflint::sim {

// create() makes DIR/openflint-bar-XXXXXX (mkostemp), sizes it with ftruncate (sparse: pages
// exist only once written) and maps it MAP_SHARED. The destructor unmaps, closes and unlinks;
// a tool that still has the file mapped keeps its pages until it unmaps. Dwords are stored
// big-endian, as CR-space sits in a real BAR. Move-only.
class SharedBarFile {
 public:
  [[nodiscard]] static Result<SharedBarFile> create(const std::filesystem::path& directory, std::uint64_t size);

  SharedBarFile(SharedBarFile&& other) noexcept;
  SharedBarFile& operator=(SharedBarFile&& other) noexcept;
  SharedBarFile(const SharedBarFile&) = delete;
  SharedBarFile& operator=(const SharedBarFile&) = delete;
  ~SharedBarFile();

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] std::uint64_t size() const { return size_; }
  [[nodiscard]] bool contains(std::uint32_t address) const { return address % 4 == 0 && address + 4ull <= size_; }

  // Host-order views of the big-endian dword at `address` (which must satisfy contains()).
  [[nodiscard]] std::uint32_t load_acquire(std::uint32_t address) const;
  [[nodiscard]] std::uint32_t load_relaxed(std::uint32_t address) const;
  void store_relaxed(std::uint32_t address, std::uint32_t value);
  void store_release(std::uint32_t address, std::uint32_t value);
  // Stores `desired` (release) only if the dword still holds `expected`: a server's late reply
  // must not overwrite what the tool stored after giving up on it.
  [[nodiscard]] bool replace_release(std::uint32_t address, std::uint32_t expected, std::uint32_t desired);

 private:
  SharedBarFile(std::filesystem::path path, int fd, std::uint32_t* base, std::uint64_t size)
      : path_(std::move(path)), fd_(fd), base_(base), size_(size) {}
  void reset();

  std::filesystem::path path_;
  int fd_ = -1;
  std::uint32_t* base_ = nullptr;
  std::uint64_t size_ = 0;
};

}  // namespace openflint::sim
