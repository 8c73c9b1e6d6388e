// FirmwareTracer: string DB, settings, filtering, and the blocks of event words the simulated firmware writes.
#include "sim/FirmwareTracer.h"

#include <algorithm>
#include <chrono>

#include "image/TraceEvent.h"

namespace openflint::sim {
namespace {

constexpr std::uint64_t kTraceWindowMask = ~std::uint64_t{0x7f};  // timestamp bits 52..7 a block's events share
constexpr std::size_t kTraceMaxMessageParams = 7;                 // the driver keeps 7 (tdsn is 3 bits)

std::uint64_t steady_microseconds() {
  const auto since = std::chrono::steady_clock::now().time_since_epoch();
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(since).count());
}

}  // namespace

FirmwareTracer::FirmwareTracer(const FirmwareTracerInfo& info) : info_(&info), ring_(kTraceBlocks) {
  for (auto& block : ring_) block.fill(0);
}

void FirmwareTracer::load_strings(const std::optional<std::vector<std::string>>& formats) {
  std::lock_guard guard(mutex_);
  strings_.reset();
  if (!formats) return;
  const std::vector<std::string_view> views(formats->begin(), formats->end());
  auto built = build_trace_strings(views);
  if (built) strings_ = std::move(*built);  // formats a DB cannot hold: none (events print raw)
}

std::optional<BuiltTraceStrings> FirmwareTracer::strings() const {
  std::lock_guard guard(mutex_);
  return strings_;
}

Result<std::vector<std::uint8_t>> FirmwareTracer::read_strings(const MtrcStdbRegister& request,
                                                               std::uint32_t max_read) const {
  std::lock_guard guard(mutex_);
  if (!strings_ || request.string_db_index >= strings_->sections.size())
    return make_error(ErrorCode::InvalidArgument, "mtrc_stdb: no string-DB section " + std::to_string(request.string_db_index));
  OF_TRY(request.check_request(strings_->sections[request.string_db_index].size, max_read));
  const std::vector<std::uint8_t>& section = strings_->section_bytes[request.string_db_index];
  const auto from = section.begin() + static_cast<std::ptrdiff_t>(request.start_offset);
  return std::vector<std::uint8_t>(from, from + static_cast<std::ptrdiff_t>(request.read_size));
}

std::optional<std::uint8_t> FirmwareTracer::class_bit(const FirmwareTraceMessageInfo& info) const {
  for (const std::string_view name : {info.hca_class, info.switch_class})
    for (const TraceClass& c : info_->classes)
      if (c.name == name) return c.bit;
  return std::nullopt;
}

void FirmwareTracer::trace(FirmwareTraceMessage message, std::initializer_list<std::uint32_t> params) {
  std::lock_guard guard(mutex_);
  log_locked(message, std::span(params.begin(), params.size()));
}

std::uint64_t FirmwareTracer::clock_locked() const {
  return (clock_ ? clock_() : steady_microseconds()) & TimestampTraceEvent::kTimestampMask;
}

void FirmwareTracer::log_locked(FirmwareTraceMessage message, std::span<const std::uint32_t> given) {
  const FirmwareTraceMessageInfo& info = firmware_trace_message(message);
  const auto bit = class_bit(info);
  if (!bit || (settings_.mask >> *bit & 1) == 0 || static_cast<std::uint8_t>(info.level) < settings_.level) {
    ++counters_.messages_filtered;
    return;
  }
  if (settings_.trace_status != MtrcCtrlRegister::kStatusActive || settings_.trace_mode != MtrcConfRegister::kModeMemory) {
    ++counters_.messages_discarded;
    return;
  }
  const std::span<const std::uint32_t> params = given.first(std::min(given.size(), kTraceMaxMessageParams));
  const std::size_t needed = 1 + params.size();
  if (burst_events_ + needed > kBurstEvents) {  // the firmware's FIFO is full until the burst ends
    counters_.events_dropped += needed;
    ++counters_.messages_dropped;
    lost_pending_ = true;
    return;
  }
  const std::uint64_t ts = std::max(clock_locked(), last_timestamp_ + 1) & TimestampTraceEvent::kTimestampMask;
  if (!block_.empty() && (block_.size() + needed > kTraceBlockWords - 1 || (ts & kTraceWindowMask) != block_window_))
    close_block_locked();
  if (block_.empty()) block_window_ = ts & kTraceWindowMask;
  const std::uint16_t tmsn = next_tmsn_;
  next_tmsn_ = static_cast<std::uint16_t>((next_tmsn_ + 1) & 0x1fff);
  const auto index = static_cast<std::size_t>(message);
  // Without a string DB the first word carries the message's number: the driver prints it raw.
  const std::uint32_t pointer = strings_ && index < strings_->pointers.size() ? strings_->pointers[index]
                                                                             : static_cast<std::uint32_t>(index);
  StringTraceEvent e{.lost = lost_pending_,
                     .timestamp7 = static_cast<std::uint8_t>(ts & 0x7f),
                     .event_id = kStringEventId,
                     .tmsn = tmsn,
                     .tdsn = 0,
                     .string_param = pointer};
  block_.push_back(e.encode());
  e.lost = false;
  for (std::size_t i = 0; i < params.size(); ++i) {
    e.tdsn = static_cast<std::uint8_t>(i + 1);
    e.string_param = params[i];
    block_.push_back(e.encode());
  }
  recent_.push_back(TracedMessage{.message = message,
                                  .params = std::vector<std::uint32_t>(params.begin(), params.end()),
                                  .timestamp = ts,
                                  .lost = lost_pending_});
  if (recent_.size() > kRecentMessages) recent_.pop_front();
  lost_pending_ = false;
  last_timestamp_ = ts;
  burst_events_ += needed;
  counters_.events_written += needed;
  ++counters_.messages_written;
}

void FirmwareTracer::close_block_locked() {
  if (block_.empty()) return;
  const GenericTraceEvent pad{.lost = false, .timestamp7 = 0, .event_id = kPadEventId, .event_data = 0};
  block_.resize(kTraceBlockWords - 1, pad.encode());
  // T = the last message's timestamp + 1: (T & bits 52..7) | ts7 (or (T - 1)'s when T starts the
  // next window) gives back every message's exact timestamp (docs/trace.md).
  const TimestampTraceEvent stamp{.timestamp = (last_timestamp_ + 1) & TimestampTraceEvent::kTimestampMask, .urts = 0};
  block_.push_back(stamp.encode());
  const std::size_t blocks = std::min(kTraceBlocks, std::size_t{16} << settings_.log_trace_buffer_size);
  if (next_block_ >= blocks) next_block_ = 0;
  auto& out = ring_[next_block_];
  for (std::size_t i = 0; i < block_.size(); ++i) {
    const auto word = store_trace_word(block_[i]);
    std::copy(word.begin(), word.end(), out.begin() + static_cast<std::ptrdiff_t>(8 * i));
  }
  next_block_ = (next_block_ + 1) % blocks;
  block_.clear();
  ++counters_.blocks_written;
}

void FirmwareTracer::end_burst() {
  std::lock_guard guard(mutex_);
  close_block_locked();
  burst_events_ = 0;
}

MtrcCapRegister FirmwareTracer::capabilities() const {
  std::lock_guard guard(mutex_);
  MtrcCapRegister cap;
  cap.trace_owner = settings_.owner;
  cap.trace_to_memory = info_->host_memory_mode;
  cap.trc_ver = kTrcVer;
  cap.first_string_trace = kFirstStringTrace;
  cap.num_string_trace = kNumStringTrace;
  cap.tracer_capabilities = info_->host_memory_mode ? 0x3 : 0x1;  // bit 0 FIFO, bit 1 MEM
  cap.log_max_trace_buffer_size = info_->host_memory_mode ? kLogMaxTraceBufferSize : 0;
  if (strings_) {
    cap.num_string_db = static_cast<std::uint8_t>(strings_->sections.size());
    for (std::size_t i = 0; i < strings_->sections.size() && i < cap.string_db_param.size(); ++i)
      cap.string_db_param[i] = {.base_address = strings_->sections[i].base_address, .size = strings_->sections[i].size};
  }
  return cap;
}

bool FirmwareTracer::request_ownership(bool take) {
  std::lock_guard guard(mutex_);
  if (!take) {
    if (settings_.owner) log_locked(FirmwareTraceMessage::OwnerReleased, {});
    settings_.owner = false;
    return false;
  }
  if (settings_.owner) return false;  // someone owns it: refused
  settings_.owner = true;
  log_locked(FirmwareTraceMessage::OwnerTaken, {});
  return true;
}

Result<void> FirmwareTracer::configure(const MtrcConfRegister& conf) {
  std::lock_guard guard(mutex_);
  if (conf.trace_mode != MtrcConfRegister::kModeFifo && conf.trace_mode != MtrcConfRegister::kModeMemory)
    return make_error(ErrorCode::InvalidArgument, "mtrc_conf: trace_mode " + std::to_string(conf.trace_mode) + " is unknown");
  if (conf.trace_mode == MtrcConfRegister::kModeMemory && !info_->host_memory_mode)
    return make_error(ErrorCode::InvalidArgument, "mtrc_conf: this tracer has no host-memory mode");
  if (conf.log_trace_buffer_size > kLogMaxTraceBufferSize)
    return make_error(ErrorCode::InvalidArgument, "mtrc_conf: log_trace_buffer_size " +
                                                      std::to_string(conf.log_trace_buffer_size) + " is past the maximum 6");
  settings_.trace_mode = conf.trace_mode;
  settings_.log_trace_buffer_size = conf.log_trace_buffer_size;
  settings_.trace_mkey = conf.trace_mkey;
  return {};
}

MtrcConfRegister FirmwareTracer::configuration() const {
  std::lock_guard guard(mutex_);
  MtrcConfRegister c;
  c.trace_mode = settings_.trace_mode;
  c.log_trace_buffer_size = settings_.log_trace_buffer_size;
  c.trace_mkey = settings_.trace_mkey;
  return c;
}

Result<void> FirmwareTracer::control(const MtrcCtrlRegister& ctrl) {
  std::lock_guard guard(mutex_);
  if ((ctrl.modify_field_select & MtrcCtrlRegister::kSelectTraceStatus) != 0) {
    if (ctrl.trace_status > MtrcCtrlRegister::kStatusActive)
      return make_error(ErrorCode::InvalidArgument, "mtrc_ctrl: trace_status " + std::to_string(ctrl.trace_status) + " is unknown");
    if (ctrl.trace_status == MtrcCtrlRegister::kStatusActive && settings_.trace_status != ctrl.trace_status) {
      // A fresh start writes from the buffer's first block, as the driver reads from it (its
      // consumer index and last timestamp reset); the old contents are gone.
      close_block_locked();
      for (auto& block : ring_) block.fill(0);
      next_block_ = 0;
    }
    settings_.trace_status = ctrl.trace_status;
  }
  if (ctrl.arm_event) arm_event_ = true;
  return {};
}

MtrcCtrlRegister FirmwareTracer::control_status() const {
  std::lock_guard guard(mutex_);
  MtrcCtrlRegister c;
  c.trace_status = settings_.trace_status;
  c.current_timestamp = std::max(clock_locked(), last_timestamp_);
  return c;
}

Result<void> FirmwareTracer::set_itrace(std::uint32_t mask, std::uint8_t level, std::uint16_t delay_us) {
  std::lock_guard guard(mutex_);
  if (level > static_cast<std::uint8_t>(TraceLevel::Error))
    return make_error(ErrorCode::InvalidArgument, "set_itrace: log_level " + std::to_string(level) + " is past ERROR (3)");
  // Traced under the mask and level it replaces: a new mask without the ICMD class would
  // otherwise hide its own change.
  const std::array<std::uint32_t, 3> params{mask, level, delay_us};
  log_locked(FirmwareTraceMessage::SetItrace, params);
  settings_.mask = mask;
  settings_.level = level;
  return {};
}

Result<void> FirmwareTracer::read_block(std::size_t index, std::span<std::uint8_t, kTraceBlockBytes> out) const {
  if (index >= kTraceBlocks)
    return make_error(ErrorCode::InvalidArgument, "trace block " + std::to_string(index) + " is past the " +
                                                      std::to_string(kTraceBlocks) + "-block buffer");
  std::lock_guard guard(mutex_);
  std::copy(ring_[index].begin(), ring_[index].end(), out.begin());
  return {};
}

std::size_t FirmwareTracer::blocks_in_use() const {
  std::lock_guard guard(mutex_);
  return std::min(kTraceBlocks, std::size_t{16} << settings_.log_trace_buffer_size);
}

FirmwareTracerSettings FirmwareTracer::settings() const {
  std::lock_guard guard(mutex_);
  return settings_;
}

void FirmwareTracer::restore(const FirmwareTracerSettings& settings) {
  std::lock_guard guard(mutex_);
  settings_ = settings;
}

void FirmwareTracer::power_on() {
  std::lock_guard guard(mutex_);
  block_.clear();
  burst_events_ = 0;
  lost_pending_ = false;
  arm_event_ = false;
  settings_ = FirmwareTracerSettings{};
}

FirmwareTracerCounters FirmwareTracer::counters() const {
  std::lock_guard guard(mutex_);
  return counters_;
}

std::vector<TracedMessage> FirmwareTracer::recent() const {
  std::lock_guard guard(mutex_);
  return {recent_.begin(), recent_.end()};
}

void FirmwareTracer::set_clock(std::function<std::uint64_t()> clock) {
  std::lock_guard guard(mutex_);
  clock_ = std::move(clock);
}

std::uint64_t FirmwareTracer::now() const {
  std::lock_guard guard(mutex_);
  return clock_locked();
}

}  // namespace openflint::sim
