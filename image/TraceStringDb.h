// TraceStringDb: the host's copy of the firmware tracer's string database, and how it is read and looked up.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/Result.h"

namespace openflint {

// One section as MTRC_CAP reports it (string_db_param[i]): where its strings start in the
// firmware's address space of string pointers, and its size in bytes (24 bits).
struct TraceStringSection {
  std::uint32_t base_address = 0;
  std::uint32_t size = 0;
};

// One MTRC_STDB read: start_offset and read_size within a section.
struct TraceStringChunk {
  std::uint32_t offset = 0;
  std::uint32_t size = 0;
  friend bool operator==(const TraceStringChunk&, const TraceStringChunk&) = default;
};

// fw-trace-and-fwctl.md A3 (Linux mlx5_tracer_read_strings_db): a section is read as size / 256
// chunks of 256 bytes, then (size % 256) / 64 chunks of 64. The last size % 64 bytes are never
// read (the DB is meant to be 64-aligned); in the host's copy they stay zero.
inline constexpr std::uint32_t kTraceStringChunk = 256;
inline constexpr std::uint32_t kTraceStringLeftoverChunk = 64;
[[nodiscard]] std::vector<TraceStringChunk> trace_string_read_plan(std::uint32_t size);

class TraceStringDb {
 public:
  static constexpr std::size_t kMaxSections = 8;

  // Zero-filled sections of the given sizes, to be filled chunk by chunk with `store`. At most
  // kMaxSections (InvalidArgument otherwise); a section of size 0 is kept and never matches.
  [[nodiscard]] static Result<TraceStringDb> create(std::span<const TraceStringSection> sections);

  // Copies a chunk read through MTRC_STDB into section `index` at `offset` (InvalidArgument
  // when it does not fit).
  [[nodiscard]] Result<void> store(std::size_t index, std::uint32_t offset, std::span<const std::uint8_t> bytes);

  // The format string a string event's pointer names: the section with base < ptr < base + size
  // (both bounds strict, as in the Linux driver; a string at offset 0 is unreachable), the text
  // from ptr - base to the next NUL. NotFound when no section holds ptr; InvalidImage when the
  // string runs to the end of its section without a NUL.
  [[nodiscard]] Result<std::string_view> lookup(std::uint32_t ptr) const;

  [[nodiscard]] std::size_t section_count() const { return sections_.size(); }
  [[nodiscard]] TraceStringSection section(std::size_t index) const { return sections_[index]; }
  [[nodiscard]] std::span<const std::uint8_t> section_bytes(std::size_t index) const { return bytes_[index]; }

 private:
  std::vector<TraceStringSection> sections_;
  std::vector<std::vector<std::uint8_t>> bytes_;
};

}  // namespace openflint
