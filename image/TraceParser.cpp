// TraceParser: the Linux driver's message reassembly over a bounded, memory-safe message store.
#include "image/TraceParser.h"

#include <algorithm>

#include "image/TraceMessageFormat.h"

namespace openflint {
namespace {

constexpr std::uint64_t kParserMask6_0 = 0x7f;
constexpr std::uint64_t kParserMask52_7 = ((std::uint64_t{1} << 53) - 1) & ~kParserMask6_0;

std::string raw_word_text(std::uint64_t word, bool little_endian_host) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s = "0x";
  // Byte k of the word (k = 0 the most significant); a little-endian load reverses them.
  for (int i = 0; i < 8; ++i) {
    const int k = little_endian_host ? 7 - i : i;
    const auto byte = static_cast<unsigned>(word >> (56 - 8 * k)) & 0xff;
    s += kHex[byte >> 4];
    s += kHex[byte & 0xf];
  }
  return s;
}

}  // namespace

void TraceParser::feed(std::uint64_t word, std::vector<TraceRecord>& out) {
  ++stats_.events;
  const TraceEvent event = decode_trace_event(word, config_.ids);
  if (const auto* s = std::get_if<StringTraceEvent>(&event)) on_string(*s, word);
  else if (const auto* t = std::get_if<TimestampTraceEvent>(&event)) on_timestamp(*t, out);
  else ++stats_.unrecognized;
}

Result<std::vector<TraceRecord>> TraceParser::feed_bytes(std::span<const std::uint8_t> bytes) {
  if (bytes.size() % 8 != 0)
    return make_error(ErrorCode::InvalidArgument,
                      "trace events: " + std::to_string(bytes.size()) + " bytes is not a whole number of 8-byte events");
  std::vector<TraceRecord> out;
  for (std::size_t i = 0; i < bytes.size(); i += 8) feed(load_trace_word(bytes.subspan(i).first<8>()), out);
  return out;
}

void TraceParser::reset() {
  messages_.clear();
  keyed_.clear();
  ready_.clear();
}

void TraceParser::on_string(const StringTraceEvent& e, std::uint64_t word) {
  const Key key{e.event_id, e.tmsn};
  if (e.tdsn == 0) {
    auto format = db_.lookup(e.string_param);
    if (!format) {
      if (format.error().code() == ErrorCode::InvalidImage) ++stats_.unterminated_strings;
      add_raw(e, word);
      return;
    }
    if (const auto old = keyed_.find(key); old != keyed_.end()) {
      const std::uint64_t serial = old->second;
      keyed_.erase(old);
      if (!messages_.at(serial).ready) erase(serial);
      else messages_.at(serial).keyed = false;
    }
    Message m;
    m.event_id = e.event_id;
    m.tmsn = e.tmsn;
    m.timestamp7 = e.timestamp7;
    m.lost = e.lost;
    m.format = *format;
    m.expected = count_trace_params(m.format);
    m.keyed = true;
    const std::uint64_t serial = add_message(std::move(m));
    keyed_[key] = serial;
    if (messages_.at(serial).expected == 0) make_ready(serial);
    return;
  }
  const auto it = keyed_.find(key);
  if (it == keyed_.end()) {
    add_raw(e, word);
    return;
  }
  const std::uint64_t serial = it->second;
  Message& m = messages_.at(serial);
  ++m.received;
  if (m.received > kMaxParams) {
    ++stats_.excess_params;
    if (!m.ready) make_ready(serial);
    return;
  }
  m.params.push_back(e.string_param);
  if (m.received == m.expected && !m.ready) make_ready(serial);
}

void TraceParser::add_raw(const StringTraceEvent& e, std::uint64_t word) {
  ++stats_.raw_messages;
  Message m;
  m.event_id = e.event_id;
  m.tmsn = e.tmsn;
  m.timestamp7 = e.timestamp7;
  m.lost = e.lost;
  m.raw = true;
  m.raw_text = raw_word_text(word, config_.raw_as_little_endian_host);
  make_ready(add_message(std::move(m)));
}

std::uint64_t TraceParser::add_message(Message m) {
  if (messages_.size() - ready_.size() >= kMaxPending) {
    // The oldest message still waiting for parameters goes.
    const auto oldest = std::find_if(messages_.begin(), messages_.end(), [](const auto& kv) { return !kv.second.ready; });
    if (oldest != messages_.end()) {
      ++stats_.dropped;
      erase(oldest->first);
    }
  }
  const std::uint64_t serial = next_serial_++;
  messages_.emplace(serial, std::move(m));
  return serial;
}

void TraceParser::make_ready(std::uint64_t serial) {
  if (ready_.size() >= kMaxReady) {
    ++stats_.dropped;
    erase(ready_.front());
  }
  messages_.at(serial).ready = true;
  ready_.push_back(serial);
}

void TraceParser::erase(std::uint64_t serial) {
  const auto it = messages_.find(serial);
  if (it == messages_.end()) return;
  if (it->second.keyed) {
    const auto k = keyed_.find(Key{it->second.event_id, it->second.tmsn});
    if (k != keyed_.end() && k->second == serial) keyed_.erase(k);
  }
  if (it->second.ready) ready_.erase(std::find(ready_.begin(), ready_.end(), serial));
  messages_.erase(it);
}

TraceRecord TraceParser::render(const Message& m, std::uint64_t timestamp) {
  TraceRecord r;
  r.timestamp = timestamp;
  r.lost = m.lost;
  r.event_id = m.event_id;
  if (m.raw) {
    r.message = m.raw_text;
    return r;
  }
  TraceMessageText t = format_trace_message(rewrite_trace_format(m.format), m.params);
  if (!t.clean()) ++stats_.format_problems;
  r.message = std::move(t.text);
  return r;
}

void TraceParser::on_timestamp(const TimestampTraceEvent& e, std::vector<TraceRecord>& out) {
  if (e.unreliable(config_.trc_ver)) {
    ++stats_.unreliable_timestamps;
    return;
  }
  const std::uint64_t t = e.timestamp;
  const std::vector<std::uint64_t> ready = std::move(ready_);
  ready_.clear();
  for (const std::uint64_t serial : ready) {
    Message& m = messages_.at(serial);
    const std::uint64_t ts7 = m.timestamp7 & kParserMask6_0;
    const std::uint64_t ts = ts7 < (t & kParserMask6_0) ? (t & kParserMask52_7) | ts7 : ((t - 1) & kParserMask52_7) | ts7;
    out.push_back(render(m, ts));
    ++stats_.emitted;
    m.ready = false;  // already out of ready_
    erase(serial);
  }
}

}  // namespace openflint
