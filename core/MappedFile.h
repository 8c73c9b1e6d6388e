// MappedFile: RAII read-only memory mapping of a whole file (move-only).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/InputFile.h"
#include "core/Result.h"

namespace openflint {

class MappedFile {
 public:
  // Refuses special files and files above `max_size` bytes before mapping (see InputFile).
  [[nodiscard]] static Result<MappedFile> open(const std::string& path, std::uint64_t max_size,
                                               const std::string& what = "input");

  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  [[nodiscard]] std::span<const std::uint8_t> bytes() const { return {data_, size_}; }
  [[nodiscard]] std::size_t size() const { return size_; }

 private:
  MappedFile(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  void reset();
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace openflint
