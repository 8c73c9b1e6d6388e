// TraceStringDbBuilder: packs format strings into 64-aligned sections and hands out their pointers.
#include "image/TraceStringDbBuilder.h"

#include <map>
#include <string>

namespace openflint {
namespace {

constexpr std::uint32_t kBuilderAlign = 64;
constexpr std::uint32_t kBuilderMaxSection = 0xffffc0;  // the largest multiple of 64 in 24 bits

std::uint32_t round_up_64(std::uint32_t n) { return (n + kBuilderAlign - 1) / kBuilderAlign * kBuilderAlign; }

}  // namespace

Result<TraceStringDb> BuiltTraceStrings::to_string_db() const {
  OF_ASSIGN(TraceStringDb db, TraceStringDb::create(sections));
  for (std::size_t i = 0; i < section_bytes.size(); ++i) OF_TRY(db.store(i, 0, section_bytes[i]));
  return db;
}

Result<BuiltTraceStrings> build_trace_strings(std::span<const std::string_view> formats, TraceStringDbLayout layout) {
  if (layout.max_section_size == 0 || layout.max_section_size % kBuilderAlign != 0 ||
      layout.max_section_size > kBuilderMaxSection)
    return make_error(ErrorCode::InvalidArgument, "trace strings: section size " + std::to_string(layout.max_section_size) +
                                                      " is not a multiple of 64 in 64.." + std::to_string(kBuilderMaxSection));
  BuiltTraceStrings out;
  std::map<std::string_view, std::uint32_t> placed;
  std::uint64_t base = layout.base_address;
  std::vector<std::uint8_t> current{0};  // the leading NUL
  const auto close_section = [&]() -> Result<void> {
    const std::uint32_t size = round_up_64(static_cast<std::uint32_t>(current.size()));
    if (out.sections.size() == TraceStringDb::kMaxSections)
      return make_error(ErrorCode::InvalidArgument, "trace strings: the formats need more than " +
                                                        std::to_string(TraceStringDb::kMaxSections) + " sections");
    current.resize(size, 0);
    out.sections.push_back({static_cast<std::uint32_t>(base), size});
    out.section_bytes.push_back(std::move(current));
    base += size;
    current.assign(1, 0);
    return {};
  };
  for (std::size_t i = 0; i < formats.size(); ++i) {
    const std::string_view f = formats[i];
    if (f.find('\0') != std::string_view::npos)
      return make_error(ErrorCode::InvalidArgument, "trace strings: format " + std::to_string(i) + " holds a NUL");
    if (f.size() + 2 > layout.max_section_size)
      return make_error(ErrorCode::InvalidArgument, "trace strings: format " + std::to_string(i) + " (" +
                                                        std::to_string(f.size()) + " bytes) does not fit a section of " +
                                                        std::to_string(layout.max_section_size));
    if (const auto it = placed.find(f); it != placed.end()) {
      out.pointers.push_back(it->second);
      continue;
    }
    if (current.size() + f.size() + 1 > layout.max_section_size) OF_TRY(close_section());
    const std::uint64_t ptr = base + current.size();
    if (ptr + f.size() + 1 > 0xffffffffu)
      return make_error(ErrorCode::InvalidArgument, "trace strings: the database runs past 32-bit string pointers");
    current.insert(current.end(), f.begin(), f.end());
    current.push_back(0);
    placed.emplace(f, static_cast<std::uint32_t>(ptr));
    out.pointers.push_back(static_cast<std::uint32_t>(ptr));
  }
  if (current.size() > 1 || out.sections.empty()) OF_TRY(close_section());
  if (base > 0xffffffffu)  // the driver sums base + size in 32 bits: the end must not wrap
    return make_error(ErrorCode::InvalidArgument, "trace strings: the database runs past 32-bit string pointers");
  return out;
}

}  // namespace openflint
