// FirmwareTracer: a simulated device's firmware tracer — string DB, ownership, mask/level, and the event ring it writes into host memory.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <initializer_list>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/Result.h"
#include "devices/FirmwareTracerInfo.h"
#include "image/FirmwareTraceStrings.h"
#include "image/TraceStringDbBuilder.h"
#include "mtcr/registers/MtrcCapRegister.h"
#include "mtcr/registers/MtrcConfRegister.h"
#include "mtcr/registers/MtrcCtrlRegister.h"
#include "mtcr/registers/MtrcStdbRegister.h"

namespace openflint::sim {

// The host buffer the simulated tracer writes: the Linux driver's 256 KiB (log_trace_buffer_size
// 6), a ring of 256-byte blocks of 32 big-endian event words (fw-trace-and-fwctl.md A2).
inline constexpr std::size_t kTraceBlockBytes = 256;
inline constexpr std::size_t kTraceBlocks = 1024;
inline constexpr std::size_t kTraceBlockWords = kTraceBlockBytes / 8;

// What a save keeps (state.json "tracer"); the event ring, sequence numbers and clock are volatile.
struct FirmwareTracerSettings {
  bool owner = false;                          // MTRC_CAP trace_owner granted to someone
  std::uint32_t mask = 0xffffffff;             // SET_ITRACE unit_mask: every class
  std::uint8_t level = 1;                      // SET_ITRACE log_level: INFO and above
  std::uint8_t trace_mode = MtrcConfRegister::kModeFifo;
  std::uint8_t log_trace_buffer_size = 0;
  std::uint32_t trace_mkey = 0;
  std::uint8_t trace_status = MtrcCtrlRegister::kStatusDisabled;
  friend bool operator==(const FirmwareTracerSettings&, const FirmwareTracerSettings&) = default;
};

struct FirmwareTracerCounters {
  std::uint64_t messages_written = 0;
  std::uint64_t events_written = 0;     // string events (first + parameters), not padding or timestamps
  std::uint64_t events_dropped = 0;     // past the per-burst FIFO: the next written event carries lost
  std::uint64_t messages_dropped = 0;
  std::uint64_t messages_filtered = 0;  // below the level or outside the mask
  std::uint64_t messages_discarded = 0; // tracing not active in memory mode
  std::uint64_t blocks_written = 0;
};

// A message as written to the ring (the last kRecentMessages), for tests and diagnostics.
struct TracedMessage {
  FirmwareTraceMessage message = FirmwareTraceMessage::Boot;
  std::vector<std::uint32_t> params;
  std::uint64_t timestamp = 0;
  bool lost = false;
};

// The device side of fw-trace-and-fwctl.md A1-A3, our choices documented in docs/trace.md:
// - MTRC_CAP: trc_ver 1, string events use event ids first_string_trace 0x20 .. 0x2f
//   (num_string_trace 0x0f; we write only 0x20: one iRISC), log_max_trace_buffer_size 6,
//   trace_to_memory from the catalog (HCAs yes, switches FIFO only);
// - the string DB comes from the running image's TRACE_STRINGS section (load_strings), laid out
//   by build_trace_strings; without one (real images, hostile sections) there is none and the
//   first event of a message carries the message's number instead of a pointer (printed raw);
// - messages are logged only when their class bit is in the mask, their level at least the
//   level, trace_status ACTIVE and trace_mode memory;
// - timestamps are the tracer clock (default: microseconds of the host's steady clock, 53 bits),
//   strictly increasing per message; a block holds the events of messages whose timestamps share
//   bits 52..7 and ends with a timestamp event T = its last message's timestamp + 1, which makes
//   the driver's reconstruction exact; unused slots carry event id kPadEventId (unrecognized);
// - a burst (one register access, command or reset: end_burst) takes at most kBurstEvents
//   events; a message that does not fit is dropped whole and the next written event has lost=1.
// Thread-safe (its own mutex, never held while calling out).
class FirmwareTracer {
 public:
  static constexpr std::uint8_t kTrcVer = 1;
  static constexpr std::uint8_t kFirstStringTrace = 0x20;
  static constexpr std::uint8_t kNumStringTrace = 0x0f;
  static constexpr std::uint8_t kStringEventId = kFirstStringTrace;
  static constexpr std::uint8_t kPadEventId = 0x01;
  static constexpr std::uint8_t kLogMaxTraceBufferSize = 6;
  static constexpr std::size_t kBurstEvents = 64;
  static constexpr std::size_t kRecentMessages = 4096;

  explicit FirmwareTracer(const FirmwareTracerInfo& info);

  // The running image's formats (the boot ROM found a TRACE_STRINGS section), or none.
  void load_strings(const std::optional<std::vector<std::string>>& formats);
  // A copy (a reset may replace them while another thread asks).
  [[nodiscard]] std::optional<BuiltTraceStrings> strings() const;
  // MTRC_STDB: `read_size` bytes of section `string_db_index` from `start_offset`, checked with
  // MtrcStdbRegister::check_request (at most `max_read` bytes); InvalidArgument for a section
  // that does not exist (none without a string DB) or a bad chunk.
  [[nodiscard]] Result<std::vector<std::uint8_t>> read_strings(const MtrcStdbRegister& request, std::uint32_t max_read) const;

  // The firmware traces `message` (at most 7 parameters, as the driver keeps).
  void trace(FirmwareTraceMessage message, std::initializer_list<std::uint32_t> params);
  // The end of a burst: the open block is closed (visible to the host) and the FIFO is empty.
  void end_burst();

  // Registers (sim/TracerRegisters): the answers, and the writes' effects.
  [[nodiscard]] MtrcCapRegister capabilities() const;
  // trace_owner = 1: granted (true) only when nobody owns it; 0: released (false).
  bool request_ownership(bool take);
  // InvalidArgument naming the field: a mode other than FIFO/memory, memory mode on a FIFO-only
  // tracer, a buffer larger than log_max.
  [[nodiscard]] Result<void> configure(const MtrcConfRegister& conf);
  [[nodiscard]] MtrcConfRegister configuration() const;
  // modify_field_select bit 0 sets trace_status (0 or 1, else InvalidArgument); arm_event is
  // recorded (the simulator raises no EQ event: a simulated driver polls the ring).
  [[nodiscard]] Result<void> control(const MtrcCtrlRegister& ctrl);
  [[nodiscard]] MtrcCtrlRegister control_status() const;
  // ICMD SET_ITRACE: the new mask and level (level > 3: InvalidArgument); traced itself.
  [[nodiscard]] Result<void> set_itrace(std::uint32_t mask, std::uint8_t level, std::uint16_t delay_us);

  // The block as the device last wrote it (zeros when never written); InvalidArgument past kTraceBlocks.
  [[nodiscard]] Result<void> read_block(std::size_t index, std::span<std::uint8_t, kTraceBlockBytes> out) const;
  // The ring's blocks in use: 16 << log_trace_buffer_size (4 KiB pages of 256-byte blocks), at most kTraceBlocks.
  [[nodiscard]] std::size_t blocks_in_use() const;

  [[nodiscard]] FirmwareTracerSettings settings() const;
  void restore(const FirmwareTracerSettings& settings);
  // Power-on: settings back to their defaults (the ring, host memory, stays).
  void power_on();
  [[nodiscard]] FirmwareTracerCounters counters() const;
  [[nodiscard]] std::vector<TracedMessage> recent() const;
  // The tracer clock (53 bits); tests set a fake one. Null: the default.
  void set_clock(std::function<std::uint64_t()> clock);
  [[nodiscard]] std::uint64_t now() const;

 private:
  void log_locked(FirmwareTraceMessage message, std::span<const std::uint32_t> params);
  void close_block_locked();
  [[nodiscard]] std::uint64_t clock_locked() const;
  [[nodiscard]] std::optional<std::uint8_t> class_bit(const FirmwareTraceMessageInfo& info) const;

  const FirmwareTracerInfo* info_;
  mutable std::mutex mutex_;
  FirmwareTracerSettings settings_;
  std::optional<BuiltTraceStrings> strings_;
  std::vector<std::array<std::uint8_t, kTraceBlockBytes>> ring_;
  std::size_t next_block_ = 0;
  std::vector<std::uint64_t> block_;  // the open block's event words
  std::uint64_t block_window_ = 0;    // timestamp bits 52..7 its events share
  std::uint64_t last_timestamp_ = 0;
  std::uint16_t next_tmsn_ = 0;
  std::size_t burst_events_ = 0;
  bool lost_pending_ = false;
  bool arm_event_ = false;
  FirmwareTracerCounters counters_;
  std::deque<TracedMessage> recent_;
  std::function<std::uint64_t()> clock_;
};

}  // namespace openflint::sim
