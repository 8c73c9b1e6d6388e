// TraceEvent: bit placement of the tracer's three event layouts and the kernel's classification.
#include "image/TraceEvent.h"

#include "core/BigEndianFields.h"

namespace openflint {
namespace {

constexpr std::uint64_t event_field(std::uint64_t value, unsigned width, unsigned lsb) {
  return (value & ((std::uint64_t{1} << width) - 1)) << lsb;
}
constexpr std::uint64_t event_bits(std::uint64_t word, unsigned width, unsigned lsb) {
  return (word >> lsb) & ((std::uint64_t{1} << width) - 1);
}

}  // namespace

std::uint64_t GenericTraceEvent::encode() const {
  return event_field(lost ? 1 : 0, 1, 63) | event_field(timestamp7, 7, 56) | event_field(event_id, 8, 48) |
         event_field(event_data, 48, 0);
}

GenericTraceEvent GenericTraceEvent::decode(std::uint64_t word) {
  GenericTraceEvent e;
  e.lost = event_bits(word, 1, 63) != 0;
  e.timestamp7 = static_cast<std::uint8_t>(event_bits(word, 7, 56));
  e.event_id = trace_event_id(word);
  e.event_data = event_bits(word, 48, 0);
  return e;
}

std::uint64_t StringTraceEvent::encode() const {
  return event_field(lost ? 1 : 0, 1, 63) | event_field(timestamp7, 7, 56) | event_field(event_id, 8, 48) |
         event_field(tmsn, 13, 35) | event_field(tdsn, 3, 32) | event_field(string_param, 32, 0);
}

StringTraceEvent StringTraceEvent::decode(std::uint64_t word) {
  StringTraceEvent e;
  e.lost = event_bits(word, 1, 63) != 0;
  e.timestamp7 = static_cast<std::uint8_t>(event_bits(word, 7, 56));
  e.event_id = trace_event_id(word);
  e.tmsn = static_cast<std::uint16_t>(event_bits(word, 13, 35));
  e.tdsn = static_cast<std::uint8_t>(event_bits(word, 3, 32));
  e.string_param = static_cast<std::uint32_t>(word);
  return e;
}

bool TimestampTraceEvent::unreliable(std::uint8_t trc_ver) const {
  return trc_ver == 0 ? (urts >> 2 & 1) != 0 : (urts & 1) != 0;
}

std::uint64_t TimestampTraceEvent::encode() const {
  const std::uint64_t ts = timestamp & kTimestampMask;
  return event_field(ts, 8, 56) | event_field(kEventId, 8, 48) | event_field(urts, 3, 45) |
         event_field(ts >> 40, 13, 32) | event_field(ts >> 8, 32, 0);
}

TimestampTraceEvent TimestampTraceEvent::decode(std::uint64_t word) {
  TimestampTraceEvent e;
  e.urts = static_cast<std::uint8_t>(event_bits(word, 3, 45));
  e.timestamp = event_bits(word, 13, 32) << 40 | event_bits(word, 32, 0) << 8 | event_bits(word, 8, 56);
  return e;
}

TraceEventKind TraceEventIds::classify(std::uint8_t event_id) const {
  if (event_id == TimestampTraceEvent::kEventId) return TraceEventKind::Timestamp;
  const unsigned last = unsigned{first_string_trace} + num_string_trace;
  if (event_id >= first_string_trace && event_id <= last) return TraceEventKind::String;
  return TraceEventKind::Unrecognized;
}

TraceEvent decode_trace_event(std::uint64_t word, TraceEventIds ids) {
  switch (ids.classify(trace_event_id(word))) {
    case TraceEventKind::Timestamp: return TimestampTraceEvent::decode(word);
    case TraceEventKind::String: return StringTraceEvent::decode(word);
    case TraceEventKind::Unrecognized: break;
  }
  return GenericTraceEvent::decode(word);
}

std::uint64_t encode_trace_event(const TraceEvent& event) {
  return std::visit([](const auto& e) { return e.encode(); }, event);
}

std::uint64_t load_trace_word(std::span<const std::uint8_t, 8> bytes) { return be::get64(bytes.data(), 0); }

std::array<std::uint8_t, 8> store_trace_word(std::uint64_t word) {
  std::array<std::uint8_t, 8> out{};
  be::put64(out.data(), 0, word);
  return out;
}

}  // namespace openflint
