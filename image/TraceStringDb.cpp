// TraceStringDb: the chunked read plan, bounds-checked storing of chunks, and pointer lookup.
#include "image/TraceStringDb.h"

#include <algorithm>
#include <string>

#include "core/HexString.h"

namespace openflint {

std::vector<TraceStringChunk> trace_string_read_plan(std::uint32_t size) {
  std::vector<TraceStringChunk> plan;
  std::uint32_t offset = 0;
  for (std::uint32_t i = 0; i < size / kTraceStringChunk; ++i, offset += kTraceStringChunk)
    plan.push_back({offset, kTraceStringChunk});
  for (std::uint32_t i = 0; i < (size % kTraceStringChunk) / kTraceStringLeftoverChunk; ++i, offset += kTraceStringLeftoverChunk)
    plan.push_back({offset, kTraceStringLeftoverChunk});
  return plan;
}

Result<TraceStringDb> TraceStringDb::create(std::span<const TraceStringSection> sections) {
  if (sections.size() > kMaxSections)
    return make_error(ErrorCode::InvalidArgument, "trace string db: " + std::to_string(sections.size()) +
                                                      " sections, at most " + std::to_string(kMaxSections));
  TraceStringDb db;
  db.sections_.assign(sections.begin(), sections.end());
  for (const TraceStringSection& s : sections) {
    if (s.size > 0xffffff)
      return make_error(ErrorCode::InvalidArgument, "trace string db: section size " + hex_string(s.size) + " exceeds 24 bits");
    db.bytes_.emplace_back(s.size, 0);
  }
  return db;
}

Result<void> TraceStringDb::store(std::size_t index, std::uint32_t offset, std::span<const std::uint8_t> bytes) {
  if (index >= bytes_.size())
    return make_error(ErrorCode::InvalidArgument, "trace string db: no section " + std::to_string(index));
  std::vector<std::uint8_t>& dest = bytes_[index];
  if (offset > dest.size() || bytes.size() > dest.size() - offset)
    return make_error(ErrorCode::InvalidArgument, "trace string db: " + std::to_string(bytes.size()) + " bytes at offset " +
                                                      std::to_string(offset) + " do not fit section " + std::to_string(index) +
                                                      " (" + std::to_string(dest.size()) + " bytes)");
  std::copy(bytes.begin(), bytes.end(), dest.begin() + offset);
  return {};
}

Result<std::string_view> TraceStringDb::lookup(std::uint32_t ptr) const {
  for (std::size_t i = 0; i < sections_.size(); ++i) {
    const TraceStringSection& s = sections_[i];
    if (s.size == 0) continue;
    // The end is summed in 32 bits as the driver does: a section whose end wraps past 2^32
    // matches nothing there either (and no match can reach past the section's bytes).
    const std::uint32_t end = s.base_address + s.size;
    if (!(ptr > s.base_address && ptr < end)) continue;
    const std::vector<std::uint8_t>& b = bytes_[i];
    const std::size_t start = ptr - s.base_address;
    const auto nul = std::find(b.begin() + static_cast<std::ptrdiff_t>(start), b.end(), std::uint8_t{0});
    if (nul == b.end())
      return make_error(ErrorCode::InvalidImage, "trace string db: the string at " + hex_string(ptr) + " (section " +
                                                     std::to_string(i) + ", offset " + hex_string(start) +
                                                     ") has no terminating NUL before the section ends");
    return std::string_view(reinterpret_cast<const char*>(b.data()) + start, static_cast<std::size_t>(nul - b.begin()) - start);
  }
  return make_error(ErrorCode::NotFound, "trace string db: no section holds string pointer " + hex_string(ptr));
}

}  // namespace openflint
