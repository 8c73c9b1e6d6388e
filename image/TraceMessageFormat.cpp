// TraceMessageFormat: the driver's parameter count and a bounded printf subset over 32-bit parameters.
#include "image/TraceMessageFormat.h"

#include <algorithm>

namespace openflint {
namespace {

// One conversion specification after its '%'.
struct TraceConvSpec {
  bool left = false, plus = false, space = false, alt = false, zero = false;
  std::size_t width = 0;
  bool has_precision = false;
  std::size_t precision = 0;
  int narrow_bits = 32;  // hh: 8, h: 16
  bool wide = false;     // l ll j z t L q: a 64-bit slot holding the zero-extended parameter
};

// Reads the parameters one by one; counts the conversions that found none.
class TraceParamCursor {
 public:
  explicit TraceParamCursor(std::span<const std::uint32_t> params) : params_(params) {}
  bool next(std::uint32_t& out) {
    if (used_ >= params_.size()) return false;
    out = params_[used_++];
    return true;
  }

 private:
  std::span<const std::uint32_t> params_;
  std::size_t used_ = 0;
};

std::size_t read_trace_number(std::string_view f, std::size_t& i) {
  std::size_t n = 0;
  while (i < f.size() && f[i] >= '0' && f[i] <= '9') {
    n = std::min<std::size_t>(n * 10 + static_cast<std::size_t>(f[i] - '0'), kMaxTraceMessage);
    ++i;
  }
  return n;
}

std::string trace_digits(std::uint64_t v, unsigned base, bool upper) {
  const char* set = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), set[v % base]);
    v /= base;
  } while (v != 0);
  return s;
}

std::string pad_trace_field(std::string prefix, std::string body, const TraceConvSpec& spec, bool zero_ok) {
  const std::size_t len = prefix.size() + body.size();
  if (spec.width <= len) return prefix + body;
  const std::size_t fill = spec.width - len;
  if (spec.left) return prefix + body + std::string(fill, ' ');
  if (spec.zero && zero_ok) return prefix + std::string(fill, '0') + body;
  return std::string(fill, ' ') + prefix + body;
}

std::string format_trace_integer(char conv, std::uint32_t raw, const TraceConvSpec& spec) {
  std::uint32_t value = raw;
  if (spec.narrow_bits == 16) value &= 0xffff;
  if (spec.narrow_bits == 8) value &= 0xff;
  std::string prefix;
  std::uint64_t magnitude = value;
  if (conv == 'd' || conv == 'i') {
    const std::int64_t s = spec.wide                ? static_cast<std::int64_t>(value)
                           : spec.narrow_bits == 8  ? static_cast<std::int8_t>(value)
                           : spec.narrow_bits == 16 ? static_cast<std::int16_t>(value)
                                                    : static_cast<std::int32_t>(value);
    if (s < 0) prefix = "-";
    else if (spec.plus) prefix = "+";
    else if (spec.space) prefix = " ";
    magnitude = s < 0 ? static_cast<std::uint64_t>(-s) : static_cast<std::uint64_t>(s);
  }
  const unsigned base = conv == 'x' || conv == 'X' ? 16 : conv == 'o' ? 8 : 10;
  std::string body = trace_digits(magnitude, base, conv == 'X');
  if (spec.has_precision) {
    if (spec.precision == 0 && magnitude == 0) body.clear();
    else if (body.size() < spec.precision) body.insert(0, spec.precision - body.size(), '0');
  }
  if (spec.alt && base == 16 && magnitude != 0) prefix = conv == 'X' ? "0X" : "0x";
  if (spec.alt && base == 8 && (body.empty() || body[0] != '0')) body.insert(0, 1, '0');
  return pad_trace_field(prefix, body, spec, !spec.has_precision);
}

// Flags, width, precision and length after a '%' at f[i]; i ends on the conversion character
// (or at f.size() for a specification cut short).
TraceConvSpec parse_trace_spec(std::string_view f, std::size_t& i, TraceParamCursor& params, std::size_t& missing) {
  TraceConvSpec spec;
  for (; i < f.size(); ++i) {
    const char c = f[i];
    if (c == '-') spec.left = true;
    else if (c == '+') spec.plus = true;
    else if (c == ' ') spec.space = true;
    else if (c == '#') spec.alt = true;
    else if (c == '0') spec.zero = true;
    else break;
  }
  if (i < f.size() && f[i] == '*') {
    ++i;
    std::uint32_t w = 0;
    if (!params.next(w)) ++missing;
    const auto sw = static_cast<std::int32_t>(w);
    if (sw < 0) spec.left = true;
    spec.width = std::min<std::size_t>(sw < 0 ? 0u - static_cast<std::uint32_t>(sw) : static_cast<std::uint32_t>(sw), kMaxTraceMessage);
  } else {
    spec.width = read_trace_number(f, i);
  }
  if (i < f.size() && f[i] == '.') {
    ++i;
    spec.has_precision = true;
    if (i < f.size() && f[i] == '*') {
      ++i;
      std::uint32_t p = 0;
      if (!params.next(p)) ++missing;
      const auto sp = static_cast<std::int32_t>(p);
      if (sp < 0) spec.has_precision = false;  // C: a negative precision is taken as omitted
      else spec.precision = std::min<std::size_t>(static_cast<std::uint32_t>(sp), kMaxTraceMessage);
    } else {
      spec.precision = read_trace_number(f, i);
    }
  }
  while (i < f.size()) {
    const char c = f[i];
    if (c == 'h') {
      spec.narrow_bits = spec.narrow_bits == 16 ? 8 : 16;
      spec.wide = false;
    } else if (c == 'l' || c == 'j' || c == 'z' || c == 't' || c == 'L' || c == 'q') {
      spec.narrow_bits = 32;
      spec.wide = true;
    } else {
      break;
    }
    ++i;
  }
  return spec;
}

}  // namespace

std::string rewrite_trace_format(std::string_view format) {
  std::string out(format);
  for (std::size_t at = out.find("%llx"); at != std::string::npos; at = out.find("%llx", at)) out.replace(at, 4, "%x%x");
  return out;
}

std::size_t count_trace_params(std::string_view format) {
  // Each rewrite turns one '%' into two, and no rewrite makes a new "%llx".
  std::size_t n = static_cast<std::size_t>(std::count(format.begin(), format.end(), '%'));
  for (std::size_t at = format.find("%llx"); at != std::string_view::npos; at = format.find("%llx", at + 4)) ++n;
  return n;
}

TraceMessageText format_trace_message(std::string_view format, std::span<const std::uint32_t> params) {
  TraceMessageText out;
  TraceParamCursor cursor(params);
  bool ended = false;
  for (std::size_t i = 0; i < format.size() && !ended && out.text.size() <= kMaxTraceMessage; ++i) {
    if (format[i] != '%') {
      out.text += format[i];
      continue;
    }
    ++i;
    const TraceConvSpec spec = parse_trace_spec(format, i, cursor, out.missing);
    if (i >= format.size()) {
      out.text += "%!(NOVERB)";
      ++out.unsupported;
      break;
    }
    const char conv = format[i];
    if (conv == '%') {
      out.text += '%';
      continue;
    }
    std::uint32_t value = 0;
    const bool known = conv == 'd' || conv == 'i' || conv == 'u' || conv == 'x' || conv == 'X' || conv == 'o' || conv == 'c';
    if (!cursor.next(value)) {
      out.text += std::string("%!") + conv + "(MISSING)";
      ++out.missing;
      continue;
    }
    if (!known) {
      out.text += std::string("%!") + conv + "(UNSUPPORTED)";
      ++out.unsupported;
      continue;
    }
    if (conv == 'c') {
      const auto ch = static_cast<char>(value & 0xff);
      if (ch == '\0') ended = true;  // the driver's string ends at this NUL
      else out.text += pad_trace_field("", std::string(1, ch), spec, false);
      continue;
    }
    out.text += format_trace_integer(conv, value, spec);
  }
  if (out.text.size() > kMaxTraceMessage) {
    out.text.resize(kMaxTraceMessage);
    out.truncated = true;
  }
  return out;
}

Result<std::string> format_trace_message_strict(std::string_view format, std::span<const std::uint32_t> params) {
  TraceMessageText t = format_trace_message(format, params);
  if (t.missing != 0)
    return make_error(ErrorCode::InvalidArgument, "trace message: " + std::to_string(t.missing) + " conversion(s) of '" +
                                                      std::string(format.substr(0, 64)) + "' have no parameter (" +
                                                      std::to_string(params.size()) + " sent)");
  if (t.unsupported != 0)
    return make_error(ErrorCode::InvalidArgument, "trace message: '" + std::string(format.substr(0, 64)) + "' uses " +
                                                      std::to_string(t.unsupported) + " conversion(s) outside %d %i %u %x %X %o %c");
  if (t.truncated)
    return make_error(ErrorCode::InvalidArgument, "trace message: longer than " + std::to_string(kMaxTraceMessage) + " bytes");
  return std::move(t.text);
}

}  // namespace openflint
