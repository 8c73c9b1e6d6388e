// TraceRecord: writing and reading the mlx5_fw tracepoint's text form.
#include "image/TraceRecord.h"

#include "core/HexString.h"

namespace openflint {
namespace {

// "[0x<hex>]" at the front of `rest`, at most `max` in value; consumes it and the space after
// (which may be missing at the end of the text when `last`: an empty message, trailing space trimmed).
Result<std::uint64_t> take_bracketed_hex(std::string_view& rest, std::uint64_t max, std::string_view what, bool last) {
  if (rest.substr(0, 3) != "[0x")
    return make_error(ErrorCode::InvalidArgument, "tracepoint text: expected '[0x' before the " + std::string(what));
  std::size_t i = 3;
  std::uint64_t v = 0;
  for (; i < rest.size() && rest[i] != ']'; ++i) {
    const char c = rest[i];
    const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0 || v > (max >> 4))
      return make_error(ErrorCode::InvalidArgument, "tracepoint text: bad " + std::string(what));
    v = v << 4 | static_cast<std::uint64_t>(d);
  }
  if (i == 3 || i >= rest.size() || v > max)
    return make_error(ErrorCode::InvalidArgument, "tracepoint text: bad " + std::string(what));
  rest.remove_prefix(i + 1);
  if (last && rest.empty()) return v;
  if (rest.substr(0, 1) != " ")
    return make_error(ErrorCode::InvalidArgument, "tracepoint text: expected a space after the " + std::string(what));
  rest.remove_prefix(1);
  return v;
}

}  // namespace

std::string tracepoint_text(std::string_view dbdf, const TraceRecord& record) {
  std::string s(dbdf);
  s += " [" + hex_string(record.timestamp) + "] ";
  s += record.lost ? "1" : "0";
  s += " [" + hex_string(record.event_id) + "] ";
  s += record.message;
  return s;
}

Result<ParsedTracepoint> parse_tracepoint_text(std::string_view text) {
  ParsedTracepoint out;
  const std::size_t space = text.find(' ');
  if (space == 0 || space == std::string_view::npos)
    return make_error(ErrorCode::InvalidArgument, "tracepoint text: no device name before the timestamp");
  out.dbdf = std::string(text.substr(0, space));
  std::string_view rest = text.substr(space + 1);
  OF_ASSIGN(out.record.timestamp, take_bracketed_hex(rest, (std::uint64_t{1} << 53) - 1, "timestamp", false));
  if (rest.size() < 2 || (rest[0] != '0' && rest[0] != '1') || rest[1] != ' ')
    return make_error(ErrorCode::InvalidArgument, "tracepoint text: the lost flag is not 0 or 1");
  out.record.lost = rest[0] == '1';
  rest.remove_prefix(2);
  OF_ASSIGN(const std::uint64_t id, take_bracketed_hex(rest, 0xff, "event id", true));
  out.record.event_id = static_cast<std::uint8_t>(id);
  out.record.message = std::string(rest);
  return out;
}

}  // namespace openflint
