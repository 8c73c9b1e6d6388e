// TraceMessageFormat: the printf subset of firmware trace messages, done safely on 32-bit parameters.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/Result.h"

namespace openflint {

// The Linux driver's view of a format string (fw-trace-and-fwctl.md A2 steps 2 and 6): every
// "%llx" becomes "%x%x" (a 64-bit value sent as two 32-bit parameters, high word first), then
// every '%' character counts as one parameter. So "%%" counts two, although printing it takes
// none: we count as the driver does, because the count decides when a message is complete, and
// a driver that counted otherwise would wait for a different number of parameter events.
// Firmware strings (ours included) therefore avoid "%%".
[[nodiscard]] std::string rewrite_trace_format(std::string_view format);
// The driver's count for `format` as stored in the DB: the '%' characters once every "%llx" is
// rewritten (computed without copying the format).
[[nodiscard]] std::size_t count_trace_params(std::string_view format);

// The text of one message and what went wrong making it. Never an error: a trace must go on.
struct TraceMessageText {
  std::string text;
  std::size_t missing = 0;      // conversions with no parameter left: "%!d(MISSING)" in the text
  std::size_t unsupported = 0;  // conversions outside the subset: "%!s(UNSUPPORTED)"; a lone '%' at the end: "%!(NOVERB)"
  bool truncated = false;       // cut to kMaxTraceMessage bytes, as the driver's 512-byte buffer cuts it

  [[nodiscard]] bool clean() const { return missing == 0 && unsupported == 0 && !truncated; }
};

inline constexpr std::size_t kMaxTraceMessage = 511;

// Formats `format` (already rewritten) over `params`, never through the C printf family: the
// format comes from the device. The subset: %d %i %u %x %X %o %c and %%; flags - + space # 0;
// a width and a precision as digits or '*' (which takes a parameter, as in C); length
// modifiers hh and h narrow the parameter, l ll j z t L q are accepted and leave it 32 bits
// (zero-extended: the driver passes 32-bit values). Each other conversion takes a parameter
// and prints a marker. %c of 0 ends the message (the driver's NUL ends its string there).
// Widths and precisions above kMaxTraceMessage are cut to it.
[[nodiscard]] TraceMessageText format_trace_message(std::string_view format, std::span<const std::uint32_t> params);

// The same, as a Result: InvalidArgument naming the first problem unless the text is clean.
[[nodiscard]] Result<std::string> format_trace_message_strict(std::string_view format, std::span<const std::uint32_t> params);

}  // namespace openflint
