// Fuzz target: the TRACE_STRINGS image section (image/FirmwareTraceStrings) as a simulated firmware decodes it at boot, and the string DB built from what it gives.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "image/FirmwareTraceStrings.h"
#include "image/TraceStringDbBuilder.h"

// Input: the section's bytes. A decoded section encodes back to a section that decodes to the
// same formats, and every format the builder places is found again at its pointer.
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace openflint;
  auto formats = decode_trace_strings(std::span(data, size));
  if (!formats) return 0;
  if (formats->size() > kMaxTraceStringsFormats) __builtin_trap();
  const std::vector<std::string_view> views(formats->begin(), formats->end());
  auto again = encode_trace_strings(views);
  if (!again) __builtin_trap();  // what decodes is within the encoder's bounds
  auto back = decode_trace_strings(*again);
  if (!back || *back != *formats) __builtin_trap();
  auto built = build_trace_strings(views);
  if (!built) return 0;  // e.g. more formats than 8 sections hold
  auto db = built->to_string_db();
  if (!db) __builtin_trap();
  for (std::size_t i = 0; i < views.size(); ++i) {
    auto text = db->lookup(built->pointers[i]);
    if (!text || *text != views[i]) __builtin_trap();
  }
  return 0;
}
