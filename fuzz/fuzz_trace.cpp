// Fuzz target: the firmware tracer's event words and string DB as a driver decodes them — events, DB lookups, reassembly, message formatting, tracepoint text.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "image/TraceEvent.h"
#include "image/TraceParser.h"
#include "image/TraceRecord.h"
#include "image/TraceStringDb.h"

namespace {

using namespace openflint;

std::uint32_t take32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 | p[3];
}

}  // namespace

// Input: byte 0 flags (bit 0 trc_ver, bit 1 raw words as the firmware wrote them), byte 1
// first_string_trace, byte 2 num_string_trace, byte 3 the section count (mod 9); per section
// 4 bytes base address and 2 bytes size (big-endian; the size as MTRC_CAP says it, the bytes
// that follow may be fewer: the rest stays zero as an unread tail would); then each section's
// bytes; then the event words, 8 bytes each, big-endian (a partial last word is ignored).
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 4) return 0;
  const TraceParserConfig config{.trc_ver = static_cast<std::uint8_t>(data[0] & 1),
                                 .ids = {data[1], data[2]},
                                 .raw_as_little_endian_host = (data[0] & 2) == 0};
  const std::size_t count = data[3] % 9;
  std::size_t at = 4;
  std::vector<TraceStringSection> sections;
  for (std::size_t i = 0; i < count && at + 6 <= size; ++i, at += 6)
    sections.push_back({take32(data + at), std::uint32_t{data[at + 4]} << 8 | data[at + 5]});
  auto db = TraceStringDb::create(sections);
  if (!db) return 0;
  for (std::size_t i = 0; i < sections.size(); ++i) {
    const std::size_t n = std::min<std::size_t>(sections[i].size, size - at);
    if (!db->store(i, 0, std::span(data + at, n))) __builtin_trap();  // always fits
    at += n;
  }
  TraceParser parser(std::move(db).value(), config);
  std::vector<TraceRecord> records;
  for (; at + 8 <= size; at += 8) {
    const std::uint64_t word = load_trace_word(std::span<const std::uint8_t, 8>(data + at, 8));
    // Every layout covers all 64 bits: decoding and encoding again gives the word back.
    if (encode_trace_event(decode_trace_event(word, config.ids)) != word) __builtin_trap();
    (void)parser.string_db().lookup(static_cast<std::uint32_t>(word));
    parser.feed(word, records);
  }
  TimestampTraceEvent flush;  // a last reliable timestamp releases what is ready
  flush.timestamp = 0x1234567;
  parser.feed(flush.encode(), records);
  for (const TraceRecord& r : records) {
    if (r.timestamp > TimestampTraceEvent::kTimestampMask) __builtin_trap();
    auto back = parse_tracepoint_text(tracepoint_text("0000:03:00.0", r));
    if (!back || !(back->record == r) || back->dbdf != "0000:03:00.0") __builtin_trap();
  }
  return 0;
}
