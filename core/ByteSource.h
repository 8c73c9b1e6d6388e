// ByteSource: random-access reads of a fixed-size run of bytes (a file read with pread, or memory).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/Result.h"

namespace openflint {

// Parsers of large inputs (MFA archives up to 1 GiB) read only the ranges they need through
// this interface instead of holding the whole input in memory. Reads are const and keep no
// position, so one source may be shared by several readers.
class ByteSource {
 public:
  virtual ~ByteSource() = default;

  [[nodiscard]] virtual std::uint64_t size() const = 0;
  // Fills all of `out` with the bytes at [offset, offset + out.size()). A range past size()
  // is InvalidImage; a failed read, or a file that shrank since it was sized, is Io.
  [[nodiscard]] virtual Result<void> read(std::uint64_t offset, std::span<std::uint8_t> out) const = 0;

  // The bytes at [offset, offset + length) as a new buffer; callers bound `length` first.
  [[nodiscard]] Result<std::vector<std::uint8_t>> read_range(std::uint64_t offset, std::uint64_t length) const;

 protected:
  ByteSource() = default;
  ByteSource(const ByteSource&) = default;
  ByteSource& operator=(const ByteSource&) = default;
  ByteSource(ByteSource&&) = default;
  ByteSource& operator=(ByteSource&&) = default;
  // The InvalidImage error for a range past the end.
  [[nodiscard]] Unexpected out_of_range(std::uint64_t offset, std::uint64_t length) const;
};

}  // namespace openflint
