// FirmwareTracerInfo: trace masks from mstfwtrace-style text and back.
#include "devices/FirmwareTracerInfo.h"

#include <algorithm>
#include <cctype>

#include "core/HexString.h"
#include "core/NumberText.h"

namespace openflint {
namespace {

bool same_trace_class(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::toupper(static_cast<unsigned char>(x)) == std::toupper(static_cast<unsigned char>(y));
         });
}

std::string known_trace_classes(const FirmwareTracerInfo& tracer) {
  std::string known;
  for (const TraceClass& c : tracer.classes) known += (known.empty() ? "" : ", ") + std::string(c.name);
  return known;
}

}  // namespace

Result<std::uint32_t> parse_trace_mask(const FirmwareTracerInfo& tracer, std::string_view text) {
  if (text.empty()) return make_error(ErrorCode::InvalidArgument, "trace mask: empty");
  if (std::isdigit(static_cast<unsigned char>(text.front())) != 0) {
    OF_ASSIGN(const std::uint64_t n, parse_unsigned(text, 0xffffffffu, "trace mask"));
    return static_cast<std::uint32_t>(n);
  }
  std::uint32_t mask = 0;
  std::size_t start = 0;
  while (true) {
    const std::size_t plus = text.find('+', start);
    const std::string_view part = text.substr(start, plus == std::string_view::npos ? std::string_view::npos : plus - start);
    if (part.empty())
      return make_error(ErrorCode::InvalidArgument, "trace mask '" + std::string(text) + "': an empty class name");
    const auto found = std::find_if(tracer.classes.begin(), tracer.classes.end(),
                                    [&](const TraceClass& c) { return same_trace_class(c.name, part); });
    if (found == tracer.classes.end())
      return make_error(ErrorCode::InvalidArgument, "trace mask: unknown class '" + std::string(part) +
                                                        "' (known: " + known_trace_classes(tracer) + ")");
    mask |= std::uint32_t{1} << found->bit;
    if (plus == std::string_view::npos) return mask;
    start = plus + 1;
  }
}

std::string trace_mask_text(const FirmwareTracerInfo& tracer, std::uint32_t mask) {
  std::string out;
  std::uint32_t rest = mask;
  for (const TraceClass& c : tracer.classes) {
    if ((mask >> c.bit & 1) == 0) continue;
    out += (out.empty() ? "" : "+") + std::string(c.name);
    rest &= ~(std::uint32_t{1} << c.bit);
  }
  if (rest != 0) out += (out.empty() ? "" : "+") + hex_string(rest);
  return out.empty() ? hex_string(0) : out;
}

}  // namespace openflint
