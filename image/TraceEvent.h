// TraceEvent: the firmware tracer's 64-bit event words (generic, string, timestamp), encoded and decoded.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <variant>

namespace openflint {

// Every event is one 64-bit big-endian word, bit 63 the MSB of byte 0 (fw-trace-and-fwctl.md A2;
// Linux mlx5_ifc tracer_*_event). Fields wider than their bits are cut on encode.

// lost [63], timestamp [62:56] (the low 7 bits of the tracer's clock), event_id [55:48],
// event_data [47:0]: what a word of an event_id neither string nor timestamp carries.
struct GenericTraceEvent {
  bool lost = false;
  std::uint8_t timestamp7 = 0;
  std::uint8_t event_id = 0;
  std::uint64_t event_data = 0;  // 48 bits

  [[nodiscard]] std::uint64_t encode() const;
  [[nodiscard]] static GenericTraceEvent decode(std::uint64_t word);
  friend bool operator==(const GenericTraceEvent&, const GenericTraceEvent&) = default;
};

// lost [63], timestamp [62:56], event_id [55:48], tmsn [47:35] (the message's sequence number),
// tdsn [34:32] (0: the message's first event, string_param is a string-DB pointer; otherwise a
// parameter event, string_param is the next 32-bit argument), string_param [31:0].
struct StringTraceEvent {
  bool lost = false;
  std::uint8_t timestamp7 = 0;
  std::uint8_t event_id = 0;
  std::uint16_t tmsn = 0;  // 13 bits
  std::uint8_t tdsn = 0;   // 3 bits
  std::uint32_t string_param = 0;

  [[nodiscard]] std::uint64_t encode() const;
  [[nodiscard]] static StringTraceEvent decode(std::uint64_t word);
  friend bool operator==(const StringTraceEvent&, const StringTraceEvent&) = default;
};

// event_id 0xFF: timestamp bits 7..0 [63:56], event_id [55:48], urts [47:45], timestamp bits
// 52..40 [44:32], timestamp bits 39..8 [31:0]. Bit 63 is also what the driver reads as "lost" for
// every event; on a timestamp event it is timestamp bit 7.
struct TimestampTraceEvent {
  static constexpr std::uint8_t kEventId = 0xff;
  static constexpr std::uint64_t kTimestampMask = (std::uint64_t{1} << 53) - 1;

  std::uint64_t timestamp = 0;  // 53 bits
  std::uint8_t urts = 0;        // 3 bits

  // "Unreliable": urts bit 2 on trc_ver 0, bit 0 on trc_ver 1 (MTRC_CAP.trc_ver). An unreliable
  // timestamp event emits nothing.
  [[nodiscard]] bool unreliable(std::uint8_t trc_ver) const;
  [[nodiscard]] std::uint64_t encode() const;
  [[nodiscard]] static TimestampTraceEvent decode(std::uint64_t word);
  friend bool operator==(const TimestampTraceEvent&, const TimestampTraceEvent&) = default;
};

enum class TraceEventKind : std::uint8_t { Timestamp, String, Unrecognized };

// Which event_ids are string events, from MTRC_CAP: first_string_trace ≤ id ≤
// first_string_trace + num_string_trace. The upper bound is inclusive, as in the Linux driver
// (one id more than num_string_trace says); the sum is taken without wrapping at 8 bits.
struct TraceEventIds {
  std::uint8_t first_string_trace = 0;
  std::uint8_t num_string_trace = 0;

  [[nodiscard]] TraceEventKind classify(std::uint8_t event_id) const;
};

using TraceEvent = std::variant<TimestampTraceEvent, StringTraceEvent, GenericTraceEvent>;

[[nodiscard]] constexpr std::uint8_t trace_event_id(std::uint64_t word) {
  return static_cast<std::uint8_t>(word >> 48);
}
// The word's kind by its event_id, decoded as that kind (Unrecognized: a GenericTraceEvent).
[[nodiscard]] TraceEvent decode_trace_event(std::uint64_t word, TraceEventIds ids);
[[nodiscard]] std::uint64_t encode_trace_event(const TraceEvent& event);

// The word at bytes [0, 8), big-endian, and back.
[[nodiscard]] std::uint64_t load_trace_word(std::span<const std::uint8_t, 8> bytes);
[[nodiscard]] std::array<std::uint8_t, 8> store_trace_word(std::uint64_t word);

}  // namespace openflint
