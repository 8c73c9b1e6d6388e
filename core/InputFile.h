// InputFile: opens a named input as a regular file of bounded size, refusing special files before any read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ByteSource.h"
#include "core/Result.h"

namespace openflint {

// An open, regular, size-checked input file (move-only; closes its descriptor). As a
// ByteSource it reads ranges with pread, so large inputs need not be held in memory.
class InputFile final : public ByteSource {
 public:
  // Refuses a directory, FIFO, device node or socket (Io, nothing read — a FIFO is opened
  // non-blocking so it cannot hang) and a file above `max_size` bytes (InvalidArgument, naming
  // `what` and the limit), before a single byte is read.
  [[nodiscard]] static Result<InputFile> open(const std::string& path, std::uint64_t max_size,
                                              const std::string& what = "input");

  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&& other) noexcept;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile() override;

  [[nodiscard]] int fd() const { return fd_; }
  [[nodiscard]] std::uint64_t size() const override { return size_; }
  [[nodiscard]] Result<void> read(std::uint64_t offset, std::span<std::uint8_t> out) const override;
  // The whole file (its size was checked at open; a file that grew since is cut at that size).
  [[nodiscard]] Result<std::vector<std::uint8_t>> read_all() const;

 private:
  InputFile(int fd, std::uint64_t size, std::string path) : fd_(fd), size_(size), path_(std::move(path)) {}
  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::string path_;
};

// InputFile::open + read_all.
[[nodiscard]] Result<std::vector<std::uint8_t>> read_input_file(const std::string& path, std::uint64_t max_size,
                                                                const std::string& what = "input");

// "directory", "FIFO", "character device", ... for messages; "regular file" for S_IFREG.
[[nodiscard]] std::string file_kind_name(unsigned mode);

}  // namespace openflint
