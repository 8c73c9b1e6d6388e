// TraceParser: turns the tracer's event words into messages as the Linux mlx5 driver does (reassembly, string DB, timestamps).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/Result.h"
#include "image/TraceEvent.h"
#include "image/TraceRecord.h"
#include "image/TraceStringDb.h"

namespace openflint {

// What MTRC_CAP told the driver, and how raw words are shown.
struct TraceParserConfig {
  std::uint8_t trc_ver = 0;
  TraceEventIds ids;
  // A word with no string (no DB match, no pending message) prints as "0x%08x%08x" of the
  // 64-bit word as the driver loads it from the big-endian buffer: on a little-endian host (the
  // default, what a kernel on x86 prints) that is the word's bytes in reverse order; false
  // prints the word as the firmware wrote it.
  bool raw_as_little_endian_host = true;
};

// What the parser saw that a reader may want to know; the parser never prints.
struct TraceParserStats {
  std::size_t events = 0;
  std::size_t unrecognized = 0;           // neither string nor timestamp: ignored
  std::size_t unreliable_timestamps = 0;  // ignored, emit nothing
  std::size_t raw_messages = 0;           // shown as the raw word
  std::size_t unterminated_strings = 0;   // a pointer into the DB whose string has no NUL (shown raw)
  std::size_t excess_params = 0;          // parameter events past the driver's 7
  std::size_t dropped = 0;                // pending/ready messages dropped at the bounds below
  std::size_t format_problems = 0;        // messages whose text carries a MISSING/UNSUPPORTED marker or was cut
  std::size_t emitted = 0;
};

// Reassembly (fw-trace-and-fwctl.md A2; Linux fw_tracer.c):
// - a string event with tdsn 0 starts a message keyed by (event_id, tmsn): its string_param is a
//   DB pointer; the format's parameter count is rewrite_trace_format + count_trace_params; with
//   0 parameters it is ready at once. A new start with a pending message's key replaces it
//   (the driver leaks the old one unprinted; a ready one is still printed);
// - tdsn != 0 appends string_param to that message; at most 7 are kept, and the 8th makes it
//   ready anyway; it is ready when the count is reached. A ready message keeps its key until
//   printed, so further parameter events for it are absorbed, as in the driver;
// - no DB match (or an unterminated string) or no pending message: a raw message, ready at once.
//   Unlike the driver, a raw message does not take key (event_id, 0): later parameter events
//   cannot append to (and corrupt) it;
// - a reliable timestamp event T emits every ready message, in the order they became ready,
//   with the timestamp (T & bits 52..7) | ts7 when ts7 < T & 0x7f, else ((T - 1) & bits 52..7) | ts7.
// Bounds the driver lacks (a hostile stream must not grow memory): at most kMaxPending messages
// waiting for parameters and kMaxReady waiting for a timestamp; past them the oldest is dropped.
class TraceParser {
 public:
  static constexpr std::size_t kMaxParams = 7;
  static constexpr std::size_t kMaxPending = 4096;
  static constexpr std::size_t kMaxReady = 65536;

  TraceParser(TraceStringDb db, TraceParserConfig config) : db_(std::move(db)), config_(config) {}
  // Pending messages view their formats inside db_: moving keeps the bytes where they are, a copy would not.
  TraceParser(TraceParser&&) = default;
  TraceParser& operator=(TraceParser&&) = default;
  TraceParser(const TraceParser&) = delete;
  TraceParser& operator=(const TraceParser&) = delete;

  // One event word; the messages a timestamp event releases are appended to `out`.
  void feed(std::uint64_t word, std::vector<TraceRecord>& out);
  // Big-endian words (a block of the trace buffer); InvalidArgument unless a multiple of 8 bytes.
  [[nodiscard]] Result<std::vector<TraceRecord>> feed_bytes(std::span<const std::uint8_t> bytes);

  // Forgets pending and ready messages (the driver's cleanup on restart); stats stay.
  void reset();
  [[nodiscard]] std::size_t pending() const { return messages_.size() - ready_.size(); }
  [[nodiscard]] std::size_t ready() const { return ready_.size(); }
  [[nodiscard]] const TraceParserStats& stats() const { return stats_; }
  [[nodiscard]] const TraceStringDb& string_db() const { return db_; }

 private:
  struct Message {
    std::uint8_t event_id = 0;
    std::uint8_t timestamp7 = 0;
    bool lost = false;
    bool ready = false;
    bool keyed = false;
    std::uint16_t tmsn = 0;
    std::string_view format;  // in db_, as stored (rewritten when printed)
    std::string raw_text;     // a raw message's text
    bool raw = false;
    std::size_t expected = 0;
    std::size_t received = 0;
    std::vector<std::uint32_t> params;
  };
  using Key = std::pair<std::uint8_t, std::uint16_t>;

  void on_string(const StringTraceEvent& e, std::uint64_t word);
  void on_timestamp(const TimestampTraceEvent& e, std::vector<TraceRecord>& out);
  void add_raw(const StringTraceEvent& e, std::uint64_t word);
  std::uint64_t add_message(Message m);
  void make_ready(std::uint64_t serial);
  void erase(std::uint64_t serial);
  TraceRecord render(const Message& m, std::uint64_t timestamp);

  TraceStringDb db_;
  TraceParserConfig config_;
  TraceParserStats stats_;
  std::uint64_t next_serial_ = 0;
  std::map<std::uint64_t, Message> messages_;  // by arrival; pending and ready
  std::map<Key, std::uint64_t> keyed_;         // (event_id, tmsn) → message
  std::vector<std::uint64_t> ready_;           // in the order they became ready
};

}  // namespace openflint
