// ImageText: the IMG form's writer and reader (offset-addressed big-endian words as hex).
#include "burn/ImageText.h"

#include <algorithm>
#include <charconv>

namespace openflint::burn {

namespace {

constexpr std::size_t kLineBytes = 32;
constexpr char kHexDigits[] = "0123456789abcdef";

void append_hex(std::string& out, std::uint64_t value, int digits) {
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out += kHexDigits[(value >> shift) & 0xf];
}

auto bad_text_line(std::size_t line, const std::string& why) {
  return make_error(ErrorCode::InvalidImage, "IMG text line " + std::to_string(line) + ": " + why);
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string image_text(Bytes image, std::string_view title) {
  std::string out;
  out.reserve(image.size() / kLineBytes * (10 + kLineBytes / 4 * 9 + 1) + 256);
  if (!title.empty()) {
    out += "# ";
    out += title;
    out += '\n';
  }
  out += "# offset: 32-bit words in flash order (big-endian), 32 bytes a line\n";
  for (std::size_t at = 0; at < image.size(); at += kLineBytes) {
    append_hex(out, at, 8);
    out += ':';
    const std::size_t end = std::min(image.size(), at + kLineBytes);
    for (std::size_t w = at; w < end; w += 4) {
      out += ' ';
      for (std::size_t b = w; b < std::min(end, w + 4); ++b) append_hex(out, image[b], 2);
    }
    out += '\n';
  }
  return out;
}

Result<std::vector<std::uint8_t>> parse_image_text(std::string_view text) {
  std::vector<std::uint8_t> bytes;
  std::size_t line_no = 0;
  bool short_word_seen = false;  // only the image's very last word may be short
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) return bad_text_line(line_no, "expected 'OFFSET: WORD ...'");
    std::uint64_t offset = 0;
    const auto [ptr, ec] = std::from_chars(line.data(), line.data() + colon, offset, 16);
    if (ec != std::errc{} || ptr != line.data() + colon) return bad_text_line(line_no, "bad offset");
    if (offset != bytes.size()) {
      std::string expected;
      append_hex(expected, bytes.size(), 8);
      return bad_text_line(line_no, "offset " + std::string(line.substr(0, colon)) + " is not the next one (" + expected + ")");
    }
    if (short_word_seen) return bad_text_line(line_no, "data after a short word");
    std::string_view rest = line.substr(colon + 1);
    while (true) {
      while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
      if (rest.empty()) break;
      const auto space = rest.find(' ');
      const std::string_view word = rest.substr(0, space);
      rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space);
      if (short_word_seen || word.size() > 8 || word.size() % 2 != 0)
        return bad_text_line(line_no, "bad word '" + std::string(word) + "'");
      for (std::size_t i = 0; i < word.size(); i += 2) {
        const int hi = hex_value(word[i]);
        const int lo = hex_value(word[i + 1]);
        if (hi < 0 || lo < 0) return bad_text_line(line_no, "bad word '" + std::string(word) + "'");
        bytes.push_back(static_cast<std::uint8_t>(hi * 16 + lo));
      }
      short_word_seen = word.size() < 8;
    }
  }
  return bytes;
}

}  // namespace openflint::burn
