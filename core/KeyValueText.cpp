// KeyValueText: the line grammar of key = value files (ibadm.conf).
#include "core/KeyValueText.h"

#include "core/BlankTrim.h"

namespace openflint {
namespace {

bool valid_key(std::string_view key) {
  if (key.empty() || key[0] < 'a' || key[0] > 'z') return false;
  for (const char c : key)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

}  // namespace

Error line_error(std::string_view source, std::size_t line, std::string_view why) {
  return Error(ErrorCode::InvalidArgument, std::string(source) + ":" + std::to_string(line) + ": " + std::string(why));
}

Result<std::vector<KeyValueLine>> parse_key_value_text(std::string_view text, std::string_view source) {
  std::vector<KeyValueLine> out;
  std::size_t number = 0;
  while (!text.empty()) {
    const auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    ++number;
    for (const char c : line) {
      const auto u = static_cast<unsigned char>(c);
      if ((u < 0x20 && c != '\t' && c != '\r') || u >= 0x7f)
        return make_error(line_error(source, number, "a control or non-ASCII character"));
    }
    line = trim_blanks(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    const auto eq = line.find('=');
    if (eq == std::string_view::npos) return make_error(line_error(source, number, "expected KEY = VALUE"));
    const std::string_view key = trim_blanks(line.substr(0, eq));
    const std::string_view value = trim_blanks(line.substr(eq + 1));
    if (!valid_key(key))
      return make_error(line_error(source, number, "'" + std::string(key.substr(0, 64)) +
                                                       "' is not a key (lower-case letters, digits, '_')"));
    if (value.empty()) return make_error(line_error(source, number, std::string(key) + " has no value"));
    out.push_back(KeyValueLine{.key = std::string(key), .value = std::string(value), .line = number});
  }
  return out;
}

}  // namespace openflint
