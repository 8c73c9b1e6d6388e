// TextArgs: number parsing for command lines and padded table rows.
#include "cli/TextArgs.h"

#include <charconv>
#include <string_view>

namespace openflint::cli {

Result<std::uint64_t> parse_number(const std::string& text, const std::string& what) {
  std::string_view digits = text;
  int base = 10;
  if (digits.starts_with("0x") || digits.starts_with("0X")) {
    digits.remove_prefix(2);
    base = 16;
  }
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
    return make_error(ErrorCode::InvalidArgument, what + " '" + text + "' is not a number (use 0x1000 or 4096)");
  return value;
}

std::string table_row(const std::vector<std::pair<std::string, int>>& cells) {
  std::string line;
  for (const auto& [text, width] : cells) {
    std::string cell = text;
    if (static_cast<int>(cell.size()) < width) cell.resize(static_cast<std::size_t>(width), ' ');
    line += cell + " ";
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line + "\n";
}

}  // namespace openflint::cli
