// TraceStringDbBuilder: lays out a firmware string database from format strings (for simulated firmware and generated images).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/Result.h"
#include "image/TraceStringDb.h"

namespace openflint {

struct TraceStringDbLayout {
  std::uint32_t base_address = 0x1000;     // the first section's base (its byte 0's pointer)
  std::uint32_t max_section_size = 0x4000; // a non-zero multiple of 64, at most 0xffffc0
};

// The built database: what MTRC_CAP reports (sections), what MTRC_STDB serves (section_bytes),
// and the pointer a string event's first word carries for each format (pointers[i] for
// formats[i]; equal formats share one string).
struct BuiltTraceStrings {
  std::vector<TraceStringSection> sections;
  std::vector<std::vector<std::uint8_t>> section_bytes;
  std::vector<std::uint32_t> pointers;

  // The host's copy as a driver that read every chunk would hold it.
  [[nodiscard]] Result<TraceStringDb> to_string_db() const;
};

// Each section starts with a NUL (the driver's strict lower bound never matches offset 0),
// then NUL-terminated strings, none crossing a section, the section padded with zeros to a
// multiple of 64 (so the driver's 256/64-byte reads cover all of it); sections follow one
// another in the pointer space (base[i+1] = base[i] + size[i]). InvalidArgument for a format
// holding a NUL, one longer than a section can take, more than 8 sections, a bad layout, or
// pointers past 2^32.
[[nodiscard]] Result<BuiltTraceStrings> build_trace_strings(std::span<const std::string_view> formats,
                                                            TraceStringDbLayout layout = {});

}  // namespace openflint
